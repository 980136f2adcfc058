import ProgressStore

/// One reader's figures on one article on one UTC day: 32 bytes with no padding, so one record
/// is one read from memory when an event folds in.
///
/// Times are milliseconds within the record's day (a UTC day has fewer than 2²⁷ ms), packed in
/// `bits` with the scrollable flag and a flag saying the reader has other days. The event count
/// takes 16 bits — its low byte in `bits`, its high byte beside the day, which needs only 24 —
/// and engaged time 32. A count or time that does not fit is held exactly in ``DayRecords``, its
/// field set to the marker. (With 8 bits, every reader past 254 events in a day — a long read
/// sends that many — had each further event look its count up in a table: a cache miss more
/// for every event of theirs.)
struct DayRecord: Equatable {
    /// The day, in days since 1970 (bits 0–23, two's complement), and the event count's high
    /// byte (24–31).
    private var dayAndEvents: UInt32
    var engaged: UInt32
    /// First time (bits 0–26), last time (27–53), scrollable (54), other days (55), the event
    /// count's low byte (56–63).
    var bits: UInt64
    var maxProgress: Double
    var maxSeenDepth: Double

    static let timeMask: UInt64 = (1 << 27) - 1
    static let scrollableBit: UInt64 = 1 << 54
    static let otherDaysBit: UInt64 = 1 << 55
    static let eventsShift: UInt64 = 56
    /// `events` and `engaged` markers: the value is kept aside.
    static let wideEvents: UInt64 = 0xFFFF
    static let wideEngaged = UInt32.max
    /// Days a record can hold: some 23,000 years either side of 1970.
    static let days: ClosedRange<Int32> = -(1 << 23)...(1 << 23 - 1)

    /// A record of `day` (in ``days``) with the event count's high byte zero.
    init(day: Int32, engaged: UInt32, bits: UInt64, maxProgress: Double, maxSeenDepth: Double) {
        precondition(Self.days.contains(day), "a day record's day is out of range")
        dayAndEvents = UInt32(bitPattern: day) & 0xFF_FFFF
        self.engaged = engaged
        self.bits = bits
        self.maxProgress = maxProgress
        self.maxSeenDepth = maxSeenDepth
    }

    var day: Int32 { Int32(bitPattern: dayAndEvents << 8) >> 8 }
    var firstOffset: Int64 { Int64(bits & Self.timeMask) }
    var lastOffset: Int64 { Int64(bits &>> 27 & Self.timeMask) }
    var scrollable: Bool { bits & Self.scrollableBit != 0 }

    /// The event count, or ``wideEvents``.
    var narrowEvents: UInt64 {
        get { UInt64(dayAndEvents >> 24) << 8 | bits &>> Self.eventsShift }
        set {
            assert(newValue <= Self.wideEvents, "an event count beyond 16 bits")
            dayAndEvents = dayAndEvents & 0xFF_FFFF | UInt32(truncatingIfNeeded: newValue >> 8) << 24
            bits = bits & ~(0xFF << Self.eventsShift) | newValue << Self.eventsShift
        }
    }

    /// Whether the reader has records on other days (first-day records only).
    var hasOtherDays: Bool {
        get { bits & Self.otherDaysBit != 0 }
        set { bits = newValue ? bits | Self.otherDaysBit : bits & ~Self.otherDaysBit }
    }
}

/// Day records, in chunks, with the few event counts and engaged times that outgrow their
/// record's fields kept aside by record index, and each record's segment in a column beside
/// them (the same index).
struct DayRecords {
    private(set) var records = ChunkedArray<DayRecord>()
    private(set) var segments = ChunkedArray<SegmentRecord>()
    private(set) var wideEvents = WideValues()
    private(set) var wideEngaged = WideValues()

    init() {}

    /// Records as decoded from a snapshot; the caller has checked them (see ``ArticleCodec``),
    /// and that there are as many segments as records.
    init(
        records: ChunkedArray<DayRecord>, segments: ChunkedArray<SegmentRecord>, wideEvents: WideValues,
        wideEngaged: WideValues
    ) {
        self.records = records
        self.segments = segments
        self.wideEvents = wideEvents
        self.wideEngaged = wideEngaged
    }

