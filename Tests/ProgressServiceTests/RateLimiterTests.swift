import Testing

@testable import ProgressService

@Suite("RateLimiter: token buckets per client, on a clock the test turns")
struct RateLimiterTests {
    static let second: Int64 = 1_000_000_000

    @Test("a client spends a second's worth at once, then earns rate a second; Retry-After rounds up")
    func burstThenRefill() {
        let limiter = RateLimiter<String>(rate: 5)
        for _ in 0..<5 { #expect(limiter.admit("a", now: 0) == nil) }
        #expect(limiter.admit("a", now: 0) == 1)
        // A fifth of a second earns one request.
        #expect(limiter.admit("a", now: Self.second / 5) == nil)
        #expect(limiter.admit("a", now: Self.second / 5) == 1)
        // Refused requests cost nothing: after a full second idle, a whole burst again, no more.
        #expect(limiter.admit("a", now: 10 * Self.second) == nil)
        for _ in 0..<4 { #expect(limiter.admit("a", now: 10 * Self.second) == nil) }
        #expect(limiter.admit("a", now: 10 * Self.second) == 1)
    }

    @Test("at one request a second the next is a second away at most: Retry-After is 1")
    func oneASecond() {
        let limiter = RateLimiter<String>(rate: 1)
        #expect(limiter.admit("a", now: 0) == nil)
        #expect(limiter.admit("a", now: Self.second / 10) == 1)
        #expect(limiter.admit("a", now: Self.second) == nil)
    }

    @Test("a clock read before another request's but applied after it earns nothing twice")
    func clockOutOfOrder() {
        let limiter = RateLimiter<String>(rate: 2)
        #expect(limiter.admit("a", now: 0) == nil)
        #expect(limiter.admit("a", now: 0) == nil)
        // Half a second earns one request; a request that read the clock earlier arrives after.
        #expect(limiter.admit("a", now: Self.second / 2) == nil)
        #expect(limiter.admit("a", now: Self.second / 4) == 1)
        #expect(limiter.admit("a", now: Self.second / 2) == 1)
        // Had the early clock been taken as the bucket's time, the half second before it would
        // have been earned twice, and this one let through.
        #expect(limiter.admit("a", now: 3 * Self.second / 4) == 1)
    }

    @Test("clients are counted apart")
    func clientsApart() {
        let limiter = RateLimiter<String>(rate: 2)
        for client in ["a", "b", "2001:db8::/64"] {
            #expect(limiter.admit(client, now: 0) == nil)
            #expect(limiter.admit(client, now: 0) == nil)
            #expect(limiter.admit(client, now: 0) == 1)
        }
    }

    @Test("clients quiet for a second are forgotten, so the table holds about the last second's")
    func forgetsQuietClients() {
        let limiter = RateLimiter<String>(rate: 3)
        for n in 0..<20_000 { #expect(limiter.admit("old-\(n)", now: 0) == nil) }
        #expect(limiter.clientCount == 20_000)
        for n in 0..<20_000 { #expect(limiter.admit("new-\(n)", now: 2 * Self.second) == nil) }
        #expect(limiter.clientCount >= 20_000)
        #expect(limiter.clientCount <= 25_000)
        // A forgotten client starts with a full bucket, as it would have had anyway.
        for _ in 0..<3 { #expect(limiter.admit("old-7", now: 2 * Self.second) == nil) }
        #expect(limiter.admit("old-7", now: 2 * Self.second) == 1)
    }
}
