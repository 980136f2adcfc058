import ProgressStore

/// One article of the index as bytes, and back: what a store keeps so that start-up restores
/// the index at memory speed instead of folding every stored row again.
///
/// Format 2, every number little-endian:
///
///     u8 format (2)   u8 flags (bit 0: least values follow)   u16 zero
///     u32 n, then n bytes: the article's id (UTF-8)
///     u64 version     i64 mark
///     u32 readers     u32 other-day records     u32 wide values
///     readers × (LEB128 length, bytes): reader ids by slot, as ``ReaderNames`` holds them
///     readers × 32 bytes: first-day records by slot  (i32 day, u32 engaged ms, u64 bits,
///                                                      f64 max progress, f64 max seen depth)
///     others × 36 bytes: other-day records, oldest first, each followed by u32 owner slot
///     wide values × 13 bytes: u8 column (0 first events, 1 first engaged ms, 2 other events,
///                             3 other engaged ms), u32 record, i64 value
///     (readers + others) × 10 bytes: each day's segment, first days by slot then other days
///                             (u64 ``SegmentRecord/bits``, u16 source id of the store's sources)
///     if flagged: 2 × 1001 × f64, the histograms' least values per bin (progress, seen depth)
///     u64 XXH64 of every byte before it
///
/// Record `bits` are ``DayRecord/bits`` (the other-days flag is ignored: owners say it) with an
/// 8-bit event count on top, 255 meaning it is among the wide values: a count from 255 up that
/// a record holds in memory (it has 16 bits there) is written as a wide value. Totals
/// and histogram counts are not stored but recounted, so no snapshot can make them disagree
/// with the records; the least values only refine quantiles where they are consistent.
///
/// Format 1 is format 2 without the segments: its reader-days decode with
/// ``SegmentRecord/unknown`` (device `other`, source `(direct)`; docs/api.md, "Segments").
enum ArticleCodec {
    static let format: UInt8 = 2
    static let segmentSize = 10
    static let recordSize = 32
    static let wideSize = 13
    static let headerSize = 4 + 4 + 8 + 8 + 12
    /// The event count that says the count is among the wide values (8 bits, all set).
    static let wideEventsMarker: UInt64 = 0xFF

    /// `article`'s bytes, stamped with `mark`.
    static func encode(_ article: ArticleIndex, mark: Int64) -> [UInt8] {
        let wide = article.wideValues
        let size = encodedSize(article, wideCount: wide.count)
        return [UInt8](unsafeUninitializedCapacity: size) { buffer, initialized in
            // One piece the size of the whole: written in place, handed over once, at the end.
            var out = PieceWriter(UnsafeMutableRawBufferPointer(buffer)) { _ throws(StoreError) in }
            do throws(StoreError) {
                try write(article, mark: mark, wide: wide, into: &out)
            } catch {
                preconditionFailure("a sink that never fails failed")
            }
            precondition(out.written == size, "article snapshot size miscounted")
            initialized = size
        }
    }

    /// `article`'s bytes, stamped with `mark`, handed to `sink` in order in pieces of
    /// `pieceBytes` (the last one shorter): an article of any size encoded in that much memory.
    /// Returns the size of the whole; rethrows what `sink` throws.
    @discardableResult
    static func encode(
        _ article: ArticleIndex, mark: Int64, pieceBytes: Int,
        into sink: (UnsafeRawBufferPointer) throws(StoreError) -> Void
    ) throws(StoreError) -> Int {
        let wide = article.wideValues
        let size = encodedSize(article, wideCount: wide.count)
        let buffer = UnsafeMutableRawBufferPointer.allocate(
            byteCount: max(1, min(pieceBytes, size)), alignment: 8)
        defer { buffer.deallocate() }
        try withoutActuallyEscaping(sink) { (sink) throws(StoreError) in
            var out = PieceWriter(buffer, sink: sink)
            try write(article, mark: mark, wide: wide, into: &out)
            precondition(out.written == size, "article snapshot size miscounted")
        }
        return size
    }

    /// How many bytes `encode` makes of `article`, which holds `wideCount` ``ArticleIndex/wideValues``.
    private static func encodedSize(_ article: ArticleIndex, wideCount: Int) -> Int {
        let nameBytes = article.names.arenaBytes.reduce(0) { $0 + $1.count }
        return headerSize + article.name.utf8.count + nameBytes + article.names.count * recordSize
            + article.otherDays.count * (recordSize + 4) + wideCount * wideSize
            + (article.names.count + article.otherDays.count) * segmentSize
            + (article.counters.histograms == nil ? 0 : 2 * DepthHistogram.binCount * 8) + 8
    }

