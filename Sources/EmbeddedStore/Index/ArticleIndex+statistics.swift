import ProgressStore

extension ArticleIndex {
    /// Every reader's figures folded over `days`, for those with an event in them.
    func figures(in days: DayRange) -> [ReaderFigures] {
        var figures: [ReaderFigures] = []
        figures.reserveCapacity(names.count)
        forEachReader(in: days) { _, folded in figures.append(folded) }
        return figures
    }

    /// The article's line of the listing over `days` (docs/api.md), as ``AnswerCascade`` has it.
    func listing(in days: DayRange, threshold: Double) -> ArticleListing {
        AnswerCascade.listingTally(
            in: days, threshold: threshold, counters: counters, daySpan: { daySpan(days) },
            folded: {
                var tally = ListingTally()
                forEachReader(in: days) { _, figures in tally.add(figures, threshold: threshold) }
                return tally
            }
        ).row(article: name)
    }
}
