import Synchronization

/// A plain first MemoryIndex: dictionaries of dictionaries, statistics by folding readers.
/// Stands in until the compact index with incremental histograms replaces it.
public final class MemoryIndex: Sendable {
    struct Day {
        var p: Double
        var s: Double
        var sc: Bool
        var ev: Int64
        var en: Int64
        var f: Int64
        var l: Int64
    }
    let data = Mutex<[String: [String: [Int32: Day]]]>([:])
    public init() {}
    public func apply(_ events: [EventRecord]) {
        data.withLock { d in
            for e in events {
                let day = e.day
                let n = Day(
                    p: e.progress, s: e.seenDepth, sc: e.scrollable, ev: 1, en: e.engagedMs, f: e.timeMs,
                    l: e.timeMs)
                d[e.article, default: [:]][e.reader, default: [:]][day] = merge(
                    d[e.article]?[e.reader]?[day], n)
            }
        }
    }
    func merge(_ a: Day?, _ b: Day) -> Day {
        guard let a else { return b }
        return Day(
            p: max(a.p, b.p), s: max(a.s, b.s), sc: a.sc || b.sc, ev: a.ev + b.ev, en: a.en + b.en,
            f: min(a.f, b.f), l: max(a.l, b.l))
    }
    public func restore(
        article: String, reader: String, day: Int32, maxProgress: Double, maxSeenDepth: Double,
        scrollable: Bool, events: Int64, engagedMs: Int64, firstMs: Int64, lastMs: Int64
    ) {
        data.withLock { d in
            let n = Day(
                p: maxProgress, s: maxSeenDepth, sc: scrollable, ev: events, en: engagedMs, f: firstMs,
                l: lastMs)
            d[article, default: [:]][reader, default: [:]][day] = merge(d[article]?[reader]?[day], n)
        }
    }
    public func readers(of article: String, in days: DayRange) -> [ReaderSummary]? {
        data.withLock { d in
            guard let a = d[article] else { return nil }
            var out: [ReaderSummary] = []
            for (r, ds) in a {
                var acc: Day?
                for (day, v) in ds where day >= (days.from ?? .min) && day <= (days.to ?? .max) {
                    acc = merge(acc, v)
                }
                if let x = acc {
                    out.append(
                        ReaderSummary(
                            reader: r, maxProgress: x.p, maxSeenDepth: x.s, scrollable: x.sc, events: x.ev,
                            engagedMs: x.en, firstMs: x.f, lastMs: x.l))
                }
            }
            return out
        }
    }
    public func statistics(
        of article: String, in days: DayRange, metric: ArticleStatistics.Metric, threshold: Double,
        minEngagedSeconds: Double
    ) -> ArticleStatistics? {
        readers(of: article, in: days).map {
            ArticleStatistics.compute(
                readers: $0, metric: metric, threshold: threshold, minEngagedSeconds: minEngagedSeconds)
        }
    }
    public func listing(in days: DayRange, threshold: Double) -> [ArticleListing] {
        let names = data.withLock { Array($0.keys) }
        return names.sorted().map { n in
            let s = statistics(
                of: n, in: days, metric: .progress, threshold: threshold, minEngagedSeconds: 0)!
            return ArticleListing(
                article: n, readers: s.readers, events: s.events, completionRate: s.rate,
                meanDepth: s.depthMean, lastEventMs: s.lastMs)
        }
    }
    public var pairCount: Int { data.withLock { $0.values.reduce(0) { $0 + $1.count } } }
}
