import Testing

@testable import ProgressStore

/// The deduplication ids in 64 parts, so that a checkpoint's copy-on-write snapshot makes the
/// next append copy one part, not all of them.
@Suite("Recent ids")
struct RecentIDsTests {
    static func key(_ index: Int) -> ExactKey {
        ExactKey("14:/blog/post-\(index % 97)12:reader-\(index % 5000)evt-\(index)")
    }

    @Test("holds, replaces and forgets ids, and a copy keeps what it had")
    func valueSemantics() {
        var ids = RecentIDs()
        for index in 0..<10_000 { ids[Self.key(index)] = Int64(index) }
        #expect(ids.count == 10_000)
        let snapshot = ids
        ids[Self.key(1)] = 99
        ids[Self.key(2)] = nil
        ids[Self.key(10_001)] = 7
        #expect(ids[Self.key(1)] == 99 && ids[Self.key(2)] == nil && ids[Self.key(10_001)] == 7)
        #expect(snapshot[Self.key(1)] == 1 && snapshot[Self.key(2)] == 2 && snapshot[Self.key(10_001)] == nil)
        #expect(snapshot.count == 10_000 && ids.count == 10_000)
        var seen = 0
        var sum: Int64 = 0
        snapshot.forEachID { _, seenMs in
            seen += 1
            sum += seenMs
        }
        #expect(seen == 10_000 && sum == Int64(10_000 * 9_999 / 2))
        #expect(RecentIDs([Self.key(3): 3, Self.key(4): 4])[Self.key(4)] == 4)
    }

    @Test("ids that differ only in their last bytes spread over the parts")
    func spread() {
        var counts = [Int](repeating: 0, count: RecentIDs.shardCount)
        for index in 0..<64_000 {
            var one = RecentIDs()
            one[Self.key(index)] = 1
            counts[one.shardIndices().first!] += 1
        }
        // 1000 a part on average; a part holding three times that would make appends after a
        // checkpoint copy three times as much as they need to.
        #expect(counts.max()! < 3000, "\(counts)")
        #expect(counts.min()! > 0, "\(counts)")
    }
}
