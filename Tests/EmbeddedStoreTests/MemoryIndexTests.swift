import Foundation
import ProgressStore
import Synchronization
import Testing

@testable import EmbeddedStore

/// Events whose readers fold to ArticleStatisticsTests' five readers, `copies` times over
/// (readers named r1-0, r2-0, …). r5 never could scroll.
func fiveReaders(copies: Int) -> [EventRecord] {
    (0..<copies).flatMap { copy -> [EventRecord] in
        func on(_ name: String, _ time: Int64, _ progress: Double, _ seen: Double, _ engagedMs: Int64)
            -> EventRecord
        {
            event("/five", "\(name)-\(copy)", at: time, progress: progress, seen: seen, engagedMs: engagedMs)
        }
        return [
            on("r1", 100, 0.2, 0.5, 1_000), on("r1", 200, 0.1, 0.4, 0),
            on("r2", 50, 0.3, 0.6, 2_000), on("r2", 300, 0.5, 0.2, 3_000), on("r2", 120, 0.4, 0.1, 0),
            on("r3", 400, 0.9, 0.95, 1_500),
            on("r4", 150, 0.2, 0.3, 0), on("r4", 500, 1, 1, 0), on("r4", 250, 0.7, 0.9, 0),
            on("r4", 300, 0.9, 0.5, 0),
            event("/five", "r5-\(copy)", at: 600, progress: 0, seen: 1, scrollable: false, engagedMs: 2_500),
        ]
    }
}

/// 101 reach values from runs of (value, how many k's).
private func curve(_ runs: [(Double, Int)]) -> [Double] {
    runs.flatMap { value, count in Array(repeating: value, count: count) }
}

private func close(_ a: Double, _ b: Double) -> Bool { abs(a - b) < 1e-12 }

