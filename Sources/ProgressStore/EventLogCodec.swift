/// The compact binary form of a group's events in the event journal: what an append writes,
/// and what start-up reads back.
///
/// Per event: article and reader as length-prefixed UTF-8, time, progress and seen depth as
/// their bit patterns, a flags byte (scrollable, has id), engaged ms, then the id when present.
/// Little-endian throughout. A leading byte says what the entry holds: events (1), or an
/// erasure (2: a byte for its kind, then the id), which replays in its place among the events.
package enum EventLogCodec {
    package static let version: UInt8 = 1
    package static let erasureLayout: UInt8 = 2

    /// What one journal entry holds.
    package enum Entry {
        case events([EventRecord])
        case erasure(Erasure)
    }

    /// The entry for `erasure`, or nil when its id is longer than ``maximumStringBytes``.
    package static func encode(_ erasure: Erasure) -> [UInt8]? {
        let (kind, id): (UInt8, String) =
            switch erasure {
            case .reader(let reader): (0, reader)
            case .article(let article): (1, article)
            }
        let count = id.utf8.count
        guard count <= maximumStringBytes else { return nil }
        return [erasureLayout, kind, UInt8(truncatingIfNeeded: count), UInt8(truncatingIfNeeded: count >> 8)]
            + Array(id.utf8)
    }

    /// What `bytes` hold: events or an erasure.
    package static func decodeEntry(_ bytes: [UInt8]) throws(StoreError) -> Entry {
        guard bytes.first == erasureLayout else { return .events(try decode(bytes)) }
        let decoded = bytes.withUnsafeBytes { raw in
            Result { () throws(StoreError) -> Entry in
                var reader = Reader(bytes: raw)
                _ = try reader.byte()
                let kind = try reader.byte()
                let id = try reader.string()
                guard reader.isAtEnd, kind <= 1 else {
                    throw StoreError.corrupt("an erasure entry is damaged")
                }
                return .erasure(kind == 0 ? .reader(id) : .article(id))
            }
        }
        return try decoded.get()
    }

    /// The longest string an entry holds: its length takes two bytes. HTTP caps every string
    /// far below; only the library API could hand over a longer one.
    package static let maximumStringBytes = Int(UInt16.max)

    /// `encodeIfFits`, for events known to fit.
    package static func encode(_ events: [EventRecord]) -> [UInt8] {
        guard let encoded = encodeIfFits(events) else {
            preconditionFailure("a string longer than \(maximumStringBytes) bytes")
        }
        return encoded
    }

    /// The entry for `events`, or nil when a string is longer than ``maximumStringBytes`` (its
    /// length would be cut, and the entry unreadable at the next start).
    package static func encodeIfFits(_ events: [EventRecord]) -> [UInt8]? {
        // The events are read through their buffer: their strings are lent, not copied.
        events.withUnsafeBufferPointer { events -> [UInt8]? in
            var size = 1
            var longest = 0
            for index in events.indices {
                let article = events[index].article.utf8.count
                let reader = events[index].reader.utf8.count
                size += 2 + article + 2 + reader + 8 * 4 + 1
                longest = max(longest, article, reader)
                if let id = events[index].eventID {
                    size += 2 + id.utf8.count
                    longest = max(longest, id.utf8.count)
                }
            }
            guard longest <= maximumStringBytes else { return nil }
            // One allocation of the exact size, filled in place.
            return [UInt8](unsafeUninitializedCapacity: size) { buffer, count in
                var writer = Writer(base: buffer.baseAddress!)
                writer.byte(version)
                for index in events.indices {
                    writer.string(events[index].article)
                    writer.string(events[index].reader)
                    writer.word(UInt64(bitPattern: events[index].timeMs))
                    writer.word(events[index].progress.bitPattern)
                    writer.word(events[index].seenDepth.bitPattern)
                    writer.byte((events[index].scrollable ? 1 : 0) | (events[index].eventID == nil ? 0 : 2))
                    writer.word(UInt64(bitPattern: events[index].engagedMs))
                    if let id = events[index].eventID { writer.string(id) }
                }
                count = writer.offset
            }
        }
    }

    private struct Writer {
        let base: UnsafeMutablePointer<UInt8>
        var offset = 0

        mutating func byte(_ value: UInt8) {
            base[offset] = value
            offset += 1
        }

        mutating func word(_ value: UInt64) {
            UnsafeMutableRawPointer(base + offset).storeBytes(of: value.littleEndian, as: UInt64.self)
            offset += 8
        }

        /// Strings here are at most ``maximumStringBytes`` long (HTTP: 256).
        mutating func string(_ value: String) {
            // Native strings lend their bytes in place; `withUTF8` would want a mutable copy
            // (a retain and a release an event, on the writer's lock).
            if value.utf8.withContiguousStorageIfAvailable({ bytes($0) }) != nil { return }
            var value = value
            value.withUTF8 { bytes($0) }
        }

        private mutating func bytes(_ utf8: UnsafeBufferPointer<UInt8>) {
            byte(UInt8(truncatingIfNeeded: utf8.count))
            byte(UInt8(truncatingIfNeeded: utf8.count >> 8))
            if let source = utf8.baseAddress { (base + offset).update(from: source, count: utf8.count) }
            offset += utf8.count
        }
    }

    package static func decode(_ bytes: [UInt8]) throws(StoreError) -> [EventRecord] {
        let decoded = bytes.withUnsafeBytes { raw in Result { () throws(StoreError) in try decode(raw) } }
        return try decoded.get()
    }

    package static func decode(_ bytes: UnsafeRawBufferPointer) throws(StoreError) -> [EventRecord] {
        var reader = Reader(bytes: bytes)
        guard try reader.byte() == version else {
            throw StoreError.corrupt("event log entry has an unknown layout")
        }
        var events: [EventRecord] = []
        while !reader.isAtEnd {
            let article = try reader.string()
            let readerID = try reader.string()
            let timeMs = Int64(bitPattern: try reader.uint64())
            let progress = Double(bitPattern: try reader.uint64())
            let seen = Double(bitPattern: try reader.uint64())
            let flags = try reader.byte()
            let engagedMs = Int64(bitPattern: try reader.uint64())
            let id = flags & 2 != 0 ? try reader.string() : nil
            events.append(
                EventRecord(
                    article: article, reader: readerID, timeMs: timeMs, progress: progress, seenDepth: seen,
                    scrollable: flags & 1 != 0, engagedMs: engagedMs, eventID: id))
        }
        return events
    }

    private struct Reader {
        let bytes: UnsafeRawBufferPointer
        var offset = 0

        var isAtEnd: Bool { offset >= bytes.count }

        mutating func byte() throws(StoreError) -> UInt8 {
            guard offset < bytes.count else { throw Self.truncated }
            defer { offset += 1 }
            return bytes[offset]
        }

        mutating func uint64() throws(StoreError) -> UInt64 {
            guard offset + 8 <= bytes.count else { throw Self.truncated }
            var value: UInt64 = 0
            withUnsafeMutableBytes(of: &value) {
                $0.copyMemory(from: UnsafeRawBufferPointer(rebasing: bytes[offset..<offset + 8]))
            }
            offset += 8
            return UInt64(littleEndian: value)
        }

        mutating func string() throws(StoreError) -> String {
            let count = Int(try byte()) | Int(try byte()) << 8
            guard offset + count <= bytes.count else { throw Self.truncated }
            defer { offset += count }
            return String(
                decoding: UnsafeRawBufferPointer(rebasing: bytes[offset..<offset + count]), as: UTF8.self)
        }

        static let truncated = StoreError.corrupt("event log entry is truncated")
    }
}
