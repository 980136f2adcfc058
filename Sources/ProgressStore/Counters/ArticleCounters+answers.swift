extension ArticleCounters {
    /// The statistics `query` asks for from the counters alone, when they can answer: the range
    /// spans the article's days, no engaged minimum applies, the threshold sits on a 1/1000 edge
    /// and the article has more than ``CounterPolicy/histogramMinimumReaders`` readers. `nil` when the readers
    /// must be folded (``ArticleStatistics/compute(readers:query:)``). Quantiles are their bin's
    /// least value held, at most 0.001 low.
    package func statistics(answering query: StatisticsQuery) -> ArticleStatistics? {
        guard readers > CounterPolicy.histogramMinimumReaders, query.minEngagedSeconds == 0,
            spans(query.days),
            let histograms, let edge = DepthHistogram.edge(of: query.threshold)
        else { return nil }
        return ArticleStatistics.fromCounters(
            readers: readers, unscrollable: unscrollable, events: events, engagedMs: engagedMs,
            firstMs: firstMs, lastMs: lastMs, histogram: histograms[query.metric],
            depthSum: query.metric == .progress ? progressSum : seenSum, edge: edge)
    }

    /// What the listing shows of this article over `days`, from the counters alone when they
    /// can answer (the range spans the article's days and the histograms hold `threshold`'s
    /// edge, exactly whatever the number of readers); `nil` when the readers must be tallied.
    package func listingTally(in days: DayRange, threshold: Double) -> ListingTally? {
        if misses(days) { return ListingTally() }
        guard spans(days), let histograms, let edge = DepthHistogram.edge(of: threshold) else { return nil }
        return ListingTally(
            readers: readers, events: events, counted: readers - unscrollable,
            completed: histograms.progress.count(atOrAbove: edge), progressSum: progressSum, lastMs: lastMs)
    }
}

/// One article's line of the listing as it is counted: from the counters, reader by reader, or
/// as a database sums it. Readers count as the stats route counts them with `metric=progress`
/// and no engaged minimum.
package struct ListingTally: Sendable, Equatable {
    /// Readers with an event in range.
    package var readers = 0
    package var events: Int64 = 0
    /// Scrollable readers: the ones whose depth counts.
    package var counted = 0
    /// Counted readers whose maximum progress is at least the threshold.
    package var completed = 0
    /// The counted readers' maximum progress, summed.
    package var progressSum = DepthSum()
    /// The latest event in range.
    package var lastMs: Int64?

    package init() {}

    package init(
        readers: Int, events: Int64, counted: Int, completed: Int, progressSum: DepthSum, lastMs: Int64?
    ) {
        self.readers = readers
        self.events = events
        self.counted = counted
        self.completed = completed
        self.progressSum = progressSum
        self.lastMs = lastMs
    }

    /// Counts a reader with these figures over the range.
    package mutating func add(_ figures: ReaderFigures, threshold: Double) {
        readers += 1
        events += figures.events
        lastMs = max(lastMs ?? figures.lastMs, figures.lastMs)
        guard figures.scrollable else { return }
        counted += 1
        progressSum.add(figures.maxProgress)
        if figures.maxProgress >= threshold { completed += 1 }
    }

    /// The line of `article`.
    package func row(article: String) -> ArticleListing {
        ArticleListing(
            article: article, readers: readers, events: events,
            completionRate: counted > 0 ? Double(completed) / Double(counted) : 0,
            meanDepth: progressSum.mean(over: counted), lastEventMs: readers > 0 ? lastMs : nil)
    }
}
