import EmbeddedStore
import ProgressStore

/// One article of a million readers against one of a thousand: the index's memory per pair,
/// and what the stats route's default query costs at each size (counters and histograms answer
/// it, whatever the size) and a query off that fast path (every reader folded).
enum IndexScaleBench {
    static func run(pairs: Int) {
        trimHeap()
        let before = residentBytes()
        let index = StandaloneIndex()
        // 12-byte reader ids, one event (so one day) each, 10,000 to a commit.
        for start in stride(from: 0, to: pairs, by: 10_000) {
            index.apply(
                (start..<min(pairs, start + 10_000)).map { i in
                    let id = String(i, radix: 16)
                    return EventRecord(
                        article: "/million", reader: String(repeating: "0", count: 12 - id.count) + id,
                        timeMs: Int64(i % 86_400_000), progress: Double(i % 1000) / 999,
                        seenDepth: Double(i % 997) / 996, scrollable: i % 50 != 0, engagedMs: Int64(i % 7_000)
                    )
                })
        }
        let grown = residentBytes() - before
        check(index.pairCount == pairs, "\(index.pairCount) pairs held of \(pairs) applied")
        print(
            "index, one article of \(pairs) readers (12-byte ids, one day each): "
                + "\(figure(Double(grown) / Double(pairs))) bytes RSS a pair, "
                + "\(figure(Double(index.footprint) / Double(pairs))) allocated by the index")

        index.apply(
            (0..<1_000).map { i in
                EventRecord(
                    article: "/thousand", reader: "reader-\(i)", timeMs: Int64(i), progress: Double(i) / 999,
                    seenDepth: Double(i) / 999, scrollable: true, engagedMs: 0)
            })
        let query = { (article: String, minEngagedSeconds: Double) in
            StatisticsQuery(article: article, threshold: 0.9, minEngagedSeconds: minEngagedSeconds)
        }
        let small = medianSeconds { _ = index.statistics(query("/thousand", 0)) }
        let large = medianSeconds { _ = index.statistics(query("/million", 0)) }
        print(
            "index statistics, default query: 1k readers \(figure(small * 1e6, 2)) µs, "
                + "\(pairs) readers \(figure(large * 1e6, 2)) µs, ratio \(figure(large / small, 3)) (median of 15)"
        )
        let folded = medianSeconds(rounds: 3, calls: 1) { _ = index.statistics(query("/million", 1)) }
        print(
            "index statistics off the fast path (every reader folded), \(pairs) readers: \(figure(folded * 1e3)) ms"
        )
    }
}
