import ProgressCore
import ProgressStore

/// One article's readers, their day records, and the all-time figures kept up to date as
/// records fold in, so that the default statistics never visit a reader.
///
/// Reader `slot`'s first day is record `slot` of ``firstDays``. A reader with other days has
/// them in ``otherDays``, newest first from ``otherHeads``[slot], chained by ``otherNext``; most
/// readers have one day, so the chain's head is looked up only for records flagged as having
/// others. With one day a reader costs a 32-byte record and about 7 bytes plus its id in
/// ``ReaderNames`` (`store-bench footprint` measures it; docs/performance.md has the figures).
///
/// A value: copying it is a snapshot that shares every chunk with the original until one of
/// them changes (see ``ChunkedArray``), so reads can fold it outside the index's lock.
struct ArticleIndex: Sendable {
    let name: String
    private(set) var names = ReaderNames()
    private(set) var firstDays = DayRecords()
    private(set) var otherDays = DayRecords()
    private(set) var otherNext = ChunkedArray<Int32>()
    private(set) var otherHeads: [Int32: Int32] = [:]
    /// The all-time counters, with histograms once the article has more than
    /// ``CounterPolicy/histogramMinimumReaders`` readers: below that, folding the readers is
    /// as quick as reading 2 × 1001 bins and much smaller for the many articles that stay small.
    private(set) var counters = ArticleCounters()
    /// The all-time counters of each device class's reader-days, once the article has more than
    /// ``CounterPolicy/segmentCountersFrom`` readers.
    private(set) var deviceCounters: DeviceCounters?
    /// The counters of each UTC day's reader-day records, once the article has more than
    /// ``dayCountersFrom`` readers: a range of one day answers from them.
    private(set) var dayCounters: DayCounters?
    /// Readers past which the article keeps ``dayCounters`` (``CounterPolicy/dayCountersFrom``
    /// unless the store's options say otherwise).
    private(set) var dayCountersFrom: Int
    /// The latest section map and the attention by day, kept by article (restored beside the
    /// snapshot, see ``Checkpointer``).
    var sections = ArticleSections()
    /// Counts the folds: any figure of the article can have changed only when this has.
    private(set) var version: UInt64

    /// An article without readers. Its versions start after `version`, so that an answer kept
    /// for an erased article of the same name never passes for one of this one.
    init(name: String, version: UInt64 = 0, dayCountersFrom: Int = CounterPolicy.embedded.dayCountersFrom) {
        self.name = name
        self.version = version
        self.dayCountersFrom = dayCountersFrom
    }

    /// Keeps counters by day past `minimum` readers from now on: starts or drops them as the
    /// article's size says.
    mutating func countDays(past minimum: Int) {
        guard minimum != dayCountersFrom else { return }
        dayCountersFrom = minimum
        dayCounters = names.count > minimum ? DayCounters(self) : nil
    }

    var readerCount: Int { names.count }

