/// The figures of one article (docs/api.md, "Statistics"), computed from its readers folded
/// over a day range.
///
/// Pure arithmetic shared by every store: a store only has to produce its readers'
/// ``ReaderFigures`` (or answer from ``ArticleCounters``). A reader's *depth* is its maximum of the chosen ``Metric``; *counted* readers are the
/// ones whose depth enters the depth figures and the completion rate.
public struct ArticleStatistics: Sendable, Equatable {
    /// Which per-reader maximum is the depth.
    public enum Metric: String, Sendable, Hashable, CaseIterable {
        /// Maximum `progress`; readers who could never scroll are left out of the depth figures.
        case progress
        /// Maximum `seenDepth`; every reader counts, an unscrollable one at depth 1.
        case seenDepth
    }

    /// Every reader with an event in range.
    public var readers: Int
    /// Readers none of whose events in range was scrollable, whatever the metric.
    public var unscrollableReaders: Int
    /// Readers whose depth counts: every reader for ``Metric/seenDepth``, the scrollable ones
    /// for ``Metric/progress``.
    public var counted: Int
    /// Events in range, summed over readers.
    public var events: Int64
    /// Counted readers with depth ≥ threshold and engaged seconds ≥ the minimum.
    public var completed: Int
    /// `completed / counted`; 0 when no reader counts.
    public var rate: Double
    /// Mean depth of the counted readers; 0 when none.
    public var depthMean: Double
    /// Nearest-rank quantiles of the counted readers' depths (0 when none): sorted ascending,
    /// the value at 1-based rank ⌈q·n⌉.
    public var p25: Double
    public var median: Double
    public var p75: Double
    /// 101 values: `reach[k]` is the share of counted readers whose depth ≥ k/100, the drop-off
    /// curve. When no reader counts, every value is 0 (not 1): there is no one to have reached
    /// anything, and zeros agree with `rate` and `depthMean`.
    public var reach: [Double]
    /// Summed engaged time of every reader, in seconds.
    public var engagedSecondsTotal: Double
    /// `engagedSecondsTotal / readers` over every reader, unscrollable ones included; 0 when none.
    public var engagedMeanPerReader: Double
    /// Earliest and latest event time in range (ms since the epoch); `nil` when no reader.
    public var firstMs: Int64?
    public var lastMs: Int64?

    public init(
        readers: Int, unscrollableReaders: Int, counted: Int, events: Int64, completed: Int, rate: Double,
        depthMean: Double, p25: Double, median: Double, p75: Double, reach: [Double],
        engagedSecondsTotal: Double, engagedMeanPerReader: Double, firstMs: Int64?, lastMs: Int64?
    ) {
        self.readers = readers
        self.unscrollableReaders = unscrollableReaders
        self.counted = counted
        self.events = events
        self.completed = completed
        self.rate = rate
        self.depthMean = depthMean
        self.p25 = p25
        self.median = median
        self.p75 = p75
        self.reach = reach
        self.engagedSecondsTotal = engagedSecondsTotal
        self.engagedMeanPerReader = engagedMeanPerReader
        self.firstMs = firstMs
        self.lastMs = lastMs
    }

    /// The statistics of `readers`. A reader completes when its depth ≥ `threshold` and its
    /// engaged time (`engagedMs / 1000`) ≥ `minEngagedSeconds`. O(n log n): one sort of the
    /// counted depths, then binary searches.
    public static func compute(
        readers: [ReaderFigures], metric: Metric, threshold: Double, minEngagedSeconds: Double
    ) -> ArticleStatistics {
        var depths: [Double] = []
        depths.reserveCapacity(readers.count)
        var events: Int64 = 0
        var engagedMs: Int64 = 0
        var completed = 0
        var unscrollable = 0
        var firstMs: Int64?
        var lastMs: Int64?
        for reader in readers {
            events += reader.events
            engagedMs += reader.engagedMs
            firstMs = min(firstMs ?? reader.firstMs, reader.firstMs)
            lastMs = max(lastMs ?? reader.lastMs, reader.lastMs)
            if !reader.scrollable { unscrollable += 1 }
            let depth: Double
            switch metric {
            case .progress:
                guard reader.scrollable else { continue }
                depth = reader.maxProgress
            case .seenDepth:
                depth = reader.maxSeenDepth
            }
            depths.append(depth)
            // Dividing the exact integer keeps 1500 ms ≥ 1.5 s true.
            if depth >= threshold && Double(reader.engagedMs) / 1000 >= minEngagedSeconds {
                completed += 1
            }
        }
        depths.sort()

        let counted = depths.count
        let engagedSeconds = Double(engagedMs) / 1000
        return ArticleStatistics(
            readers: readers.count,
            unscrollableReaders: unscrollable,
            counted: counted,
            events: events,
            completed: completed,
            rate: counted > 0 ? Double(completed) / Double(counted) : 0,
            depthMean: counted > 0 ? depths.reduce(0, +) / Double(counted) : 0,
            p25: nearestRank(0.25, of: depths),
            median: nearestRank(0.5, of: depths),
            p75: nearestRank(0.75, of: depths),
            reach: reach(of: depths),
            engagedSecondsTotal: engagedSeconds,
            engagedMeanPerReader: readers.isEmpty ? 0 : engagedSeconds / Double(readers.count),
            firstMs: firstMs,
            lastMs: lastMs)
    }

    /// The statistics of `readers` as `query` asks for them.
    public static func compute(readers: [ReaderFigures], query: StatisticsQuery) -> ArticleStatistics {
        compute(
            readers: readers, metric: query.metric, threshold: query.threshold,
            minEngagedSeconds: query.minEngagedSeconds)
    }

    /// The statistics of `readers` (as ``ProgressStore/readers(of:in:completion:)`` gives them)
    /// as `query` asks for them.
    public static func compute(readers: [ReaderSummary], query: StatisticsQuery) -> ArticleStatistics {
        compute(readers: readers.map(\.figures), query: query)
    }

    /// The value at 1-based rank ⌈q·n⌉ (at least 1) of `sorted`; 0 when empty.
    static func nearestRank(_ q: Double, of sorted: [Double]) -> Double {
        guard !sorted.isEmpty else { return 0 }
        let rank = max(1, Int((q * Double(sorted.count)).rounded(.up)))
        return sorted[min(rank, sorted.count) - 1]
    }

    /// `reach[k]` = share of `sorted` that is ≥ k/100, for k = 0…100.
    static func reach(of sorted: [Double]) -> [Double] {
        guard !sorted.isEmpty else { return Array(repeating: 0, count: 101) }
        let n = Double(sorted.count)
        return (0...100).map { k in
            // Double(k) / 100 is the double nearest k/100, the same one a literal such as 0.29
            // gives, so a depth of exactly 0.29 reaches k = 29.
            let bound = Double(k) / 100
            return Double(sorted.count - firstIndex(notBelow: bound, in: sorted)) / n
        }
    }

    /// The first index of `sorted` whose value is ≥ `bound` (`sorted.count` when none).
    private static func firstIndex(notBelow bound: Double, in sorted: [Double]) -> Int {
        var low = 0
        var high = sorted.count
        while low < high {
            let middle = (low + high) / 2
            if sorted[middle] < bound {
                low = middle + 1
            } else {
                high = middle
            }
        }
        return low
    }
}
