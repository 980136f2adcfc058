import ProgressStore

extension ArticleCodec {
    /// The article in `bytes` and its mark. Throws for anything but an intact snapshot of a
    /// known format; never reads outside `bytes`, and refuses whatever would make a later fold
    /// trap (times off their day, counts that overflow, markers without their value).
    static func decode(_ bytes: UnsafeRawBufferPointer) throws(StoreError) -> (
        index: ArticleIndex, mark: Int64
    ) {
        guard bytes.count >= headerSize + 8 else { throw damaged("it is shorter than a header") }
        let body = UnsafeRawBufferPointer(rebasing: bytes[..<(bytes.count - 8)])
        let checksum = UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: body.count, as: UInt64.self))
        let format = bytes[0]
        guard format == 1 || format == Self.format else { throw damaged("its format \(format) is unknown") }
        guard XXH64.hash(body) == checksum else { throw damaged("its checksum does not match") }
        var input = ByteReader(body)
        _ = try input.read(UInt8.self)
        let flags = try input.read(UInt8.self)
        guard flags & ~1 == 0, try input.read(UInt16.self) == 0 else { throw damaged("unknown flags") }
        let nameBytes = try input.bytes(Int(try input.read(UInt32.self)))
        guard let name = String(validating: nameBytes, as: UTF8.self) else {
            throw damaged("the article id is not UTF-8")
        }
        let version = try input.read(UInt64.self)
        let mark = try input.read(Int64.self)
        let readers = Int(try input.read(UInt32.self))
        let others = Int(try input.read(UInt32.self))
        let wideCount = Int(try input.read(UInt32.self))
        guard readers < Int32.max / 2, others < Int32.max else { throw damaged("it counts too many records") }
        // Before allocating for them: the counts must fit in the bytes left (an id takes one at least).
        let segmentBytes = format == 1 ? 0 : segmentSize
        guard
            readers * (1 + recordSize + segmentBytes) + others * (recordSize + 4 + segmentBytes)
                + wideCount * wideSize <= input.remaining
        else { throw damaged("it is truncated") }

        let names = try decodeNames(count: readers, from: &input)
        var tally = Tally()
        var firstRecords = try decodeRecords(
            try input.section(count: readers, size: recordSize), count: readers, stride: recordSize,
            tally: &tally)
        // Before the other days' markers join the tally (taken after them, it refused every
        // snapshot with a wide value on a reader's later day).
        let firstMarkers = tally.markers
        let otherSection = try input.section(count: others, size: recordSize + 4)
        var otherRecords = try decodeRecords(
            otherSection, count: others, stride: recordSize + 4, tally: &tally)
        var otherHeads: [Int32: Int32] = [:]
        let otherNext = try ChunkedArray<Int32>(count: others) { start, chunk throws(StoreError) in
            for i in chunk.indices {
                let owner = UInt32(
                    littleEndian: otherSection.loadUnaligned(
                        fromByteOffset: (start + i) * (recordSize + 4) + recordSize, as: UInt32.self))
                guard owner < readers else { throw damaged("a day record's reader is out of range") }
                chunk[i] = otherHeads.updateValue(Int32(start + i), forKey: Int32(owner)) ?? -1
            }
        }
        for slot in otherHeads.keys { firstRecords[Int(slot)].hasOtherDays = true }

        var wide = [WideValues](repeating: WideValues(), count: 4)
        // Event counts that a record can hold itself go back into it; `placed` counts them.
        var placed = [0, 0, 0, 0]
        let wideSection = try input.section(count: wideCount, size: wideSize)
        for entry in 0..<wideCount {
            let column = Int(wideSection[entry * wideSize])
            let record = Int(
                UInt32(
                    littleEndian: wideSection.loadUnaligned(
                        fromByteOffset: entry * wideSize + 1, as: UInt32.self)))
            let value = Int64(
                littleEndian: wideSection.loadUnaligned(fromByteOffset: entry * wideSize + 5, as: Int64.self))
            guard column < 4, record < (column < 2 ? readers : others) else {
                throw damaged("a wide value is out of place")
            }
            // A second value for one field finds its marker gone (the first went into the record)
            // or its place in `wide` taken (the first is there: checked in both branches).
            let held = column < 2 ? firstRecords[record] : otherRecords[record]
            guard
                column & 1 == 0
                    ? held.narrowEvents == DayRecord.wideEvents : held.engaged == DayRecord.wideEngaged,
                tally.add(value)
            else { throw damaged("a wide value has no marker, or the counts overflow") }
            if column & 1 == 0 && (0..<Int64(DayRecord.wideEvents)).contains(value) {
                guard wide[column][Int32(record)] == nil else {
                    throw damaged("a wide value is out of place")
                }
                if column == 0 {
                    firstRecords[record].narrowEvents = UInt64(value)
                } else {
                    otherRecords[record].narrowEvents = UInt64(value)
                }
                placed[column] += 1
            } else if wide[column].updateValue(value, forKey: Int32(record)) != nil {
                throw damaged("a wide value is out of place")
            }
        }
        guard wide[0].count + placed[0] == firstMarkers.events, wide[1].count == firstMarkers.engaged,
            wide[2].count + placed[2] == tally.markers.events - firstMarkers.events,
            wide[3].count == tally.markers.engaged - firstMarkers.engaged
        else { throw damaged("a marker has no wide value") }

        let firstSegments: ChunkedArray<SegmentRecord>
        let otherSegments: ChunkedArray<SegmentRecord>
        if format == 1 {
            firstSegments = ChunkedArray(repeating: .unknown, count: readers)
            otherSegments = ChunkedArray(repeating: .unknown, count: others)
        } else {
            firstSegments = try decodeSegments(
                try input.section(count: readers, size: segmentSize), count: readers)
            otherSegments = try decodeSegments(
                try input.section(count: others, size: segmentSize), count: others)
        }

        var lowest: (progress: [Double], seenDepth: [Double])?
        // Least values come exactly with the histograms, which come with enough readers.
        guard (flags & 1 != 0) == (readers > CounterPolicy.histogramMinimumReaders) else {
            throw damaged("its histograms do not match its readers")
        }
        if flags & 1 != 0 {
            let section = try input.section(count: 2 * DepthHistogram.binCount, size: 8)
            let values = (0..<2 * DepthHistogram.binCount).map {
                Double(
                    bitPattern: UInt64(
                        littleEndian: section.loadUnaligned(fromByteOffset: $0 * 8, as: UInt64.self)))
            }
            lowest = (Array(values[..<DepthHistogram.binCount]), Array(values[DepthHistogram.binCount...]))
        }
        guard input.remaining == 0 else { throw damaged("bytes follow its end") }

        let index = ArticleIndex(
            name: name, version: version, names: names,
            firstDays: DayRecords(
                records: firstRecords, segments: firstSegments, wideEvents: wide[0], wideEngaged: wide[1]),
            otherDays: DayRecords(
                records: otherRecords, segments: otherSegments, wideEvents: wide[2], wideEngaged: wide[3]),
            otherNext: otherNext, otherHeads: otherHeads, lowest: lowest)
        return (index, mark)
    }

    /// `count` reader ids, in arenas of ``ReaderNames/slotsPerArena`` sized exactly.
    private static func decodeNames(count: Int, from input: inout ByteReader) throws(StoreError)
        -> ReaderNames
    {
        var arenas: [[UInt8]] = []
        arenas.reserveCapacity((count + ReaderNames.slotsPerArena - 1) / ReaderNames.slotsPerArena)
        var offsets = ChunkedArray<UInt32>()
        var slot = 0
        while slot < count {
            let first = input.offset
            let end = min(count, slot + ReaderNames.slotsPerArena)
            while slot < end {
                if slot & 7 == 0 { offsets.append(UInt32(truncatingIfNeeded: input.offset - first)) }
                _ = try input.bytes(try input.readVarint())
                slot += 1
            }
            guard input.offset - first <= UInt32.max else {
                throw damaged("an arena of reader ids is too long")
            }
            arenas.append(Array(UnsafeRawBufferPointer(rebasing: input.bytes[first..<input.offset])))
        }
        return ReaderNames(arenas: arenas, offsets: offsets, count: count)
    }

    /// Markers seen and the sum of every count's magnitude, which must stay far from overflow
    /// so that no fold of these records can overflow either.
    private struct Tally {
        var markers = (events: 0, engaged: 0)
        private var magnitude: UInt64 = 0

        mutating func add(_ value: Int64) -> Bool {
            let (sum, overflow) = magnitude.addingReportingOverflow(value.magnitude)
            magnitude = sum
            return !overflow && sum < 1 << 62
        }
    }

    private static func decodeRecords(
        _ section: UnsafeRawBufferPointer, count: Int, stride: Int, tally: inout Tally
    ) throws(StoreError) -> ChunkedArray<DayRecord> {
        try ChunkedArray<DayRecord>(count: count) { start, chunk throws(StoreError) in
            var events = 0
            var engaged = 0
            var narrow: UInt64 = 0
            var bad = false
            for i in chunk.indices {
                let at = (start + i) * stride
                let day = Int32(littleEndian: section.loadUnaligned(fromByteOffset: at, as: Int32.self))
                let dayFits = DayRecord.days.contains(day)
                var record = DayRecord(
                    day: dayFits ? day : 0,
                    engaged: UInt32(
                        littleEndian: section.loadUnaligned(fromByteOffset: at + 4, as: UInt32.self)),
                    bits: UInt64(littleEndian: section.loadUnaligned(fromByteOffset: at + 8, as: UInt64.self))
                        & ~DayRecord.otherDaysBit,
                    maxProgress: Double(
                        bitPattern: UInt64(
                            littleEndian: section.loadUnaligned(fromByteOffset: at + 16, as: UInt64.self))),
                    maxSeenDepth: Double(
                        bitPattern: UInt64(
                            littleEndian: section.loadUnaligned(fromByteOffset: at + 24, as: UInt64.self))))
                // The format's marker is 8 bits; a record's, 16.
                if record.narrowEvents == ArticleCodec.wideEventsMarker {
                    record.narrowEvents = DayRecord.wideEvents
                }
                let first = record.firstOffset
                let last = record.lastOffset
                bad = bad || !dayFits || last >= UTCDay.milliseconds || first > last
                let wideEvents = record.narrowEvents == DayRecord.wideEvents
                let wideEngaged = record.engaged == DayRecord.wideEngaged
                events += wideEvents ? 1 : 0
                engaged += wideEngaged ? 1 : 0
                narrow &+=
                    (wideEvents ? 0 : record.narrowEvents) &+ (wideEngaged ? 0 : UInt64(record.engaged))
                chunk[i] = record
            }
            // At most 2¹⁴ × 2³³: far from overflow.
            guard !bad, tally.add(Int64(narrow)) else {
                throw damaged("a day record's times or counts are impossible")
            }
            tally.markers.events += events
            tally.markers.engaged += engaged
        }
    }

    /// `count` segments; their source ids are checked against the store's table when the article
    /// joins an index (see ``ArticleIndex/highestSource``).
    private static func decodeSegments(_ section: UnsafeRawBufferPointer, count: Int) throws(StoreError)
        -> ChunkedArray<SegmentRecord>
    {
        try ChunkedArray<SegmentRecord>(count: count) { start, chunk throws(StoreError) in
            for i in chunk.indices {
                let at = (start + i) * segmentSize
                let bits = UInt64(littleEndian: section.loadUnaligned(fromByteOffset: at, as: UInt64.self))
                let source = UInt16(
                    littleEndian: section.loadUnaligned(fromByteOffset: at + 8, as: UInt16.self))
                guard let segment = SegmentRecord(validating: bits, source: source) else {
                    throw damaged("a day's segment is impossible")
                }
                chunk[i] = segment
            }
        }
    }

    static func damaged(_ why: String) -> StoreError {
        StoreError.corrupt("article snapshot refused: \(why)")
    }
}
