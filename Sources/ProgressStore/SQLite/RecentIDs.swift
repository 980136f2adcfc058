/// The deduplication ids of the last 24 hours, each with when it was acknowledged, kept in 64
/// dictionaries chosen by a few bytes of the key.
///
/// A checkpoint takes the ids as they are at one instant, under the writer's lock: a
/// copy-on-write copy, which costs nothing then — but the next append that adds an id used to
/// copy the whole dictionary, under that lock (some 80 ms at a million ids, every checkpoint).
/// Split in 64, an append copies only the part it adds to: the copying is spread over the next
/// appends, a 64th of it each.
struct RecentIDs: Sendable {
    static let shardCount = 64
    private var shards: [[ExactKey: Int64]]

    init(_ ids: [ExactKey: Int64] = [:]) {
        shards = Array(repeating: [:], count: Self.shardCount)
        for (key, seenMs) in ids { self[key] = seenMs }
    }

    /// When `key` was acknowledged, if it is held.
    subscript(key: ExactKey) -> Int64? {
        get { shards[Self.shard(of: key)][key] }
        set { shards[Self.shard(of: key)][key] = newValue }
    }

    var count: Int { shards.reduce(0) { $0 + $1.count } }

    /// Every id with when it was acknowledged, in no particular order.
    func forEachID(_ body: (ExactKey, Int64) throws -> Void) rethrows {
        for shard in shards {
            for (key, seenMs) in shard { try body(key, seenMs) }
        }
    }

    /// The parts that hold anything (a test hook: how keys spread).
    func shardIndices() -> [Int] {
        shards.indices.filter { !shards[$0].isEmpty }
    }

    /// Keys differ mostly in their last bytes (the client's id follows the article and the
    /// reader), so those and the length choose the part: cheaper than hashing the whole key twice.
    private static func shard(of key: ExactKey) -> Int {
        var key = key.string
        return key.withUTF8 { bytes in
            var mixed = UInt64(truncatingIfNeeded: bytes.count) &* 0x9E37_79B9_7F4A_7C15
            for byte in bytes.suffix(8) { mixed = (mixed ^ UInt64(byte)) &* 0x100_0000_01B3 }
            return Int(truncatingIfNeeded: (mixed ^ (mixed >> 29)) % UInt64(shardCount))
        }
    }
}
