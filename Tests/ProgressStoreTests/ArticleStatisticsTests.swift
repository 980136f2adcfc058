import ProgressStore
import Testing

private func reader(
    _ name: String, progress: Double, seen: Double, scrollable: Bool = true, events: Int64 = 1,
    engagedMs: Int64 = 0, first: Int64 = 0, last: Int64 = 0
) -> ReaderFigures {
    ReaderFigures(
        maxProgress: progress, maxSeenDepth: seen, scrollable: scrollable, events: events,
        engagedMs: engagedMs,
        firstMs: first, lastMs: last)
}

/// Five readers; r5 never could scroll.
private let five = [
    reader("r1", progress: 0.2, seen: 0.5, events: 2, engagedMs: 1_000, first: 100, last: 200),
    reader("r2", progress: 0.5, seen: 0.6, events: 3, engagedMs: 5_000, first: 50, last: 300),
    reader("r3", progress: 0.9, seen: 0.95, events: 1, engagedMs: 1_500, first: 400, last: 400),
    reader("r4", progress: 1, seen: 1, events: 4, engagedMs: 0, first: 150, last: 500),
    reader("r5", progress: 0, seen: 1, scrollable: false, events: 1, engagedMs: 2_500, first: 600, last: 600),
]

/// 101 reach values from runs of (value, how many k's), written out by hand.
private func curve(_ runs: [(Double, Int)]) -> [Double] {
    runs.flatMap { value, count in Array(repeating: value, count: count) }
}

private func close(_ a: Double, _ b: Double) -> Bool { abs(a - b) < 1e-12 }

@Suite("ArticleStatistics")
struct ArticleStatisticsTests {
    @Test("progress metric: unscrollable readers are left out of depth and completion")
    func progressMetric() {
        let stats = ArticleStatistics.compute(
            readers: five, metric: .progress, threshold: 0.9, minEngagedSeconds: 0)
        #expect(stats.readers == 5)
        #expect(stats.unscrollableReaders == 1)
        #expect(stats.counted == 4)
        #expect(stats.events == 11)
        #expect(stats.completed == 2)  // r3 (0.9 ≥ 0.9) and r4
        #expect(stats.rate == 0.5)
        #expect(close(stats.depthMean, 0.65))  // (0.2 + 0.5 + 0.9 + 1) / 4
        // Depths 0.2, 0.5, 0.9, 1: ranks ⌈1⌉ = 1, ⌈2⌉ = 2, ⌈3⌉ = 3.
        #expect(stats.p25 == 0.2)
        #expect(stats.median == 0.5)
        #expect(stats.p75 == 0.9)
        // k 0…20: all four; 21…50: three; 51…90: two; 91…100: only r4.
        #expect(stats.reach == curve([(1, 21), (0.75, 30), (0.5, 40), (0.25, 10)]))
        #expect(stats.engagedSecondsTotal == 10)  // 10 000 ms, r5's included
        #expect(stats.engagedMeanPerReader == 2)  // over all five readers
        #expect(stats.firstMs == 50)
        #expect(stats.lastMs == 600)
    }

    @Test("seenDepth metric: every reader counts, and unscrollable readers are still named")
    func seenDepthMetric() {
        let stats = ArticleStatistics.compute(
            readers: five, metric: .seenDepth, threshold: 0.9, minEngagedSeconds: 0)
        #expect(stats.unscrollableReaders == 1)
        #expect(stats.counted == 5)
        #expect(stats.completed == 3)  // r3, r4, r5
        #expect(stats.rate == 0.6)
        #expect(close(stats.depthMean, 0.81))  // (0.5 + 0.6 + 0.95 + 1 + 1) / 5
        // Depths 0.5, 0.6, 0.95, 1, 1: ranks ⌈1.25⌉ = 2, ⌈2.5⌉ = 3, ⌈3.75⌉ = 4.
        #expect(stats.p25 == 0.6)
        #expect(stats.median == 0.95)
        #expect(stats.p75 == 1)
        // k 0…50: five; 51…60: four; 61…95: three; 96…100: two.
        #expect(stats.reach == curve([(1, 51), (0.8, 10), (0.6, 35), (0.4, 5)]))
    }