@Suite("MemoryIndex")
struct MemoryIndexTests {
    // 1 copy folds readers; 150 copies (750 readers) reads the histograms. Same figures.
    @Test("progress metric, hand-worked, folded and from histograms", arguments: [1, 150])
    func progressMetric(copies: Int) throws {
        let index = MemoryIndex()
        index.apply(fiveReaders(copies: copies))
        let stats = try #require(
            try index.statistics(
                of: "/five", in: .allTime, metric: .progress, threshold: 0.9, minEngagedSeconds: 0))
        #expect(stats.readers == 5 * copies)
        #expect(stats.unscrollableReaders == copies)
        #expect(stats.counted == 4 * copies)
        #expect(stats.events == 11 * Int64(copies))
        #expect(stats.completed == 2 * copies)  // r3 (0.9 ≥ 0.9) and r4
        #expect(stats.rate == 0.5)
        #expect(close(stats.depthMean, 0.65))  // (0.2 + 0.5 + 0.9 + 1) / 4
        // Depths 0.2, 0.5, 0.9, 1, each `copies` times: ranks c, 2c, 3c.
        #expect(stats.p25 == 0.2)
        #expect(stats.median == 0.5)
        #expect(stats.p75 == 0.9)
        #expect(stats.reach == curve([(1, 21), (0.75, 30), (0.5, 40), (0.25, 10)]))
        #expect(stats.engagedSecondsTotal == 10 * Double(copies))
        #expect(stats.engagedMeanPerReader == 2)
        #expect(stats.firstMs == 50)
        #expect(stats.lastMs == 600)
    }

    @Test("seenDepth metric, hand-worked, folded and from histograms", arguments: [1, 150])
    func seenDepthMetric(copies: Int) throws {
        let index = MemoryIndex()
        index.apply(fiveReaders(copies: copies))
        let stats = try #require(
            try index.statistics(
                of: "/five", in: .allTime, metric: .seenDepth, threshold: 0.9, minEngagedSeconds: 0))
        #expect(stats.unscrollableReaders == copies)
        #expect(stats.counted == 5 * copies)
        #expect(stats.completed == 3 * copies)  // r3, r4, r5
        #expect(stats.rate == 0.6)
        #expect(close(stats.depthMean, 0.81))  // (0.5 + 0.6 + 0.95 + 1 + 1) / 5
        // Depths 0.5, 0.6, 0.95, 1, 1: ranks ⌈1.25c⌉, ⌈2.5c⌉, ⌈3.75c⌉.
        #expect(stats.p25 == 0.6)
        #expect(stats.median == 0.95)
        #expect(stats.p75 == 1)
        #expect(stats.reach == curve([(1, 51), (0.8, 10), (0.6, 35), (0.4, 5)]))
    }

    @Test("off-edge thresholds and engaged minimums fall back to folding", arguments: [1, 150])
    func fallbacks(copies: Int) throws {
        let index = MemoryIndex()
        index.apply(fiveReaders(copies: copies))
        let offEdge = try #require(
            try index.statistics(
                of: "/five", in: .allTime, metric: .progress, threshold: 0.8999, minEngagedSeconds: 0))
        #expect(offEdge.completed == 2 * copies)  // 0.9 ≥ 0.8999
        let engaged = try #require(
            try index.statistics(
                of: "/five", in: .allTime, metric: .progress, threshold: 0.9, minEngagedSeconds: 1.5))
        #expect(engaged.completed == copies)  // r3 has exactly 1.5 s; r4 none
        let late = try #require(
            try index.statistics(
                of: "/five", in: .allTime, metric: .progress, threshold: 0.95, minEngagedSeconds: 0))
        #expect(late.completed == copies)  // only r4 (1)
    }

    @Test("an article with events, none in range: zeros and no times")
    func emptyRange() throws {
        let index = MemoryIndex()
        index.apply(fiveReaders(copies: 150))
        let stats = try #require(
            try index.statistics(
                of: "/five", in: DayRange(from: 1), metric: .progress, threshold: 0.9, minEngagedSeconds: 0))
        #expect(
            stats
                == ArticleStatistics(
                    readers: 0, unscrollableReaders: 0, counted: 0, events: 0, completed: 0, rate: 0,
                    depthMean: 0, p25: 0, median: 0, p75: 0, reach: Array(repeating: 0, count: 101),
                    engagedSecondsTotal: 0, engagedMeanPerReader: 0, firstMs: nil, lastMs: nil))
    }

    @Test("a reader who could not scroll and later could counts from then on", arguments: [10, 600])
    func turnsScrollable(others: Int) throws {
        let index = MemoryIndex()
        index.apply((0..<others).map { event("/s", "o\($0)", progress: 0.5, seen: 0.5) })
        index.apply([event("/s", "late", at: 1_000, progress: 0.3, seen: 0.4, scrollable: false)])
        let before = try #require(
            try index.statistics(
                of: "/s", in: .allTime, metric: .progress, threshold: 0.9, minEngagedSeconds: 0))
        #expect(before.unscrollableReaders == 1)
        #expect(before.counted == others)
        #expect(before.depthMean == 0.5)
        #expect(before.completed == 0)

        index.apply([event("/s", "late", at: dayMs + 5, progress: 0.95, seen: 0.2, scrollable: true)])
        let after = try #require(
            try index.statistics(
                of: "/s", in: .allTime, metric: .progress, threshold: 0.9, minEngagedSeconds: 0))
        #expect(after.unscrollableReaders == 0)
        #expect(after.counted == others + 1)
        #expect(after.completed == 1)
        #expect(close(after.depthMean, (Double(others) * 0.5 + 0.95) / Double(others + 1)))
        #expect(after.p75 == 0.5)
        #expect(after.reach[95] == 1 / Double(others + 1))
        #expect(after.reach[96] == 0)
        let seen = try #require(
            try index.statistics(
                of: "/s", in: .allTime, metric: .seenDepth, threshold: 0.4, minEngagedSeconds: 0)
        )
        #expect(seen.completed == others + 1)  // late's seen depth stays 0.4
        // On day 0 alone the late reader still could not scroll.
        let dayZero = try #require(
            try index.statistics(
                of: "/s", in: DayRange(from: 0, to: 0), metric: .progress, threshold: 0.9,
                minEngagedSeconds: 0))
        #expect(dayZero.unscrollableReaders == 1)
        #expect(dayZero.completed == 0)
    }

    @Test("an article crossing into histograms keeps its figures, and readers moving bins")
    func crossesHistogramThreshold() throws {
        let index = MemoryIndex()
        // Seen depths cycle 0.25, 0.5, 0.75, 1.
        func add(_ i: Int) { index.apply([event("/x", "r\(i)", seen: Double(i % 4 + 1) / 4)]) }
        func stats() throws -> ArticleStatistics {
            try #require(
                try index.statistics(
                    of: "/x", in: .allTime, metric: .seenDepth, threshold: 0.75, minEngagedSeconds: 0))
        }
        for i in 0..<512 { add(i) }
        var s = try stats()  // 128 of each
        #expect((s.counted, s.completed, s.p25, s.median, s.p75) == (512, 256, 0.25, 0.5, 0.75))
        #expect(s.depthMean == 0.625)
        add(512)  // a 129th 0.25: ranks 129, 257, 385
        s = try stats()
        #expect((s.counted, s.completed, s.p25, s.median, s.p75) == (513, 256, 0.25, 0.5, 0.75))
        #expect(close(s.depthMean, 320.25 / 513))
        // r0 leaves 0.25 for 1: 128, 128, 128, 129 — ranks 129, 257, 385 now land one value up.
        index.apply([event("/x", "r0", seen: 1)])
        s = try stats()
        #expect((s.counted, s.completed, s.p25, s.median, s.p75) == (513, 257, 0.5, 0.75, 1))
        #expect(close(s.depthMean, 321.0 / 513))
        #expect(s.reach[26] == 385.0 / 513)
    }
}
