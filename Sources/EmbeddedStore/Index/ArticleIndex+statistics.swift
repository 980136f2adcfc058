import ProgressStore

extension ArticleIndex {
    /// The statistics (docs/api.md) over `days`. From the totals and histograms when the range
    /// spans the article's days, no engaged minimum applies and the threshold sits on a 1/1000
    /// edge; otherwise by folding every reader and ``ArticleStatistics/compute``.
    /// Whether ``statistics(in:metric:threshold:minEngagedSeconds:)`` reads counters only,
    /// without visiting readers: then it takes microseconds whatever the article's size.
    func answersFromCounters(in days: DayRange, threshold: Double, minEngagedSeconds: Double) -> Bool {
        minEngagedSeconds == 0 && totals.spans(days) && histograms != nil
            && DepthHistogram.edge(of: threshold) != nil
    }

    func statistics(_ query: StatisticsQuery) -> ArticleStatistics {
        statistics(
            in: query.days, metric: query.metric, threshold: query.threshold,
            minEngagedSeconds: query.minEngagedSeconds)
    }

    func statistics(
        in days: DayRange, metric: ArticleStatistics.Metric, threshold: Double, minEngagedSeconds: Double
    ) -> ArticleStatistics {
        if minEngagedSeconds == 0, totals.spans(days), let histograms,
            let edge = DepthHistogram.edge(of: threshold)
        {
            return statistics(
                from: metric == .progress ? histograms.progress : histograms.seenDepth, metric: metric,
                edge: edge)
        }
        return ArticleStatistics.compute(
            readers: summaries(in: days, named: false), metric: metric, threshold: threshold,
            minEngagedSeconds: minEngagedSeconds)
    }

    /// All-time statistics without visiting a reader: a scan of 1001 bins whatever the count.
    private func statistics(
        from histogram: DepthHistogram, metric: ArticleStatistics.Metric, edge: Int
    ) -> ArticleStatistics {
        ArticleStatistics.fromCounters(
            readers: names.count, unscrollable: totals.unscrollable, events: totals.events,
            engagedMs: totals.engagedMs, firstMs: totals.firstMs, lastMs: totals.lastMs, histogram: histogram,
            depthSum: metric == .progress ? totals.progressSum : totals.seenSum, edge: edge)
    }

    /// Every reader with an event in `days`, folded over them; ids left empty unless `named`
    /// (the statistics do not read them, and making a million strings is most of the cost).
    func summaries(in days: DayRange, named: Bool) -> [ReaderSummary] {
        var summaries: [ReaderSummary] = []
        summaries.reserveCapacity(names.count)
        forEachReader(in: days) { slot, figures in
            summaries.append(
                ReaderSummary(
                    reader: named ? names.name(at: slot) : "", maxProgress: figures.maxProgress,
                    maxSeenDepth: figures.maxSeenDepth, scrollable: figures.scrollable,
                    events: figures.events,
                    engagedMs: figures.engagedMs, firstMs: figures.firstMs, lastMs: figures.lastMs))
        }
        return summaries
    }

    /// The article's line of the listing over `days` (docs/api.md), as the stats route with
    /// `metric=progress` counts readers. All time, only completion may need the readers: not
    /// when the histogram holds the threshold's edge.
    func listing(in days: DayRange, threshold: Double) -> ArticleListing {
        if totals.misses(days) {
            return ArticleListing(
                article: name, readers: 0, events: 0, completionRate: 0, meanDepth: 0, lastEventMs: nil)
        }
        guard totals.spans(days) else { return foldedListing(in: days, threshold: threshold) }
        let counted = names.count - totals.unscrollable
        let completed: Int
        if let histograms, let edge = DepthHistogram.edge(of: threshold) {
            completed = histograms.progress.count(atOrAbove: edge)
        } else {
            var count = 0
            forEachReader(in: .allTime) { _, allTime in
                if allTime.scrollable && allTime.maxProgress >= threshold { count += 1 }
            }
            completed = count
        }
        return ArticleListing(
            article: name, readers: names.count, events: totals.events,
            completionRate: counted > 0 ? Double(completed) / Double(counted) : 0,
            meanDepth: totals.progressSum.mean(over: counted), lastEventMs: totals.lastMs)
    }

    /// The line of the listing over a range that is not all time: one pass over the readers,
    /// keeping only what the line shows (no depths to sort, no reach curve).
    private func foldedListing(in days: DayRange, threshold: Double) -> ArticleListing {
        var readers = 0
        var events: Int64 = 0
        var counted = 0
        var completed = 0
        var progressSum = 0.0
        var lastMs: Int64?
        forEachReader(in: days) { _, figures in
            readers += 1
            events += figures.events
            lastMs = max(lastMs ?? figures.lastMs, figures.lastMs)
            guard figures.scrollable else { return }
            counted += 1
            progressSum += figures.maxProgress
            if figures.maxProgress >= threshold { completed += 1 }
        }
        return ArticleListing(
            article: name, readers: readers, events: events,
            completionRate: counted > 0 ? Double(completed) / Double(counted) : 0,
            meanDepth: counted > 0 ? progressSum / Double(counted) : 0, lastEventMs: lastMs)
    }
}
