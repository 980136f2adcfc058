import ProgressStore

/// One large article's counters for each UTC day it has records on, over that day's
/// reader-day records, so that a range of one day answers as all time does, without visiting
/// every reader. Within a day a reader has one record, so a day's counters count distinct
/// readers exactly, and a record only grows as events fold in: the counters move it from what
/// it held to what it holds, as the all-time ones move a reader.
///
/// An article keeps them from ``CounterPolicy/dayCountersFrom`` readers on. A day keeps
/// histograms (24 KB) only past ``CounterPolicy/dayHistogramMinimumReaderDays`` reader-days;
/// until then it lists its records (about a byte each, see ``RecordList``), and a query over it
/// folds those alone, exactly. So a day costs at most about a seventh of its records' own
/// memory, and the many small days of a long tail stay small.
struct DayCounters: Sendable {
    /// A day's counters, and its records while it has no histograms.
    struct Day: Sendable {
        var counters = ArticleCounters()
        /// Record references: `r >= 0` is first-day record `r`, `r < 0` other-day record `~r`.
        var records = RecordList()
    }

    /// The days with records, in no order, and where each is in ``days``.
    private(set) var days: [Day] = []
    private(set) var dayNumbers: [Int32] = []
    private var positions: [Int32: Int] = [:]
    /// The day last looked up and its position: most events fall on today, and a record's
    /// move then skips hashing the day.
    private var recent: (day: Int32, position: Int) = (.min, -1)

    /// The counters of `article`'s records, recounted.
    init(_ article: ArticleIndex) {
        article.forEachRecordReference { reference, day, figures in
            let position = self.position(of: day)
            if add(reference, figures, at: position) { startHistograms(at: position, in: article) }
        }
    }

    /// Where `day` is in ``days``, added when new.
    private mutating func position(of day: Int32) -> Int {
        if recent.day == day { return recent.position }
        let position: Int
        if let known = positions[day] {
            position = known
        } else {
            days.append(Day())
            dayNumbers.append(day)
            position = days.count - 1
            positions[day] = position
        }
        recent = (day, position)
        return position
    }

    /// Adds the new record `reference`, on `day`, holding `figures`. Returns whether the day's
    /// histograms are due: then call ``startHistograms(of:in:)``.
    mutating func add(_ reference: Int32, day: Int32, _ figures: ReaderFigures) -> Bool {
        add(reference, figures, at: position(of: day))
    }

    private mutating func add(_ reference: Int32, _ figures: ReaderFigures, at position: Int) -> Bool {
        days[position].counters.move(from: nil, to: figures)
        guard !days[position].counters.keepsHistograms else { return false }
        days[position].records.append(reference)
        return days[position].counters.readers > CounterPolicy.embedded.dayHistogramMinimumReaderDays
    }

    /// Gives `day`, which has outgrown its list, histograms of the records listed, which are
    /// `article`'s.
    mutating func startHistograms(of day: Int32, in article: ArticleIndex) {
        startHistograms(at: position(of: day), in: article)
    }

    private mutating func startHistograms(at position: Int, in article: ArticleIndex) {
        let listed = days[position].records
        days[position].counters.histograms = DepthHistograms { body in
            listed.forEachReference { body(article.figures(ofRecord: $0)) }
        }
        days[position].records = RecordList()
    }

    /// Moves the record on `day` from `before` to `after`, its figures with more events folded in.
    mutating func move(day: Int32, from before: ReaderFigures, to after: ReaderFigures) {
        days[position(of: day)].counters.move(from: before, to: after)
    }

    /// The days of ``days`` within `range`, as positions: stops looking past two.
    func positions(in range: DayRange) -> (first: Int?, count: Int) {
        var first: Int?
        var count = 0
        for (position, day) in dayNumbers.enumerated() where range.contains(day) {
            if first == nil { first = position }
            count += 1
            if count > 1 { break }
        }
        return (first, count)
    }

    /// Bytes held: the days, their lists and histograms, and the table of positions.
    var footprint: Int {
        let histogramBytes = 2 * DepthHistogram.binCount * 12
        return days.reduce(0) { total, day in
            total + MemoryLayout<Day>.stride + day.records.footprint
                + (day.counters.keepsHistograms ? histogramBytes : 0)
        } + dayNumbers.capacity * 4 + positions.capacity * 16
    }
}
