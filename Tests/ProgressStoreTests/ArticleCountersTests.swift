import ProgressStore
import Testing

/// Figures of one reader: `events` events between `first` and `last` ms.
private func figures(
    _ progress: Double, _ seen: Double, scrollable: Bool = true, events: Int64 = 1, engagedMs: Int64 = 0,
    first: Int64 = 0, last: Int64 = 0
) -> ReaderFigures {
    ReaderFigures(
        maxProgress: progress, maxSeenDepth: seen, scrollable: scrollable, events: events,
        engagedMs: engagedMs,
        firstMs: first, lastMs: last)
}

/// What counters built from scratch and counters moved step by step must share (a histogram's
/// least value per bin is a lower bound, which moving may leave lower).
private func sameCounts(_ a: ArticleCounters, _ b: ArticleCounters) -> Bool {
    a.readers == b.readers && a.unscrollable == b.unscrollable && a.events == b.events
        && a.engagedMs == b.engagedMs && a.firstMs == b.firstMs && a.lastMs == b.lastMs
        && a.progressSum == b.progressSum && a.seenSum == b.seenSum
        && a.histograms?.progress.binCounts == b.histograms?.progress.binCounts
        && a.histograms?.seenDepth.binCounts == b.histograms?.seenDepth.binCounts
}

@Suite("ArticleCounters: a reader's move between depths, spans, the fast path, listing rows")
struct ArticleCountersTests {
    /// Histories of (reader, figures folded in), in order.
    static let histories: [[(String, ReaderFigures)]] = [
        [("a", figures(0.2, 0.5))],
        [("a", figures(0.2, 0.5)), ("a", figures(0.9, 0.4, first: 10, last: 20))],
        // Unscrollable, then scrollable: no longer left out of progress.
        [("a", figures(0.7, 0.3, scrollable: false)), ("a", figures(0.1, 0.3, first: 5, last: 5))],
        // Maxima that stay where they were move nothing.
        [("a", figures(0.5, 0.5)), ("a", figures(0.5, 0.5, events: 3, engagedMs: 700, first: -9, last: 40))],
        [
            ("a", figures(0.3, 0.3)), ("b", figures(1, 1, scrollable: false, engagedMs: 5)),
            ("a", figures(0.31, 0.2)), ("c", figures(0, 0)), ("b", figures(0, 1, scrollable: false)),
        ],
    ]

