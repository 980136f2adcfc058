/// One article of the index as bytes, and back: what a store keeps so that start-up restores
/// the index at memory speed instead of folding every stored row again.
///
/// Format 1, every number little-endian:
///
///     u8 format (1)   u8 flags (bit 0: least values follow)   u16 zero
///     u32 n, then n bytes: the article's id (UTF-8)
///     u64 version     i64 mark
///     u32 readers     u32 other-day records     u32 wide values
///     readers × (LEB128 length, bytes): reader ids by slot, as ``ReaderNames`` holds them
///     readers × 32 bytes: first-day records by slot  (i32 day, u32 engaged ms, u64 bits,
///                                                      f64 max progress, f64 max seen depth)
///     others × 36 bytes: other-day records, oldest first, each followed by u32 owner slot
///     wide values × 13 bytes: u8 column (0 first events, 1 first engaged ms, 2 other events,
///                             3 other engaged ms), u32 record, i64 value
///     if flagged: 2 × 1001 × f64, the histograms' least values per bin (progress, seen depth)
///     u64 XXH64 of every byte before it
///
/// Record `bits` are ``DayRecord/bits`` (the other-days flag is ignored: owners say it) with an
/// 8-bit event count on top, 255 meaning it is among the wide values: a count from 255 up that
/// a record holds in memory (it has 16 bits there) is written as a wide value. Totals
/// and histogram counts are not stored but recounted, so no snapshot can make them disagree
/// with the records; the least values only refine quantiles where they are consistent.
enum ArticleCodec {
    static let format: UInt8 = 1
    static let recordSize = 32
    static let wideSize = 13
    static let headerSize = 4 + 4 + 8 + 8 + 12
    /// The event count that says the count is among the wide values (8 bits, all set).
    static let wideEventsMarker: UInt64 = 0xFF

    /// `article`'s bytes, stamped with `mark`.
    static func encode(_ article: ArticleIndex, mark: Int64) -> [UInt8] {
        let readers = article.names.count
        let others = article.otherDays.count
        let wide = article.wideValues
        let least = article.histograms.map { [$0.progress.leastValues, $0.seenDepth.leastValues] }
        let arenas = article.names.arenaBytes
        let nameBytes = arenas.reduce(0) { $0 + $1.count }
        var name = article.name
        let size =
            headerSize + name.utf8.count + nameBytes + readers * recordSize + others * (recordSize + 4)
            + wide.count * wideSize + (least == nil ? 0 : 2 * DepthHistogram.binCount * 8) + 8
        return [UInt8](unsafeUninitializedCapacity: size) { buffer, initialized in
            var out = ByteWriter(UnsafeMutableRawBufferPointer(buffer))
            out.write(format)
            out.write(UInt8(least == nil ? 0 : 1))
            out.write(UInt16(0))
            name.withUTF8 { utf8 in
                out.write(UInt32(utf8.count))
                out.write(utf8)
            }
            out.write(article.version)
            out.write(mark)
            out.write(UInt32(readers))
            out.write(UInt32(others))
            out.write(UInt32(wide.count))
            for arena in arenas {
                arena.withUnsafeBufferPointer { out.write($0) }
            }
            article.firstDays.records.forEachChunk { _, records in
                for record in records { out.write(record) }
            }
            let owners = article.otherOwners
            article.otherDays.records.forEachChunk { start, records in
                for (offset, record) in records.enumerated() {
                    out.write(record)
                    out.write(UInt32(owners[start + offset]))
                }
            }
            for value in wide {
                out.write(value.column)
                out.write(UInt32(value.record))
                out.write(value.value)
            }
            for values in least ?? [] {
                for value in values { out.write(value) }
            }
            out.write(
                XXH64.hash(UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(buffer)[..<out.offset])))
            precondition(out.offset == size, "article snapshot size miscounted")
            initialized = size
        }
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

/// Writes little-endian numbers into memory the caller has sized exactly.
struct ByteWriter {
    private let base: UnsafeMutableRawPointer
    private(set) var offset = 0

    init(_ buffer: UnsafeMutableRawBufferPointer) {
        base = buffer.baseAddress!
    }

    mutating func write<T: FixedWidthInteger>(_ value: T) {
        base.storeBytes(of: value.littleEndian, toByteOffset: offset, as: T.self)
        offset += MemoryLayout<T>.size
    }

    mutating func write(_ value: Double) {
        write(value.bitPattern)
    }

    mutating func write(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let source = bytes.baseAddress else { return }
        (base + offset).copyMemory(from: source, byteCount: bytes.count)
        offset += bytes.count
    }

    mutating func write(_ record: DayRecord) {
        write(record.day)
        write(record.engaged)
        let events = min(record.narrowEvents, ArticleCodec.wideEventsMarker)
        write(record.bits & ~(0xFF << DayRecord.eventsShift) | events << DayRecord.eventsShift)
        write(record.maxProgress)
        write(record.maxSeenDepth)
    }

}
