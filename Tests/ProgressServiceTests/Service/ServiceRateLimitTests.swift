import EmbeddedStore
import HTTPServer
import ProgressStore
import Synchronization
import Testing

@testable import ProgressService

/// The rate limit (docs/api.md, "Rate limit") over a real socket, with the real HTTP server, whose
/// peer addresses tell the clients apart; the buckets refill by a clock that moves only when the
/// test turns it, so that the time passing is the test's to give.
@Suite("Rate limits over a socket, on a clock the test turns")
struct ServiceRateLimitTests {
    /// The service at two requests a second on an in-memory store, served on a free port.
    final class Served {
        let clock: TurnedClock
        let store: EmbeddedStore
        let server: HTTPServer
        let port: UInt16

        init() throws {
            let clock = TurnedClock()
            self.clock = clock
            store = try EmbeddedStore.open(
                path: ":memory:", options: EmbeddedStore.Options(clock: { ServiceUnderTest.nowMs }))
            let service = ProgressService(
                configuration: ServiceConfiguration(rateLimit: 2), store: store,
                clock: { ServiceUnderTest.nowMs }, rateLimitClock: clock.now)
            server = HTTPServer(
                configuration: HTTPServerConfiguration(port: 0, threads: 2), responder: service)
            port = try server.start()
        }

        deinit {
            server.stop()
            store.close()
        }
    }

    static let article = "/limited/a"

    static func post(_ connection: Connection, reader: String) throws -> HTTPClient.Response {
        try connection.exchange(
            method: "POST", target: "/v1/events", headers: [("Content-Type", "application/json")],
            body: Array(ServiceUnderTest.event(article, reader).utf8))
    }

    @Test(
        "over its limit a client gets 429 with Retry-After and a JSON error; what it sent is not counted; /healthz and other clients go on; a second later so does it"
    )
    func overTheLimit() throws {
        let served = try Served()
        let connection = try Connection(port: served.port)
        // The clock stands still: a second's worth is spent at once, and the next one refused.
        for n in 0..<2 { #expect(try Self.post(connection, reader: "r\(n)").status == 202) }
        let refused = try Self.post(connection, reader: "r2")
        #expect(refused.status == 429)
        #expect(refused.header("Retry-After") == "1")
        #expect(refused.header("Content-Type") == "application/json")
        let error = try refused.json["error"] as? [String: Any]
        #expect(error?["code"] as? String == "rate_limited", "\(refused.text)")

        // Load balancers' probes are never refused.
        for _ in 0..<10 {
            #expect(
                try connection.exchange(method: "GET", target: "/healthz", headers: [], body: []).status
                    == 200)
        }
        // Another address has an allowance of its own.
        let other = try Connection(port: served.port, sourceAddress: "127.0.0.2")
        #expect(try Self.post(other, reader: "other").status == 202)

        // A second later the bucket is full again: two requests' worth, the stats and the metrics.
        served.clock.advance(nanoseconds: 1_000_000_000)
        let stats = try connection.exchange(
            method: "GET", target: ServiceUnderTest.statsPath(Self.article), headers: [], body: [])
        #expect(stats.status == 200)
        #expect(try stats.json["readers"] as? Int == 3, "\(stats.text)")
        #expect(try stats.json["events"] as? Int == 3, "\(stats.text)")
        let metrics = try connection.exchange(method: "GET", target: "/metrics", headers: [], body: [])
        #expect(metrics.status == 200)
        #expect(
            metrics.text.contains(#"route="/v1/events",method="POST",status="429"} 1"#), "\(metrics.text)")
    }
}

/// Nanoseconds on a monotonic clock that moves only when the test turns it.
final class TurnedClock: Sendable {
    private let nanoseconds = Atomic<Int64>(0)

    @Sendable func now() -> Int64 {
        nanoseconds.load(ordering: .sequentiallyConsistent)
    }

    func advance(nanoseconds step: Int64) {
        nanoseconds.add(step, ordering: .sequentiallyConsistent)
    }
}
