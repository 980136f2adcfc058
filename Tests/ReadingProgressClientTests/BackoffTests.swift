import Foundation
import Testing

@testable import ReadingProgressClient

@Suite("Backoff and Retry-After")
struct BackoffTests {
    let backoff = Backoff(minimum: 1, maximum: 300)

    @Test(
        "the wait doubles with each failure in a row, between half and all of its ceiling, up to 5 minutes",
        arguments: [
            (1, 1.0), (2, 2.0), (3, 4.0), (6, 32.0), (9, 256.0), (10, 300.0), (40, 300.0), (200, 300.0),
        ])
    func doubling(failures: Int, ceiling: Double) {
        #expect(backoff.delay(afterFailures: failures, retryAfter: nil, jitter: 0) == ceiling / 2)
        #expect(backoff.delay(afterFailures: failures, retryAfter: nil, jitter: 1) == ceiling)
        let middle = backoff.delay(afterFailures: failures, retryAfter: nil, jitter: 0.5)
        #expect(middle > ceiling / 2 && middle < ceiling)
    }

    @Test("jitter spreads the waits of many clients")
    func spread() {
        let waits = Set(
            (0..<100).map { _ in
                backoff.delay(afterFailures: 4, retryAfter: nil, jitter: Double.random(in: 0...1))
            })
        #expect(waits.count > 50)
        #expect(waits.allSatisfy { (4...8).contains($0) })
    }

    @Test("never sooner than Retry-After, even past the maximum; a day at most")
    func retryAfter() {
        #expect(backoff.delay(afterFailures: 1, retryAfter: 7, jitter: 1) == 7)
        #expect(backoff.delay(afterFailures: 10, retryAfter: 7, jitter: 0) == 150)
        #expect(backoff.delay(afterFailures: 1, retryAfter: 3600, jitter: 0) == 3600)
        #expect(backoff.delay(afterFailures: 1, retryAfter: 1e12, jitter: 0) == 86_400)
    }

    @Test("Retry-After in seconds or as an HTTP date; anything else is no answer")
    func parsing() {
        let now = Date(timeIntervalSince1970: 1_764_547_200)  // Mon, 01 Dec 2025 00:00:00 GMT
        #expect(RetryAfter.seconds("1", now: now) == 1)
        #expect(RetryAfter.seconds(" 120 ", now: now) == 120)
        #expect(RetryAfter.seconds("Mon, 01 Dec 2025 00:00:30 GMT", now: now) == 30)
        #expect(RetryAfter.seconds("Sun, 30 Nov 2025 00:00:00 GMT", now: now) == 0)
        for value in [nil, "", "-1", "soon", "1.5"] {
            #expect(RetryAfter.seconds(value, now: now) == nil, "\(value ?? "nil")")
        }
    }
}
