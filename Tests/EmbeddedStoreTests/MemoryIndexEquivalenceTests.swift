import Foundation
import ProgressStore
import Synchronization
import Testing

@testable import EmbeddedStore

/// Depths that sit on bin edges as often as between them.
private func depth(_ random: inout SplitMix) -> Double {
    switch Int.random(in: 0..<6, using: &random) {
    case 0: Double(Int.random(in: 0...1000, using: &random)) / 1000
    case 1: Double(Int.random(in: 0...100, using: &random)) / 100
    case 2: [0, 1, 0.9, 0.29].randomElement(using: &random)!
    default: Double.random(in: 0..<1, using: &random)
    }
}

/// The readers of `article` over `days`, folded from `events` the plain way, in byte order.
private func referenceReaders(of article: String, in days: DayRange, from events: [EventRecord])
    -> [ReaderSummary]
{
    var folded: [String: ReaderSummary] = [:]
    for e in events where e.article == article && e.day >= days.from ?? .min && e.day <= days.to ?? .max {
        var r =
            folded[e.reader]
            ?? ReaderSummary(
                reader: e.reader,
                figures: ReaderFigures(
                    maxProgress: 0, maxSeenDepth: 0, scrollable: false, events: 0, engagedMs: 0,
                    firstMs: e.timeMs, lastMs: e.timeMs))
        r.maxProgress = max(r.maxProgress, e.progress)
        r.maxSeenDepth = max(r.maxSeenDepth, e.seenDepth)
        r.scrollable = r.scrollable || e.scrollable
        r.events += 1
        r.engagedMs += e.engagedMs
        r.firstMs = min(r.firstMs, e.timeMs)
        r.lastMs = max(r.lastMs, e.timeMs)
        folded[e.reader] = r
    }
    return folded.values.sorted { $0.reader.utf8.lexicographicallyPrecedes($1.reader.utf8) }
}

private func expectEquivalent(_ got: ArticleStatistics, _ want: ArticleStatistics, _ context: String) {
    let near = { (a: Double, b: Double) in abs(a - b) <= 1e-9 }
    let quantileNear = { (a: Double, b: Double) in abs(a - b) <= 0.001 + 1e-12 }
    #expect(got.readers == want.readers, "\(context)")
    #expect(got.unscrollableReaders == want.unscrollableReaders, "\(context)")
    #expect(got.counted == want.counted, "\(context)")
    #expect(got.events == want.events, "\(context)")
    #expect(got.completed == want.completed, "\(context)")
    #expect(near(got.rate, want.rate), "\(context)")
    #expect(near(got.depthMean, want.depthMean), "\(context)")
    #expect(quantileNear(got.p25, want.p25), "\(context): p25 \(got.p25) vs \(want.p25)")
    #expect(quantileNear(got.median, want.median), "\(context): median \(got.median) vs \(want.median)")
    #expect(quantileNear(got.p75, want.p75), "\(context): p75 \(got.p75) vs \(want.p75)")
    #expect(zip(got.reach, want.reach).allSatisfy(near) && got.reach.count == 101, "\(context)")
    #expect(near(got.engagedSecondsTotal, want.engagedSecondsTotal), "\(context)")
    #expect(near(got.engagedMeanPerReader, want.engagedMeanPerReader), "\(context)")
    #expect(got.firstMs == want.firstMs && got.lastMs == want.lastMs, "\(context)")
}

