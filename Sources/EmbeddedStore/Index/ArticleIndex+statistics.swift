import ProgressStore

extension ArticleIndex {
    /// The statistics (docs/api.md) `query` asks for: from the counters when they answer (see
    /// ``ArticleCounters/statistics(answering:)``), otherwise by folding every reader and
    /// ``ArticleStatistics/compute(readers:query:)``.
    func statistics(_ query: StatisticsQuery) -> ArticleStatistics {
        counters.statistics(answering: query)
            ?? ArticleStatistics.compute(readers: figures(in: query.days), query: query)
    }

    /// Every reader's figures folded over `days`, for those with an event in them.
    func figures(in days: DayRange) -> [ReaderFigures] {
        var figures: [ReaderFigures] = []
        figures.reserveCapacity(names.count)
        forEachReader(in: days) { _, folded in figures.append(folded) }
        return figures
    }

    /// The article's line of the listing over `days` (docs/api.md): from the counters when they
    /// answer, otherwise tallied reader by reader.
    func listing(in days: DayRange, threshold: Double) -> ArticleListing {
        if let tally = counters.listingTally(in: days, threshold: threshold) {
            return tally.row(article: name)
        }
        var tally = ListingTally()
        forEachReader(in: days) { _, figures in tally.add(figures, threshold: threshold) }
        return tally.row(article: name)
    }
}
