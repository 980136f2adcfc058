/// How every store answers one article's statistics and listing line over all its readers: from
/// the all-time counters when they answer, else from the counters of the one day a range holds,
/// else by folding the readers in range. The stores supply the reads; the order and the rules
/// are written here once (docs/architecture.md, "Statistics").
public enum AnswerCascade {
    /// What a store's counters by day say of a range.
    public enum DaySpan {
        /// The article keeps counters by day and has no record in the range.
        case noDay
        /// The range holds records of one day: its counters, and `records` — the figures of the
        /// day's records, read only when needed — when the day keeps no histograms and is
        /// answered by folding them (`nil` where the day's counters always answer).
        case oneDay(ArticleCounters, records: (() -> [ReaderFigures])?)
    }

    /// The statistics `query` asks for (every segment's), or `nil` when only folding the readers
    /// answers and `folded` is `nil` (a store answering under a lock, which folds later).
    /// `daySpan` is asked only for an article past ``CounterPolicy/histogramMinimumReaders``:
    /// below, folding is as quick as looking.
    package static func statistics<Failure: Error>(
        _ query: StatisticsQuery, counters: ArticleCounters,
        daySpan: () throws(Failure) -> DaySpan?,
        folded: (() throws(Failure) -> [ReaderFigures])?
    ) throws(Failure) -> ArticleStatistics? {
        if let answered = counters.statistics(answering: query) { return answered }
        if counters.readers > CounterPolicy.histogramMinimumReaders {
            switch try daySpan() {
            case .noDay?:
                return ArticleStatistics.compute(readers: [ReaderFigures](), query: query)
            case .oneDay(let day, let records)?:
                if let answered = day.statistics(answering: query) { return answered }
                if folded != nil, let records {
                    return ArticleStatistics.compute(readers: records(), query: query)
                }
            case nil:
                break
            }
        }
        guard let folded else { return nil }
        return ArticleStatistics.compute(readers: try folded(), query: query)
    }

    /// The tally of the listing's line over `days` at `threshold`: from the all-time counters,
    /// the one day's, or `folded` (which tallies the readers in range).
    package static func listingTally(
        in days: DayRange, threshold: Double, counters: ArticleCounters, daySpan: () -> DaySpan?,
        folded: () -> ListingTally
    ) -> ListingTally {
        if let tally = counters.listingTally(in: days, threshold: threshold) { return tally }
        switch daySpan() {
        case .noDay?:
            return ListingTally()
        case .oneDay(let day, let records)?:
            if let tally = day.listingTally(in: days, threshold: threshold) { return tally }
            if let records {
                var tally = ListingTally()
                for figures in records() { tally.add(figures, threshold: threshold) }
                return tally
            }
        case nil:
            break
        }
        return folded()
    }
}

extension AnswerCascade {
    /// The sections over `days` from the all-time counters, when they answer: the range spans
    /// the article's days, and the article has no map (only the number of readers is needed)
    /// or keeps histograms past ``CounterPolicy/histogramMinimumReaders`` readers. A reader's
    /// depth is its maximum `seenDepth`, 1 for an unscrollable one (the figures make it so), so
    /// the seen-depth histogram counts depths ≥ a start: exactly for a start on the 1/1000 grid,
    /// and otherwise as the count of the start's bin and above, which may include readers up to
    /// 0.001 below the start (docs/api.md allows it, as it does for quantiles). `nil` when the
    /// readers' depths must be counted.
    package static func sections(
        map: [Section], counters: ArticleCounters, days: DayRange, attentionMs: [Int64]?
    ) -> SectionStatistics? {
        guard counters.spans(days) else { return nil }
        guard !map.isEmpty else {
            return SectionStatistics.compute(
                map: [], readers: counters.readers, readersAtOrAbove: { _ in 0 }, attentionMs: attentionMs)
        }
        guard counters.readers > CounterPolicy.histogramMinimumReaders, let histograms = counters.histograms
        else { return nil }
        let atOrAbove = histograms.seenDepth.countsAtOrAbove()
        return SectionStatistics.compute(
            map: map, readers: counters.readers,
            readersAtOrAbove: { atOrAbove[DepthHistogram.bin(of: $0)] }, attentionMs: attentionMs)
    }
}
