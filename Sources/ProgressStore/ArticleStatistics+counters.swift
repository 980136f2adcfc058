extension ArticleStatistics {
    /// The all-time statistics of an article from its counters, without visiting a reader: a
    /// scan of 1001 bins whatever the number of readers. `histogram` and `depthSum` are the
    /// counted readers' depths by `metric` (for `progress` the scrollable readers only), `edge`
    /// the threshold's bin (``DepthHistogram/edge(of:)``). Quantiles are their bin's least
    /// value held, at most 0.001 low.
    package static func fromCounters(
        readers: Int, unscrollable: Int, events: Int64, engagedMs: Int64, firstMs: Int64?, lastMs: Int64?,
        histogram: DepthHistogram, depthSum: DepthSum, edge: Int
    ) -> ArticleStatistics {
        let counted = histogram.total
        let atOrAbove = histogram.countsAtOrAbove()
        let completed = atOrAbove[edge]
        let quantiles = histogram.quantiles([0.25, 0.5, 0.75])
        let reach = (0...100).map { k in counted > 0 ? Double(atOrAbove[10 * k]) / Double(counted) : 0 }
        let engagedSeconds = Double(engagedMs) / 1000
        return ArticleStatistics(
            readers: readers, unscrollableReaders: unscrollable, counted: counted, events: events,
            completed: completed, rate: counted > 0 ? Double(completed) / Double(counted) : 0,
            depthMean: depthSum.mean(over: counted), p25: quantiles[0], median: quantiles[1],
            p75: quantiles[2],
            reach: reach, engagedSecondsTotal: engagedSeconds,
            engagedMeanPerReader: readers > 0 ? engagedSeconds / Double(readers) : 0, firstMs: firstMs,
            lastMs: lastMs)
    }
}
