/// One reader's figures on one article on one UTC day: 32 bytes with no padding, so one record
/// is one read from memory when an event folds in.
///
/// Times are milliseconds within the record's day (a UTC day has fewer than 2²⁷ ms), packed in
/// `bits` with the scrollable flag, a flag saying the reader has other days, and the event
/// count, which takes 8 bits unless it outgrows them; engaged time takes 32. A count or time that
/// does not fit is held exactly in ``DayRecords``, its field set to the marker.
struct DayRecord: Equatable {
    var day: Int32
    var engaged: UInt32
    /// First time (bits 0–26), last time (27–53), scrollable (54), other days (55), events (56–63).
    var bits: UInt64
    var maxProgress: Double
    var maxSeenDepth: Double

    static let timeMask: UInt64 = (1 << 27) - 1
    static let scrollableBit: UInt64 = 1 << 54
    static let otherDaysBit: UInt64 = 1 << 55
    static let eventsShift: UInt64 = 56
    /// `events` and `engaged` markers: the value is kept aside.
    static let wideEvents: UInt64 = 0xFF
    static let wideEngaged = UInt32.max

    var firstOffset: Int64 { Int64(bits & Self.timeMask) }
    var lastOffset: Int64 { Int64(bits &>> 27 & Self.timeMask) }
    var scrollable: Bool { bits & Self.scrollableBit != 0 }
    var narrowEvents: UInt64 { bits &>> Self.eventsShift }

    /// Whether the reader has records on other days (first-day records only).
    var hasOtherDays: Bool {
        get { bits & Self.otherDaysBit != 0 }
        set { bits = newValue ? bits | Self.otherDaysBit : bits & ~Self.otherDaysBit }
    }
}

/// Day records, in chunks, with the few event counts and engaged times that outgrow their
/// record's fields kept aside by record index.
struct DayRecords {
    private(set) var records = ChunkedArray<DayRecord>()
    private(set) var wideEvents: [Int32: Int64] = [:]
    private(set) var wideEngaged: [Int32: Int64] = [:]

    static let dayMs: Int64 = 86_400_000

    init() {}

    /// Records as decoded from a snapshot; the caller has checked them (see ``ArticleCodec``).
    init(records: ChunkedArray<DayRecord>, wideEvents: [Int32: Int64], wideEngaged: [Int32: Int64]) {
        self.records = records
        self.wideEvents = wideEvents
        self.wideEngaged = wideEngaged
    }

    var count: Int { records.count }

    /// Bytes held, counting capacity (a dictionary entry as its key and value).
    var footprint: Int {
        records.footprint + (wideEvents.capacity + wideEngaged.capacity) * 12
    }

    func day(at index: Int) -> Int32 { records[index].day }

    /// The figures of record `index`.
    func figures(at index: Int) -> DayFigures {
        figures(of: records[index], at: index)
    }

    /// The figures of `record`, which is record `index`.
    func figures(of record: DayRecord, at index: Int) -> DayFigures {
        let start = Int64(record.day) * Self.dayMs
        let events = record.narrowEvents
        return DayFigures(
            maxProgress: record.maxProgress, maxSeenDepth: record.maxSeenDepth, scrollable: record.scrollable,
            events: events == DayRecord.wideEvents ? wideEvents[Int32(index)]! : Int64(events),
            engagedMs: record.engaged == DayRecord.wideEngaged
                ? wideEngaged[Int32(index)]! : Int64(record.engaged),
            firstMs: start + record.firstOffset, lastMs: start + record.lastOffset)
    }

    /// Appends a record of `figures` on `day`; returns its index.
    @discardableResult
    mutating func append(day: Int32, _ figures: DayFigures) -> Int32 {
        precondition(count < Int32.max, "too many day records for one article")
        let index = Int32(count)
        var record = DayRecord(day: day, engaged: 0, bits: 0, maxProgress: 0, maxSeenDepth: 0)
        store(figures, in: &record, at: index)
        records.append(record)
        return index
    }

    /// Folds `figures` (of the same day) into record `index`.
    mutating func fold(_ figures: DayFigures, at index: Int) {
        var record = records[index]
        var folded = self.figures(of: record, at: index)
        folded.fold(figures)
        store(folded, in: &record, at: Int32(index))
        records[index] = record
    }

    /// Marks record `index` as its reader's first of several days.
    mutating func markOtherDays(at index: Int) {
        records[index].hasOtherDays = true
    }

    private mutating func store(_ figures: DayFigures, in record: inout DayRecord, at index: Int32) {
        let start = Int64(record.day) * Self.dayMs
        let first = figures.firstMs - start
        let last = figures.lastMs - start
        precondition(
            (0..<Self.dayMs).contains(first) && (0..<Self.dayMs).contains(last),
            "event times must fall on the record's UTC day")
        if record.narrowEvents == DayRecord.wideEvents { wideEvents[index] = nil }
        if record.engaged == DayRecord.wideEngaged { wideEngaged[index] = nil }
        let events: UInt64
        if (0..<Int64(DayRecord.wideEvents)).contains(figures.events) {
            events = UInt64(figures.events)
        } else {
            events = DayRecord.wideEvents
            wideEvents[index] = figures.events
        }
        if (0..<Int64(DayRecord.wideEngaged)).contains(figures.engagedMs) {
            record.engaged = UInt32(figures.engagedMs)
        } else {
            record.engaged = DayRecord.wideEngaged
            wideEngaged[index] = figures.engagedMs
        }
        record.bits =
            UInt64(first) | UInt64(last) << 27 | (figures.scrollable ? DayRecord.scrollableBit : 0)
            | record.bits & DayRecord.otherDaysBit | events << DayRecord.eventsShift
        record.maxProgress = figures.maxProgress
        record.maxSeenDepth = figures.maxSeenDepth
    }
}
