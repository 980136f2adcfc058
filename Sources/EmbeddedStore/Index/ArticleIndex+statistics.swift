import ProgressStore

extension ArticleIndex {
    /// The statistics (docs/api.md) `query` asks for: from the counters when they answer (see
    /// ``ArticleCounters/statistics(answering:)``), or a day's when its range holds one of the
    /// article's days (``dayStatistics(answering:folding:)``), otherwise by folding every reader
    /// and ``ArticleStatistics/compute(readers:query:)``.
    func statistics(_ query: StatisticsQuery) -> ArticleStatistics {
        counters.statistics(answering: query) ?? dayStatistics(answering: query, folding: true)
            ?? ArticleStatistics.compute(readers: figures(in: query.days), query: query)
    }

    /// The statistics (every segment's) `query` asks for from counters alone, all time's or a
    /// day's: in microseconds whatever the article's size; `nil` when readers must be folded.
    func countedStatistics(_ query: StatisticsQuery) -> ArticleStatistics? {
        counters.statistics(answering: query) ?? dayStatistics(answering: query, folding: false)
    }

    /// Every reader's figures folded over `days`, for those with an event in them.
    func figures(in days: DayRange) -> [ReaderFigures] {
        var figures: [ReaderFigures] = []
        figures.reserveCapacity(names.count)
        forEachReader(in: days) { _, folded in figures.append(folded) }
        return figures
    }

    /// The article's line of the listing over `days` (docs/api.md): from the counters when they
    /// answer, all time's or a day's (``dayListingTally(in:threshold:)``), otherwise tallied
    /// reader by reader.
    func listing(in days: DayRange, threshold: Double) -> ArticleListing {
        if let tally = counters.listingTally(in: days, threshold: threshold)
            ?? dayListingTally(in: days, threshold: threshold)
        {
            return tally.row(article: name)
        }
        var tally = ListingTally()
        forEachReader(in: days) { _, figures in tally.add(figures, threshold: threshold) }
        return tally.row(article: name)
    }
}
