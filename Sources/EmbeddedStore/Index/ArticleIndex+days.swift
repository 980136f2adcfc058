import ProgressStore

/// Answers over a range that holds one of a large article's days, from that day's counters
/// (see ``DayCounters``).
extension ArticleIndex {
    /// The range `days` as the day counters see it (``AnswerCascade/DaySpan``); `nil` when the
    /// article keeps none or the range holds records of several days. A day without histograms
    /// (up to ``CounterPolicy/dayHistogramMinimumReaderDays`` records) is answered by folding its
    /// listed records, exactly.
    func daySpan(_ days: DayRange) -> AnswerCascade.DaySpan? {
        dayCounters?.span(in: days) { day in
            {
                var readers: [ReaderFigures] = []
                readers.reserveCapacity(day.records.count)
                day.records.forEachReference { readers.append(figures(ofRecord: $0)) }
                return readers
            }
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

extension DayCounters {
    /// The range `days` as these counters see it (``AnswerCascade/DaySpan``); `nil` when it
    /// holds records of several days. A day without histograms lists its records, which
    /// `records` folds, when given.
    func span(in days: DayRange, records: ((Day) -> () -> [ReaderFigures])? = nil) -> AnswerCascade.DaySpan? {
        let (first, count) = positions(in: days)
        switch count {
        case 0:
            return .noDay
        case 1:
            let day = self.days[first!]
            guard !day.counters.keepsHistograms, let records else {
                return .oneDay(day.counters, records: nil)
            }
            return .oneDay(day.counters, records: records(day))
        default:
            return nil
        }
    }
}
