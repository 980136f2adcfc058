/// What one reader did on one article on one UTC day, or folded over several days.
struct DayFigures: Equatable {
    var maxProgress: Double
    var maxSeenDepth: Double
    var scrollable: Bool
    var events: Int64
    var engagedMs: Int64
    var firstMs: Int64
    var lastMs: Int64

    /// The figures of one event.
    init(_ event: EventRecord) {
        self.init(
            maxProgress: event.progress, maxSeenDepth: event.seenDepth, scrollable: event.scrollable,
            events: 1, engagedMs: event.engagedMs, firstMs: event.timeMs, lastMs: event.timeMs)
    }

    init(
        maxProgress: Double, maxSeenDepth: Double, scrollable: Bool, events: Int64, engagedMs: Int64,
        firstMs: Int64, lastMs: Int64
    ) {
        self.maxProgress = maxProgress
        self.maxSeenDepth = maxSeenDepth
        self.scrollable = scrollable
        self.events = events
        self.engagedMs = engagedMs
        self.firstMs = firstMs
        self.lastMs = lastMs
    }

    /// Adds `other` as the SQLite upsert does: maxima, any scrollable, sums, earliest, latest.
    mutating func fold(_ other: DayFigures) {
        maxProgress = max(maxProgress, other.maxProgress)
        maxSeenDepth = max(maxSeenDepth, other.maxSeenDepth)
        scrollable = scrollable || other.scrollable
        events += other.events
        engagedMs += other.engagedMs
        firstMs = min(firstMs, other.firstMs)
        lastMs = max(lastMs, other.lastMs)
    }
}

/// Day records as a structure of arrays: 36 bytes a record, with no padding.
///
/// Times are kept as milliseconds within the record's day (a UTC day has fewer than 2³¹ ms)
/// and the scrollable flag rides in the top bit of the first time; event counts and engaged
/// time take 32 bits unless they outgrow them. `next` chains the other days
/// of the same reader (an index into the overflow columns, or -1).
struct DayColumns {
    private(set) var day: [Int32] = []
    private(set) var maxProgress: [Double] = []
    private(set) var maxSeenDepth: [Double] = []
    private var events = NarrowColumn()
    private var engagedMs = NarrowColumn()
    private var firstAndScrollable: [UInt32] = []
    private var lastOffset: [UInt32] = []
    var next: [Int32] = []

    static let dayMs: Int64 = 86_400_000
    private static let scrollableBit: UInt32 = 1 << 31

    var count: Int { day.count }

    /// Appends a record of `figures` on `day`, linked to `next`; returns its index.
    @discardableResult
    mutating func append(day: Int32, _ figures: DayFigures, next: Int32) -> Int32 {
        precondition(count < Int32.max, "too many day records for one article")
        let index = Int32(count)
        self.day.append(day)
        maxProgress.append(figures.maxProgress)
        maxSeenDepth.append(figures.maxSeenDepth)
        events.append(figures.events)
        engagedMs.append(figures.engagedMs)
        firstAndScrollable.append(0)
        lastOffset.append(0)
        self.next.append(next)
        store(figures, at: Int(index))
        return index
    }

    /// The figures of record `index`.
    func figures(at index: Int) -> DayFigures {
        let start = Int64(day[index]) * Self.dayMs
        let first = firstAndScrollable[index]
        return DayFigures(
            maxProgress: maxProgress[index], maxSeenDepth: maxSeenDepth[index],
            scrollable: first & Self.scrollableBit != 0, events: events[index], engagedMs: engagedMs[index],
            firstMs: start + Int64(first & ~Self.scrollableBit), lastMs: start + Int64(lastOffset[index]))
    }

    /// Folds `figures` (of the same day) into record `index`.
    mutating func fold(_ figures: DayFigures, at index: Int) {
        var folded = self.figures(at: index)
        folded.fold(figures)
        store(folded, at: index)
    }

    private mutating func store(_ figures: DayFigures, at index: Int) {
        let start = Int64(day[index]) * Self.dayMs
        let first = figures.firstMs - start
        let last = figures.lastMs - start
        precondition(
            (0..<Self.dayMs).contains(first) && (0..<Self.dayMs).contains(last),
            "event times must fall on the record's UTC day")
        maxProgress[index] = figures.maxProgress
        maxSeenDepth[index] = figures.maxSeenDepth
        events[index] = figures.events
        engagedMs[index] = figures.engagedMs
        firstAndScrollable[index] = UInt32(first) | (figures.scrollable ? Self.scrollableBit : 0)
        lastOffset[index] = UInt32(last)
    }

}