    var count: Int { records.count }

    /// Bytes held, counting capacity.
    var footprint: Int {
        records.footprint + segments.footprint + (wideEvents.capacity + wideEngaged.capacity) * 16
    }

    func day(at index: Int) -> Int32 { records[index].day }

    /// The figures of record `index`.
    func figures(at index: Int) -> ReaderFigures {
        figures(of: records[index], at: index)
    }

    /// The figures of `record`, which is record `index`.
    func figures(of record: DayRecord, at index: Int) -> ReaderFigures {
        let start = UTCDay.start(of: record.day)
        let events = record.narrowEvents
        return ReaderFigures(
            maxProgress: record.maxProgress, maxSeenDepth: record.maxSeenDepth, scrollable: record.scrollable,
            events: events == DayRecord.wideEvents ? wideEvents[Int32(index)]! : Int64(events),
            engagedMs: record.engaged == DayRecord.wideEngaged
                ? wideEngaged[Int32(index)]! : Int64(record.engaged),
            firstMs: start + record.firstOffset, lastMs: start + record.lastOffset)
    }

    /// Appends a record of `figures` and `segment` on `day`; returns its index.
    @discardableResult
    mutating func append(day: Int32, _ figures: ReaderFigures, segment: SegmentRecord) -> Int32 {
        precondition(count < Int32.max, "too many day records for one article")
        let index = Int32(count)
        var record = DayRecord(day: day, engaged: 0, bits: 0, maxProgress: 0, maxSeenDepth: 0)
        store(figures, in: &record, at: index)
        records.append(record)
        segments.append(segment)
        return index
    }

    /// Folds `figures` and `segment` (of the same day) into record `index`, which holds `held` —
    /// as the caller has just read them: reading them again would look a wide value up once
    /// more.
    mutating func fold(
        _ figures: ReaderFigures, into held: ReaderFigures, at index: Int, segment: SegmentRecord
    ) {
        var record = records[index]
        var folded = held
        folded.fold(figures)
        store(folded, in: &record, at: Int32(index))
        records[index] = record
        var kept = segments[index]
        kept.fold(segment)
        if kept != segments[index] { segments[index] = kept }
    }

    /// Marks record `index` as its reader's first of several days.
    mutating func markOtherDays(at index: Int) {
        records[index].hasOtherDays = true
    }

    private mutating func store(_ figures: ReaderFigures, in record: inout DayRecord, at index: Int32) {
        let start = UTCDay.start(of: record.day)
        let first = figures.firstMs - start
        let last = figures.lastMs - start
        precondition(
            (0..<UTCDay.milliseconds).contains(first) && (0..<UTCDay.milliseconds).contains(last),
            "event times must fall on the record's UTC day")
        // A value that stays wide is overwritten in place; one that fits again leaves the table.
        let events: UInt64
        if (0..<Int64(DayRecord.wideEvents)).contains(figures.events) {
            if record.narrowEvents == DayRecord.wideEvents { wideEvents[index] = nil }
            events = UInt64(figures.events)
        } else {
            events = DayRecord.wideEvents
            wideEvents.updateValue(figures.events, forKey: index)
        }
        if (0..<Int64(DayRecord.wideEngaged)).contains(figures.engagedMs) {
            if record.engaged == DayRecord.wideEngaged { wideEngaged[index] = nil }
            record.engaged = UInt32(figures.engagedMs)
        } else {
            record.engaged = DayRecord.wideEngaged
            wideEngaged.updateValue(figures.engagedMs, forKey: index)
        }
        record.bits =
            UInt64(first) | UInt64(last) << 27 | (figures.scrollable ? DayRecord.scrollableBit : 0)
            | record.bits & DayRecord.otherDaysBit
        record.narrowEvents = events
        record.maxProgress = figures.maxProgress
        record.maxSeenDepth = figures.maxSeenDepth
    }
}