@Suite("MemoryIndex agrees with ArticleStatistics.compute")
struct MemoryIndexEquivalenceTests {
    @Test(
        "random articles, both metrics, thresholds on and off edges, ranges, engaged minimums",
        arguments: 1...12)
    func randomArticles(seed: UInt64) throws {
        var random = SplitMix(state: seed)
        // "/big" crosses into histograms part way; "/small" never does.
        let sizes = ["/big": 900, "/small": 40]
        var events: [EventRecord] = []
        for (article, readers) in sizes {
            for reader in 0..<readers {
                for _ in 0..<Int.random(in: 1...4, using: &random) {
                    let day = Int64.random(in: 0...9, using: &random)
                    events.append(
                        EventRecord(
                            article: article, reader: "r\(reader)",
                            timeMs: day * dayMs + .random(in: 0..<dayMs, using: &random),
                            progress: depth(&random), seenDepth: depth(&random),
                            scrollable: Int.random(in: 0..<5, using: &random) > 0,
                            engagedMs: .random(in: 0...5_000, using: &random)))
                }
            }
        }
        events.shuffle(using: &random)
        let index = MemoryIndex()
        // The first third arrive as restored one-event rows, the rest as batches of events.
        let restored = events.count / 3
        for e in events[..<restored] {
            index.restore([
                (
                    e.article, e.reader, e.day,
                    ReaderFigures(
                        maxProgress: e.progress,
                        maxSeenDepth: e.seenDepth,
                        scrollable: e.scrollable, events: 1, engagedMs: e.engagedMs, firstMs: e.timeMs,
                        lastMs: e.timeMs)
                )
            ])
        }
        var start = restored
        while start < events.count {
            let end = min(events.count, start + .random(in: 1...200, using: &random))
            index.apply(Array(events[start..<end]))
            start = end
        }
        #expect(index.pairCount == sizes.values.reduce(0, +))

        let ranges = [
            DayRange.allTime, DayRange(from: 0, to: 9), DayRange(from: 2, to: 5), DayRange(to: 3),
            DayRange(from: 7),
            DayRange(from: 5, to: 2),
        ]
        for article in sizes.keys {
            for days in ranges {
                let readers = referenceReaders(of: article, in: days, from: events)
                #expect(index.readers(of: article, in: days) == readers)
                for metric in [ArticleStatistics.Metric.progress, .seenDepth] {
                    for threshold in [0.9, 0, 1, 0.29, 0.123, 0.1234, 0.9000001] {
                        for minimum in [0, 1.5] {
                            let got = try #require(
                                try index.statistics(
                                    of: article, in: days, metric: metric, threshold: threshold,
                                    minEngagedSeconds: minimum))
                            let want = ArticleStatistics.compute(
                                readers: readers.map(\.figures), metric: metric, threshold: threshold,
                                minEngagedSeconds: minimum)
                            expectEquivalent(
                                got, want, "seed \(seed) \(article) \(days) \(metric) \(threshold) \(minimum)"
                            )
                        }
                    }
                }
            }
        }
        for days in ranges {
            for threshold in [0.9, 0.1234] {
                let listing = index.listing(in: days, threshold: threshold)
                #expect(listing.map(\.article) == ["/big", "/small"])
                for line in listing {
                    let want = ArticleStatistics.compute(
                        readers: referenceReaders(of: line.article, in: days, from: events).map(\.figures),
                        metric: .progress,
                        threshold: threshold, minEngagedSeconds: 0)
                    #expect(
                        line.readers == want.readers && line.events == want.events
                            && line.lastEventMs == want.lastMs)
                    #expect(
                        abs(line.completionRate - want.rate) <= 1e-9
                            && abs(line.meanDepth - want.depthMean) <= 1e-9)
                }
            }
        }
    }

    @Test("readers query while the writer applies: no crash, and every answer is a whole commit")
    func concurrentReaders() {
        let index = MemoryIndex()
        let batches = 300
        let batchSize = 10
        let done = Atomic(false)
        let inconsistent = Atomic(0)
        let group = DispatchGroup()
        for _ in 0..<4 {
            group.enter()
            Thread {
                defer { group.leave() }
                while !done.load(ordering: .acquiring) {
                    let read = Result { () throws(StoreError) in
                        try index.statistics(
                            of: "/c", in: .allTime, metric: .progress, threshold: 0.9, minEngagedSeconds: 0)
                    }
                    guard case .success(let answer) = read else {
                        inconsistent.add(1, ordering: .relaxed)
                        continue
                    }
                    guard let s = answer else { continue }
                    // Each commit adds ten new readers at depth 0.5 with one second each.
                    let whole =
                        s.events % Int64(batchSize) == 0 && s.readers == Int(s.events)
                        && s.counted == s.readers
                        && s.depthMean == 0.5 && s.median == 0.5 && s.completed == 0
                        && s.engagedSecondsTotal == Double(s.events) && s.reach[50] == 1
                    let line = index.listing(in: .allTime, threshold: 0.9).first
                    if !whole || line?.events ?? 0 < s.events || index.pairCount < s.readers {
                        inconsistent.add(1, ordering: .relaxed)
                    }
                }
            }.start()
        }
        for batch in 0..<batches {
            index.apply(
                (0..<batchSize).map {
                    event("/c", "r\(batch)-\($0)", progress: 0.5, seen: 0.5, engagedMs: 1_000)
                })
        }
        done.store(true, ordering: .releasing)
        group.wait()
        #expect(inconsistent.load(ordering: .relaxed) == 0)
        #expect(index.pairCount == batches * batchSize)
    }
}
