/// Some of an article's readers counted by a store rather than handed over one by one — a
/// segment's, or the segments past the listed ones taken together: ``ArticleCounters`` over
/// them, whose histogram and depth sum by the query's metric are the ones filled, and how many
/// of them completed at the query's threshold and engaged minimum, which the store counts
/// exactly (histograms alone know it only for a threshold on a bin's edge and no minimum). An
/// answer then costs bins, not readers; its quantiles are at most 0.001 low.
public struct CountedReaders: Sendable, Equatable {
    package var counters: ArticleCounters
    package var metric: ArticleStatistics.Metric
    /// Readers completed, counted by the store; or, where the counters answered, the bin from
    /// which the histogram's readers count (``completed`` counts them only when asked).
    private var completedCount: Int
    private var completedFrom: Int?

    /// The readers who completed at the query's threshold and engaged minimum.
    package var completed: Int {
        get { completedFrom.map { histogram.count(atOrAbove: $0) } ?? completedCount }
        set {
            completedCount = newValue
            completedFrom = nil
        }
    }

    /// None yet.
    package init(metric: ArticleStatistics.Metric) {
        counters = ArticleCounters(keepsHistograms: true)
        self.metric = metric
        completedCount = 0
    }

    /// The readers `counters` hold, as `query` counts them, when the counters answer it: `spanned`
    /// (the range holds every day of theirs), no engaged minimum and a threshold on a bin's edge.
    /// At any number of readers: a segment's histograms are kept from its first reader. `nil`
    /// when the readers must be counted one by one.
    package init?(_ counters: consuming ArticleCounters, answering query: StatisticsQuery, spanned: Bool) {
        guard spanned, query.minEngagedSeconds == 0, let edge = DepthHistogram.edge(of: query.threshold)
        else { return nil }
        self.counters = counters
        // A segment that never had a reader has no histograms: empty ones answer for it.
        if !counters.keepsHistograms { self.counters.histograms = DepthHistograms() }
        metric = query.metric
        completedCount = 0
        completedFrom = edge
    }

    /// The depths by ``metric`` in bins.
    package var histogram: DepthHistogram {
        counters.histograms?[metric] ?? DepthHistogram()
    }

    /// Adds `other`'s readers, as the segments past a limit go together.
    package mutating func add(_ other: CountedReaders) {
        let completed = self.completed + other.completed
        counters.readers += other.counters.readers
        counters.unscrollable += other.counters.unscrollable
        counters.events += other.counters.events
        counters.engagedMs += other.counters.engagedMs
        counters.firstMs = [counters.firstMs, other.counters.firstMs].compactMap { $0 }.min()
        counters.lastMs = [counters.lastMs, other.counters.lastMs].compactMap { $0 }.max()
        add(bins: other.histogram.binCounts, units: other.depthSum.totalUnits, completedFrom: nil)
        self.completed = completed
    }

    /// Adds readers of these depths: `bins` by ``metric``, their sum in ``DepthSum`` units; the
    /// ones in bins `completedFrom`… count as completed (`nil`: the caller counts them).
    package mutating func add(bins: [Int32], units: Int128, completedFrom edge: Int?) {
        var completed = self.completed
        if let edge { completed += bins[edge...].reduce(0) { $0 + Int($1) } }
        let held = histogram.binCounts
        let merged = (0..<DepthHistogram.binCount).map { held[$0] + bins[$0] }
        var histograms = counters.histograms ?? DepthHistograms()
        if metric == .progress {
            histograms.progress = DepthHistogram(binCounts: merged)
            counters.progressSum = DepthSum(units: counters.progressSum.totalUnits + units)
        } else {
            histograms.seenDepth = DepthHistogram(binCounts: merged)
            counters.seenSum = DepthSum(units: counters.seenSum.totalUnits + units)
        }
        counters.histograms = histograms
        self.completed = completed
    }

    /// The depth sum by ``metric``.
    package var depthSum: DepthSum {
        metric == .progress ? counters.progressSum : counters.seenSum
    }

    /// Their statistics, as ``ArticleStatistics/compute(readers:query:)`` would have them but
    /// for quantiles.
    package var statistics: ArticleStatistics {
        var answer = ArticleStatistics.fromCounters(
            readers: counters.readers, unscrollable: counters.unscrollable, events: counters.events,
            engagedMs: counters.engagedMs, firstMs: counters.firstMs, lastMs: counters.lastMs,
            histogram: histogram, depthSum: depthSum, edge: completedFrom ?? 0)
        guard completedFrom == nil else { return answer }
        answer.completed = completedCount
        answer.rate = answer.counted > 0 ? Double(completedCount) / Double(answer.counted) : 0
        return answer
    }
}
