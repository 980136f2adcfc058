import ProgressStore

/// Answers over a range that holds one of a large article's days, from that day's counters
/// (see ``DayCounters``).
extension ArticleIndex {
    /// What the day counters say of a range: the article has no record in it, or records on one
    /// of its days only.
    enum DaySpan {
        case noDay
        case oneDay(DayCounters.Day)
    }

    /// The range `days` as the day counters see it; `nil` when the article keeps none or the
    /// range holds records of several days.
    func daySpan(_ days: DayRange) -> DaySpan? {
        guard let dayCounters else { return nil }
        let (first, count) = dayCounters.positions(in: days)
        switch count {
        case 0: return .noDay
        case 1: return .oneDay(dayCounters.days[first!])
        default: return nil
        }
    }

    /// The statistics `query` asks for (every segment's) when its range holds one day of the
    /// article: from the day's counters when they answer, as ``ArticleCounters/statistics(answering:)``
    /// does for all time; with `folding`, else by folding the day's listed records, exactly,
    /// for a day that has no histograms (up to ``CounterPolicy/dayHistogramMinimumReaderDays``
    /// records: not under the index's lock). `nil` when the article's readers must be folded.
    func dayStatistics(answering query: StatisticsQuery, folding: Bool) -> ArticleStatistics? {
        switch daySpan(query.days) {
        case nil:
            return nil
        case .noDay:
            return ArticleStatistics.compute(readers: [ReaderFigures](), query: query)
        case .oneDay(let day):
            if let answered = day.counters.statistics(answering: query) { return answered }
            guard folding, !day.counters.keepsHistograms else { return nil }
            var readers: [ReaderFigures] = []
            readers.reserveCapacity(day.records.count)
            day.records.forEachReference { readers.append(figures(ofRecord: $0)) }
            return ArticleStatistics.compute(readers: readers, query: query)
        }
    }

    /// The article's tally for the listing over `days` when the range holds one day of the
    /// article: from the day's counters when they hold the threshold's edge, or its listed
    /// records. `nil` when the article's readers must be tallied.
    func dayListingTally(in days: DayRange, threshold: Double) -> ListingTally? {
        switch daySpan(days) {
        case nil:
            return nil
        case .noDay:
            return ListingTally()
        case .oneDay(let day):
            if let tally = day.counters.listingTally(in: days, threshold: threshold) { return tally }
            guard !day.counters.keepsHistograms else { return nil }
            var tally = ListingTally()
            day.records.forEachReference { tally.add(figures(ofRecord: $0), threshold: threshold) }
            return tally
        }
    }

    /// Calls `body` with every day record: its reference (see ``DayCounters/Day/records``), day
    /// and figures. First-day records a chunk at a time, then the others in their order.
    func forEachRecordReference(_ body: (_ reference: Int32, _ day: Int32, _ figures: ReaderFigures) -> Void)
    {
        firstDays.records.forEachChunk { start, records in
            for offset in records.indices {
                let record = records[offset]
                body(Int32(start + offset), record.day, firstDays.figures(of: record, at: start + offset))
            }
        }
        for index in 0..<otherDays.count {
            body(~Int32(index), otherDays.day(at: index), otherDays.figures(at: index))
        }
    }

    /// The figures of the record `reference` names.
    func figures(ofRecord reference: Int32) -> ReaderFigures {
        reference >= 0 ? firstDays.figures(at: Int(reference)) : otherDays.figures(at: Int(~reference))
    }
}
