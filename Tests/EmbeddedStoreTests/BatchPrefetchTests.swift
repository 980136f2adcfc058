import ProgressStore
import Testing

@testable import EmbeddedStore

/// A batch finds every event's reader hash first and fetches the buckets of the events a few
/// places ahead while folding: what it folds must not depend on that, also when an article's
/// table grows (and its buckets move) in the middle of the batch.
@Suite("Folding a batch with its buckets fetched ahead")
struct BatchPrefetchTests {
    @Test("readers new and returning, tables outgrown mid-batch: as the events one at a time")
    func growingTables() {
        var random = SplitMix(state: 2026)
        let articles = ["/big", "/medium", "/small"]
        var events: [EventRecord] = []
        for n in 0..<12_000 {
            // Mostly new readers at first (every table rebuilds many times), then mostly
            // returning ones, some on other days.
            let article = articles[[0, 0, 0, 1, 1, 2][Int.random(in: 0..<6, using: &random)]]
            let reader = n < 6_000 ? "reader-\(n)" : "reader-\(Int.random(in: 0..<6_500, using: &random))"
            events.append(RandomIndexLoad.event(article, reader, &random))
        }
        let batched = MemoryIndex()
        var start = 0
        while start < events.count {
            let end = min(events.count, start + .random(in: 8...1_500, using: &random))
            batched.apply(Array(events[start..<end]))
            start = end
        }
        let single = MemoryIndex()
        for event in events { single.apply([event]) }
        let pairs = Set(events.map { [$0.article, $0.reader] }).count
        #expect(batched.pairCount == pairs)
        #expect(single.pairCount == pairs)
        let days = RandomIndexLoad.baseDay
        for article in articles {
            for range in [DayRange.allTime, DayRange(from: Int32(days + 2), to: Int32(days + 6))] {
                let same = batched.readers(of: article, in: range) == single.readers(of: article, in: range)
                #expect(same, "\(article) \(range)")
            }
        }
    }
}