    @Test("moving readers step by step counts as counting their all-time figures once", arguments: histories)
    func moves(history: [(String, ReaderFigures)]) {
        for keepsHistograms in [false, true] {
            var moved = ArticleCounters(keepsHistograms: keepsHistograms)
            var allTime: [String: ReaderFigures] = [:]
            for (reader, added) in history {
                let before = allTime[reader]
                let after = before?.folded(added) ?? added
                moved.move(from: before, to: after)
                allTime[reader] = after
            }
            var once = ArticleCounters(keepsHistograms: keepsHistograms)
            for figures in allTime.values { once.move(from: nil, to: figures) }
            #expect(sameCounts(moved, once))
            #expect(moved.readers == allTime.count)
            #expect(moved.unscrollable == allTime.values.filter { !$0.scrollable }.count)
            #expect(moved.events == history.reduce(0) { $0 + $1.1.events })
            #expect(
                moved.histograms?.progress.total ?? moved.readers - moved.unscrollable == moved.readers
                    - moved.unscrollable)
            // Dropping every reader leaves nothing behind.
            for figures in allTime.values { moved.drop(figures) }
            #expect(sameCounts(moved, ArticleCounters(keepsHistograms: keepsHistograms)))
        }
    }

    @Test("hand-worked: two readers, one unscrollable")
    func handWorked() {
        var counters = ArticleCounters()
        counters.move(
            from: nil, to: figures(0.5, 0.75, events: 2, engagedMs: 100, first: 86_400_000, last: 86_400_010))
        counters.move(from: nil, to: figures(0.25, 0.25, scrollable: false, engagedMs: 50, first: 5, last: 6))
        #expect(counters.readers == 2 && counters.unscrollable == 1)
        #expect(counters.events == 3 && counters.engagedMs == 150)
        #expect(counters.firstMs == 5 && counters.lastMs == 86_400_010)
        #expect(counters.progressSum.mean(over: 1) == 0.5)
        #expect(counters.seenSum.mean(over: 2) == 0.5)
    }

    @Test(
        "spans and misses a range of days",
        arguments: [
            // (first day, last day, from, to, spans, misses)
            (3, 5, nil, nil, true, false), (3, 5, 3, 5, true, false), (3, 5, 4, nil, false, false),
            (3, 5, nil, 4, false, false), (3, 5, 6, nil, false, true), (3, 5, nil, 2, false, true),
            (-1, -1, -1, -1, true, false), (-1, -1, 0, nil, false, true),
        ] as [(Int32, Int32, Int32?, Int32?, Bool, Bool)])
    func ranges(first: Int32, last: Int32, from: Int32?, to: Int32?, spans: Bool, misses: Bool) {
        var counters = ArticleCounters()
        counters.move(
            from: nil, to: figures(0.5, 0.5, first: UTCDay.start(of: first), last: UTCDay.start(of: last) + 1)
        )
        let days = DayRange(from: from, to: to)
        #expect(counters.spans(days) == spans)
        #expect(counters.misses(days) == misses)
        // Without readers every range is all of them, and holds nothing.
        #expect(ArticleCounters().spans(days) && ArticleCounters().misses(days))
    }

    /// An article of `readers` readers at depths k/readers, with histograms once due.
    static func article(readers: Int) -> ArticleCounters {
        var counters = ArticleCounters()
        var all: [ReaderFigures] = []
        for k in 0..<readers {
            let reader = figures(
                Double(k) / Double(readers), 1, scrollable: k % 10 != 0, first: Int64(k), last: Int64(k))
            all.append(reader)
            if counters.move(from: nil, to: reader) {
                counters.histograms = DepthHistograms { body in all.forEach(body) }
            }
        }
        return counters
    }

    @Test(
        "statistics come from the counters only past 512 readers, all time, no engaged minimum, a 1/1000 threshold",
        arguments: [
            (513, DayRange.allTime, 0.9, 0, true), (512, .allTime, 0.9, 0, false),
            (513, .allTime, 0.9005, 0, false),
            (513, .allTime, 0.9, 1, false), (513, DayRange(from: 0), 0.9, 0, true),
            (513, DayRange(to: -1), 0.9, 0, false),
        ] as [(Int, DayRange, Double, Double, Bool)])
    func fastPath(readers: Int, days: DayRange, threshold: Double, minEngaged: Double, answers: Bool) {
        let counters = Self.article(readers: readers)
        let query = StatisticsQuery(
            article: "/a", days: days, threshold: threshold, minEngagedSeconds: minEngaged)
        let answered = counters.statistics(answering: query)
        #expect((answered != nil) == answers)
        if let answered {
            var all: [ReaderFigures] = []
            for k in 0..<readers {
                all.append(
                    figures(
                        Double(k) / Double(readers), 1, scrollable: k % 10 != 0, first: Int64(k),
                        last: Int64(k)))
            }
            let folded = ArticleStatistics.compute(readers: all, query: query)
            #expect(answered.readers == folded.readers && answered.counted == folded.counted)
            #expect(answered.completed == folded.completed && answered.reach == folded.reach)
            #expect(abs(answered.depthMean - folded.depthMean) < 1e-12)
            #expect(abs(answered.median - folded.median) <= 0.001)
        }
    }

    @Test("a listing row from the counters equals one tallied reader by reader", arguments: [0.5, 0.9, 1])
    func listing(threshold: Double) throws {
        let readers: [ReaderFigures] = (0..<700).map { (k: Int) -> ReaderFigures in
            let progress = Double(k % 101) / 100
            return figures(progress, 0.5, scrollable: k % 7 != 0, events: Int64(k % 3 + 1), last: Int64(k))
        }
        var counters = ArticleCounters(keepsHistograms: true)
        var tally = ListingTally()
        for reader in readers {
            counters.move(from: nil, to: reader)
            tally.add(reader, threshold: threshold)
        }
        let fromCounters = try #require(counters.listingTally(in: .allTime, threshold: threshold))
        #expect(fromCounters == tally)
        let row = tally.row(article: "/a")
        let counted = readers.filter { (reader: ReaderFigures) in reader.scrollable }
        let events = readers.reduce(Int64(0)) { (sum: Int64, reader: ReaderFigures) in sum + reader.events }
        let completed = counted.filter { (reader: ReaderFigures) in reader.maxProgress >= threshold }.count
        let progress = counted.reduce(0.0) { (sum: Double, reader: ReaderFigures) in sum + reader.maxProgress
        }
        #expect(row.readers == 700 && row.events == events && row.lastEventMs == 699)
        #expect(row.completionRate == Double(completed) / Double(counted.count))
        #expect(abs(row.meanDepth - progress / Double(counted.count)) < 1e-12)
        // No histograms, or a threshold between bins: the readers must be tallied.
        // Nothing to tally.
        #expect(ArticleCounters().listingTally(in: .allTime, threshold: threshold) != nil)
        counters.histograms = nil
        #expect(counters.listingTally(in: .allTime, threshold: threshold) == nil)
    }

    @Test(
        "a row where no reader counts has zero rates",
        arguments: [
            (
                ListingTally(),
                ArticleListing(
                    article: "/a", readers: 0, events: 0, completionRate: 0, meanDepth: 0, lastEventMs: nil)
            ),
            (
                ListingTally(
                    readers: 2, events: 5, counted: 0, completed: 0, progressSum: DepthSum(), lastMs: 9),
                ArticleListing(
                    article: "/a", readers: 2, events: 5, completionRate: 0, meanDepth: 0, lastEventMs: 9)
            ),
        ])
    func emptyRows(tally: ListingTally, row: ArticleListing) {
        #expect(tally.row(article: "/a") == row)
    }
}