    /// Folds `figures` and `segment` of `reader` on `day` into the article; returns whether the
    /// reader is new. `readerHash` is ``ReaderNames/hash(of:)``, when the caller has it.
    mutating func fold(
        reader: String, readerHash: UInt64? = nil, day: Int32, _ figures: ReaderFigures,
        segment: SegmentRecord = .unknown
    ) -> Bool {
        version &+= 1
        let (slot, isNew) = names.slot(for: reader, hash: readerHash ?? ReaderNames.hash(of: reader))
        let before: ReaderFigures?
        var after = figures
        // By device, for the counters of each class, when the article keeps them and the reader
        // has other days (a reader of one day has all its figures in the day's class).
        let tracksDevices = deviceCounters != nil
        let byDeviceBefore =
            !tracksDevices || isNew || !firstDays.records[Int(slot)].hasOtherDays
            ? nil : figuresByDevice(of: slot)
        // The day's class before and after, read only when counters by class need it.
        var dayDevice: (was: DeviceClass?, now: DeviceClass) = (nil, .other)
        // The day record's change, for the day's counters: a new record, or the figures it held.
        var dayRecord: (new: Int32?, held: ReaderFigures?) = (nil, nil)
        if isNew {
            before = nil
            firstDays.append(day: day, figures, segment: segment)
            dayDevice = (nil, segment.device)
            dayRecord.new = slot
        } else {
            let (allTime, record) = walk(slot, lookingFor: day)
            before = allTime
            after.fold(allTime)
            switch record {
            case .first(let index, let held):
                dayRecord.held = held
                if tracksDevices { dayDevice.was = firstDays.segments[index].device }
                firstDays.fold(figures, into: held, at: index, segment: segment)
                if tracksDevices { dayDevice.now = firstDays.segments[index].device }
            case .other(let index, let held):
                dayRecord.held = held
                if tracksDevices { dayDevice.was = otherDays.segments[index].device }
                otherDays.fold(figures, into: held, at: index, segment: segment)
                if tracksDevices { dayDevice.now = otherDays.segments[index].device }
            case nil:
                // A new day goes first in the chain; the order of a reader's days is irrelevant.
                let index = otherDays.append(day: day, figures, segment: segment)
                otherNext.append(otherHeads[slot] ?? -1)
                otherHeads[slot] = index
                firstDays.markOtherDays(at: Int(slot))
                dayDevice = (nil, segment.device)
                dayRecord.new = ~index
            }
        }
        foldDayCounters(day: day, figures, record: dayRecord, isNew: isNew)
        if counters.move(from: before, to: after) {
            counters.histograms = DepthHistograms { body in forEachReader(in: .allTime) { body($1) } }
        }
        if isNew && deviceCounters == nil && names.count == CounterPolicy.embedded.segmentCountersFrom + 1 {
            deviceCounters = DeviceCounters(self)
        } else if deviceCounters != nil {
            if let byDeviceBefore {
                deviceCounters!.move(
                    from: byDeviceBefore, to: figuresByDevice(of: slot), dayWas: dayDevice.was,
                    dayIs: dayDevice.now)
            } else if !firstDays.records[Int(slot)].hasOtherDays {
                deviceCounters!.move(from: before, to: after, dayWas: dayDevice.was, dayIs: dayDevice.now)
            } else {
                // A reader of one day that has just had a second.
                var byDevice = InlineArray<4, ReaderFigures?>(repeating: nil)
                if let before { byDevice[firstDays.segments[Int(slot)].device.number] = before }
                deviceCounters!.move(
                    from: byDevice, to: figuresByDevice(of: slot), dayWas: dayDevice.was, dayIs: dayDevice.now
                )
            }
        }
        return isNew
    }

    /// Folds the section map and attention `event` carries, if any: a change of them alone
    /// moves the version too, so that no answer kept from before passes for one after.
    mutating func foldSections(_ event: EventRecord) {
        guard let parts = event.parts, parts.sections != nil || parts.attention != nil else { return }
        if sections.fold(event) { version &+= 1 }
    }

    /// Moves the day's counters by the record of `day` that `figures` just changed: `record.new`
    /// when it is new, else the figures it held; or starts them, when the article has just
    /// passed ``dayCountersFrom`` readers.
    private mutating func foldDayCounters(
        day: Int32, _ figures: ReaderFigures, record: (new: Int32?, held: ReaderFigures?), isNew: Bool
    ) {
        guard dayCounters != nil else {
            if isNew && names.count == dayCountersFrom + 1 { dayCounters = DayCounters(self) }
            return
        }
        if let held = record.held {
            let after = held.folded(figures)
            dayCounters!.move(day: day, from: held, to: after)
        } else if let new = record.new, dayCounters!.add(new, day: day, figures) {
            // Out of the article while the day reads its records, so that they stay uniquely held.
            var days = dayCounters!
            dayCounters = nil
            days.startHistograms(of: day, in: self)
            dayCounters = days
        }
    }

    /// Starts bringing in what folding the reader of `readerHash` reads first; see
    /// ``ReaderNames/prefetch(_:)``.
    @inline(__always) func prefetch(readerHash: UInt64) { names.prefetch(readerHash) }

    /// Where one of a reader's day records is, and the figures it holds.
    enum Record {
        case first(Int, ReaderFigures)
        case other(Int, ReaderFigures)
    }