    @Test(
        "minEngagedSeconds also gates completion",
        arguments: [
            (threshold: 0.9, seconds: 1.5, completed: 1),  // r3 has exactly 1.5 s; r4 has none
            (threshold: 0.9, seconds: 1.501, completed: 0),
            (threshold: 0.5, seconds: 1, completed: 2),  // r2 and r3; r1 too shallow, r4 idle
            (threshold: 0, seconds: 0, completed: 4),
        ])
    func minEngagedSeconds(threshold: Double, seconds: Double, completed: Int) {
        let stats = ArticleStatistics.compute(
            readers: five, metric: .progress, threshold: threshold, minEngagedSeconds: seconds)
        #expect(stats.completed == completed)
        #expect(stats.rate == Double(completed) / 4)
    }

    @Test("no readers: zeros, zero reach, no times")
    func empty() {
        let stats = ArticleStatistics.compute(
            readers: [], metric: .progress, threshold: 0.9, minEngagedSeconds: 0)
        #expect(
            stats
                == ArticleStatistics(
                    readers: 0, unscrollableReaders: 0, counted: 0, events: 0, completed: 0, rate: 0,
                    depthMean: 0, p25: 0, median: 0, p75: 0, reach: Array(repeating: 0, count: 101),
                    engagedSecondsTotal: 0, engagedMeanPerReader: 0, firstMs: nil, lastMs: nil))
    }

    @Test("only unscrollable readers: no one counts, engaged time still does")
    func onlyUnscrollable() {
        let readers = [
            reader(
                "a", progress: 0, seen: 1, scrollable: false, events: 2, engagedMs: 3_000, first: 9, last: 10),
            reader(
                "b", progress: 0, seen: 1, scrollable: false, events: 1, engagedMs: 1_000, first: 5, last: 5),
        ]
        let stats = ArticleStatistics.compute(
            readers: readers, metric: .progress, threshold: 0.9, minEngagedSeconds: 0)
        #expect(stats.readers == 2)
        #expect(stats.unscrollableReaders == 2)
        #expect(stats.completed == 0)
        #expect(stats.rate == 0)
        #expect(stats.depthMean == 0)
        #expect(stats.median == 0)
        #expect(stats.reach == Array(repeating: 0, count: 101))
        #expect(stats.events == 3)
        #expect(stats.engagedSecondsTotal == 4)
        #expect(stats.engagedMeanPerReader == 2)
        #expect(stats.firstMs == 5)
        #expect(stats.lastMs == 10)
    }

    @Test(
        "nearest-rank quantiles",
        arguments: [
            (depths: [0.4], p25: 0.4, median: 0.4, p75: 0.4),
            (depths: [0.3, 0.1, 0.2], p25: 0.1, median: 0.2, p75: 0.3),  // ranks 1, 2, 3
            (depths: [0.7, 0.1, 0.9, 0.3], p25: 0.1, median: 0.3, p75: 0.7),  // ranks 1, 2, 3
            // Ranks ⌈2.5⌉ = 3, 5, ⌈7.5⌉ = 8.
            (depths: [1, 0.9, 0.8, 0.7, 0.6, 0.5, 0.4, 0.3, 0.2, 0.1], p25: 0.3, median: 0.5, p75: 0.8),
        ])
    func quantiles(depths: [Double], p25: Double, median: Double, p75: Double) {
        let readers = depths.enumerated().map { reader("r\($0)", progress: 0, seen: $1) }
        let stats = ArticleStatistics.compute(
            readers: readers, metric: .seenDepth, threshold: 1, minEngagedSeconds: 0)
        #expect(stats.p25 == p25)
        #expect(stats.median == median)
        #expect(stats.p75 == p75)
    }

    @Test(
        "a depth of exactly k/100 reaches k and not k + 1",
        arguments: [(0.29, 29), (0.57, 57), (0.07, 7), (0.01, 1), (1.0, 100), (0.0, 0)])
    func reachBoundary(depth: Double, k: Int) {
        let stats = ArticleStatistics.compute(
            readers: [reader("r", progress: depth, seen: 0)], metric: .progress, threshold: 1,
            minEngagedSeconds: 0)
        #expect(stats.reach[k] == 1)
        if k < 100 { #expect(stats.reach[k + 1] == 0) }
        #expect(stats.reach.count == 101)
    }
}