    private static func write(
        _ article: ArticleIndex, mark: Int64, wide: [(column: UInt8, record: Int32, value: Int64)],
        into out: inout PieceWriter
    ) throws(StoreError) {
        let least = article.counters.histograms.map { [$0.progress.leastValues, $0.seenDepth.leastValues] }
        let name = Array(article.name.utf8)
        try out.write(format)
        try out.write(UInt8(least == nil ? 0 : 1))
        try out.write(UInt16(0))
        try out.write(UInt32(name.count))
        try out.write(name)
        try out.write(article.version)
        try out.write(mark)
        try out.write(UInt32(article.names.count))
        try out.write(UInt32(article.otherDays.count))
        try out.write(UInt32(wide.count))
        for arena in article.names.arenaBytes { try out.write(arena) }
        try article.firstDays.records.forEachChunk { (_, records) throws(StoreError) in
            for record in records { try out.write(record) }
        }
        let owners = article.otherOwners
        try article.otherDays.records.forEachChunk { (start, records) throws(StoreError) in
            for (offset, record) in records.enumerated() {
                try out.write(record)
                try out.write(UInt32(owners[start + offset]))
            }
        }
        for value in wide {
            try out.write(value.column)
            try out.write(UInt32(value.record))
            try out.write(value.value)
        }
        for days in [article.firstDays, article.otherDays] {
            try days.segments.forEachChunk { (_, segments) throws(StoreError) in
                for segment in segments {
                    try out.write(segment.bits)
                    try out.write(segment.source)
                }
            }
        }
        for values in least ?? [] {
            for value in values { try out.write(value.bitPattern) }
        }
        try out.finish()
    }
}

extension ArticleIndex {
    /// Event counts and engaged times held aside, by column as ``ArticleCodec`` numbers them:
    /// the index's own, and the counts its records hold that the format's 8 bits cannot.
    var wideValues: [(column: UInt8, record: Int32, value: Int64)] {
        var values: [(column: UInt8, record: Int32, value: Int64)] = []
        for (column, days) in [(UInt8(0), firstDays), (2, otherDays)] {
            var events = days.wideEvents.entries
            let held = ArticleCodec.wideEventsMarker..<DayRecord.wideEvents
            days.records.forEachChunk { start, records in
                for (offset, record) in records.enumerated() where held.contains(record.narrowEvents) {
                    events.append((Int32(start + offset), Int64(record.narrowEvents)))
                }
            }
            for (record, value) in events.sorted(by: { $0.key < $1.key }) {
                values.append((column, record, value))
            }
            for (record, value) in days.wideEngaged.entries.sorted(by: { $0.key < $1.key }) {
                values.append((column + 1, record, value))
            }
        }
        return values
    }

    /// The slot owning each other-day record.
    var otherOwners: [Int32] {
        var owners = [Int32](repeating: -1, count: otherDays.count)
        for (slot, head) in otherHeads {
            var next = head
            while next >= 0 {
                owners[Int(next)] = slot
                next = otherNext[Int(next)]
            }
        }
        return owners
    }
}

/// Writes little-endian numbers into a buffer, handing it to a sink whenever it is full and at
/// the end, and closes with the XXH64 of every byte before: an encoding of any size in memory of
/// the buffer's.
struct PieceWriter {
    private let buffer: UnsafeMutableRawBufferPointer
    private let sink: (UnsafeRawBufferPointer) throws(StoreError) -> Void
    private var offset = 0
    private var hasher = XXH64.Stream()
    /// Bytes handed to the sink so far.
    private(set) var handedOver = 0

    init(
        _ buffer: UnsafeMutableRawBufferPointer,
        sink: @escaping (UnsafeRawBufferPointer) throws(StoreError) -> Void
    ) {
        self.buffer = buffer
        self.sink = sink
    }

    /// Bytes written so far, handed over or not.
    var written: Int { handedOver + offset }

    mutating func write<T: FixedWidthInteger>(_ value: T) throws(StoreError) {
        let size = MemoryLayout<T>.size
        if buffer.count - offset >= size {
            buffer.baseAddress!.storeBytes(of: value.littleEndian, toByteOffset: offset, as: T.self)
            offset += size
        } else {
            try withUnsafeBytes(of: value.littleEndian) { (bytes) throws(StoreError) in try write(bytes) }
        }
    }

    mutating func write(_ bytes: UnsafeRawBufferPointer) throws(StoreError) {
        var rest = bytes
        while !rest.isEmpty {
            if offset == buffer.count { try flush() }
            let taken = min(rest.count, buffer.count - offset)
            (buffer.baseAddress! + offset).copyMemory(from: rest.baseAddress!, byteCount: taken)
            offset += taken
            rest = UnsafeRawBufferPointer(rebasing: rest[taken...])
        }
    }

    mutating func write(_ bytes: [UInt8]) throws(StoreError) {
        var failure: StoreError?
        bytes.withUnsafeBytes { bytes in
            do throws(StoreError) { try write(bytes) } catch { failure = error }
        }
        if let failure { throw failure }
    }

    mutating func write(_ record: DayRecord) throws(StoreError) {
        try write(record.day)
        try write(record.engaged)
        let events = min(record.narrowEvents, ArticleCodec.wideEventsMarker)
        try write(record.bits & ~(0xFF << DayRecord.eventsShift) | events << DayRecord.eventsShift)
        try write(record.maxProgress.bitPattern)
        try write(record.maxSeenDepth.bitPattern)
    }

    /// Hashes what the buffer holds and hands it over.
    private mutating func flush() throws(StoreError) {
        let full = UnsafeRawBufferPointer(rebasing: buffer[..<offset])
        hasher.update(full)
        try sink(full)
        handedOver += offset
        offset = 0
    }

    /// Writes the checksum and hands over the rest.
    mutating func finish() throws(StoreError) {
        hasher.update(UnsafeRawBufferPointer(rebasing: buffer[..<offset]))
        let checksum = hasher.finish()
        // The checksum is not part of what it covers: the bytes before it are hashed already.
        hasher = XXH64.Stream()
        try write(checksum)
        let rest = UnsafeRawBufferPointer(rebasing: buffer[..<offset])
        try sink(rest)
        handedOver += offset
        offset = 0
    }
}