    /// Reader `slot`'s figures over all its days, and its record on `day` if it has one.
    private func walk(_ slot: Int32, lookingFor day: Int32) -> (ReaderFigures, Record?) {
        let index = Int(slot)
        let first = firstDays.records[index]
        var folded = firstDays.figures(of: first, at: index)
        var record: Record? = first.day == day ? .first(index, folded) : nil
        guard first.hasOtherDays, var next = otherHeads[slot] else { return (folded, record) }
        while next >= 0 {
            let other = Int(next)
            let figures = otherDays.figures(at: other)
            folded.fold(figures)
            if otherDays.day(at: other) == day { record = .other(other, figures) }
            next = otherNext[other]
        }
        return (folded, record)
    }

    /// Reader `slot`'s figures folded over the days in `days`, or nil when it has none there.
    func figures(of slot: Int32, in days: DayRange) -> ReaderFigures? {
        let from = days.from ?? .min
        let to = days.to ?? .max
        let index = Int(slot)
        let first = firstDays.records[index]
        var folded: ReaderFigures?
        if first.day >= from && first.day <= to { folded = firstDays.figures(of: first, at: index) }
        guard first.hasOtherDays, var next = otherHeads[slot] else { return folded }
        while next >= 0 {
            let other = Int(next)
            let day = otherDays.day(at: other)
            if day >= from && day <= to {
                let figures = otherDays.figures(at: other)
                if folded == nil { folded = figures } else { folded!.fold(figures) }
            }
            next = otherNext[other]
        }
        return folded
    }

    /// Calls `body` with each reader that has a day in `days`, in slot order, and its figures
    /// folded over those days. Reads the first-day records a chunk at a time: indexing the
    /// chunked column once per reader costs a lookup of its chunk each time.
    func forEachReader(in days: DayRange, _ body: (_ slot: Int32, _ figures: ReaderFigures) -> Void) {
        let from = days.from ?? .min
        let to = days.to ?? .max
        firstDays.records.forEachChunk { start, records in
            for offset in records.indices {
                let record = records[offset]
                let slot = start + offset
                if record.hasOtherDays {
                    if let figures = figures(of: Int32(slot), in: days) { body(Int32(slot), figures) }
                } else if record.day >= from && record.day <= to {
                    body(Int32(slot), firstDays.figures(of: record, at: slot))
                }
            }
        }
    }

    /// Bytes held, counting capacity (the histograms' fixed 24 KiB included).
    var footprint: Int {
        let histogramBytes = counters.histograms == nil ? 0 : 2 * DepthHistogram.binCount * 12
        return sections.footprint + (deviceCounters?.footprint ?? 0) + (dayCounters?.footprint ?? 0)
            + names.footprint + firstDays.footprint
            + otherDays.footprint
            + otherNext.footprint
            + otherHeads.capacity * 8 + histogramBytes
    }
}

extension ArticleIndex {
    /// An article rebuilt from a snapshot's parts, which ``ArticleCodec`` has checked for
    /// everything that could make a later fold trap. Counters and histograms are recounted from
    /// the records; the histograms' least values per bin (`lowest`) are taken from the snapshot
    /// where they are consistent, so that quantiles answer exactly as before the snapshot.
    init(
        name: String, version: UInt64, names: ReaderNames, firstDays: DayRecords, otherDays: DayRecords,
        otherNext: ChunkedArray<Int32>, otherHeads: [Int32: Int32],
        lowest: (progress: [Double], seenDepth: [Double])?
    ) {
        self.name = name
        self.version = version
        self.names = names
        self.firstDays = firstDays
        self.otherDays = otherDays
        self.otherNext = otherNext
        self.otherHeads = otherHeads
        dayCountersFrom = CounterPolicy.embedded.dayCountersFrom
        counters = recounted(lowest: lowest)
        if names.count > CounterPolicy.embedded.segmentCountersFrom { deviceCounters = DeviceCounters(self) }
        if names.count > dayCountersFrom { dayCounters = DayCounters(self) }
    }

    /// The counters of the records, from each reader's all-time figures.
    private func recounted(lowest: (progress: [Double], seenDepth: [Double])?) -> ArticleCounters {
        var counters = ArticleCounters(keepsHistograms: names.count > CounterPolicy.histogramMinimumReaders)
        forEachReader(in: .allTime) { _, allTime in counters.move(from: nil, to: allTime) }
        if let lowest {
            counters.histograms?.progress.lower(toward: lowest.progress)
            counters.histograms?.seenDepth.lower(toward: lowest.seenDepth)
        }
        return counters
    }
}
