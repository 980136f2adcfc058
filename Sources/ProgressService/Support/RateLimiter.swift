import Synchronization

/// A shard's size at which it first forgets refilled buckets.
private let minimumPruneSize = 1024

/// At most `rate` requests a second from one client, as a token bucket per client: a client
/// may spend a second's worth at once, and earns `rate` more each second after (docs/api.md: 429
/// with `Retry-After`).
///
/// Clients are kept in shards, each behind its own lock, so that the workers rarely wait for
/// one another. Once a shard holds 1024 clients, and again whenever it has doubled since, it
/// forgets those whose buckets have refilled (a client quiet for a second is as good as new):
/// memory follows the most clients seen within about a second, not every client ever seen.
final class RateLimiter<Client: Hashable & Sendable>: Sendable {
    private struct Bucket {
        var tokens: Double
        /// When `tokens` was last brought up to date, in ``MonotonicClock`` nanoseconds.
        var updated: Int64
    }

    private struct Table {
        var buckets: [Client: Bucket] = [:]
        /// The size at which the shard next forgets refilled buckets.
        var pruneAt = minimumPruneSize
    }

    private final class Shard: Sendable {
        let table = Mutex(Table())
    }

    /// Requests a second per client, and the most a client may spend at once.
    let rate: Int
    /// Nanoseconds on a monotonic clock, by which buckets refill: ``MonotonicClock`` unless a
    /// test turns one of its own.
    private let clock: @Sendable () -> Int64
    private let shards: [Shard]
    private static var shardCount: Int { 16 }

    init(rate: Int, clock: @escaping @Sendable () -> Int64 = MonotonicClock.now) {
        precondition(rate > 0, "a rate limit is a positive number of requests a second")
        self.rate = rate
        self.clock = clock
        shards = (0..<Self.shardCount).map { _ in Shard() }
    }

    /// Takes one request's token for `client` now, by the limiter's clock; `nil` when it had
    /// one, otherwise the whole seconds until it will have.
    func admit(_ client: Client) -> Int? {
        admit(client, now: clock())
    }

    /// Takes one request's token for `client` at `now` (``MonotonicClock`` nanoseconds); `nil`
    /// when it had one, otherwise the whole seconds until it will have.
    func admit(_ client: Client, now: Int64) -> Int? {
        let capacity = Double(rate)
        let perNanosecond = capacity / 1e9
        let shard = shards[Int(UInt(bitPattern: client.hashValue) % UInt(Self.shardCount))]
        return shard.table.withLock { table in
            var bucket = table.buckets[client] ?? Bucket(tokens: capacity, updated: now)
            bucket.tokens = min(
                capacity, bucket.tokens + Double(max(0, now - bucket.updated)) * perNanosecond)
            // Two requests may read the clock in one order and take the lock in the other.
            bucket.updated = max(bucket.updated, now)
            let wait: Int?
            if bucket.tokens >= 1 {
                bucket.tokens -= 1
                wait = nil
            } else {
                wait = max(1, Int(((1 - bucket.tokens) / capacity).rounded(.up)))
            }
            table.buckets[client] = bucket
            if table.buckets.count >= table.pruneAt {
                // A bucket left alone for a second is full again: forgetting it changes nothing.
                table.buckets = table.buckets.filter { now - $0.value.updated < 1_000_000_000 }
                table.pruneAt = max(minimumPruneSize, 2 * table.buckets.count)
            }
            return wait
        }
    }

    /// Clients held, over all shards (for tests).
    var clientCount: Int {
        shards.reduce(0) { total, shard in total + shard.table.withLock { $0.buckets.count } }
    }
}
