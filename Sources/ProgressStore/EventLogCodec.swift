import ProgressCore

/// The compact binary form of a group's events in the event journal: what an append writes,
/// and what start-up reads back.
///
/// Per event: article and reader as length-prefixed UTF-8, time, progress and seen depth as
/// their bit patterns, a flags byte (scrollable, has id, has attention, has sections, has
/// source), the named and the width's device classes (a nibble each, 0 for none), engaged ms,
/// then what the flags say is present, in that order: the id; 20 32-bit bands; a count byte
/// and, per section, its title, its start's bits and its words (−1 for none, 32 bits); the
/// source. Little-endian throughout. A leading byte says what the entry holds: events (3), or
/// an erasure (2: a byte for its kind, then the id), which replays in its place among the
/// events. Events written by earlier builds (1) are still read: they have no devices byte, and
/// a flag (16) says when their parts hold one, after the sections (entries written before the
/// parts existed have all those flags clear).
package enum EventLogCodec {
    package static let version: UInt8 = 3
    /// Events as earlier builds wrote them, the devices byte among the parts.
    package static let partsDevicesLayout: UInt8 = 1
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
                size += 2 + article + 2 + reader + 8 * 4 + 2
                longest = max(longest, article, reader)
                if let id = events[index].eventID {
                    size += 2 + id.utf8.count
                    longest = max(longest, id.utf8.count)
                }
                if let parts = events[index].parts { size += partsSize(of: parts, longest: &longest) }
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
                    writer.byte(flags(of: events[index]))
                    writer.byte(nibble(events[index].device) | nibble(events[index].widthDevice) << 4)
                    writer.word(UInt64(bitPattern: events[index].engagedMs))
                    if let id = events[index].eventID { writer.string(id) }
                    if let parts = events[index].parts { writer.parts(parts) }
                }
                count = writer.offset
            }
        }
    }

    /// The flags byte's bits.
    enum Flag {
        static let scrollable: UInt8 = 1
        static let id: UInt8 = 2
        static let attention: UInt8 = 4
        static let sections: UInt8 = 8
        /// Only in entries of ``partsDevicesLayout``: a devices byte after the sections.
        static let device: UInt8 = 16
        static let source: UInt8 = 32
        static let parts: UInt8 = attention | sections | device | source
    }

    private static func flags(of event: EventRecord) -> UInt8 {
        var flags: UInt8 = event.scrollable ? Flag.scrollable : 0
        if event.eventID != nil { flags |= Flag.id }
        guard let parts = event.parts else { return flags }
        if parts.attention != nil { flags |= Flag.attention }
        if parts.sections != nil { flags |= Flag.sections }
        if parts.source != nil { flags |= Flag.source }
        return flags
    }

    /// The bytes of an event's sections, attention and source.
    private static func partsSize(of event: EventRecord.Parts, longest: inout Int) -> Int {
        var size = 0
        if event.attention != nil { size += 4 * AttentionBands.count }
        if let sections = event.sections {
            size += 1
            for section in sections {
                size += 2 + section.title.utf8.count + 8 + 4
                longest = max(longest, section.title.utf8.count)
            }
        }
        if let source = event.source {
            size += 2 + source.utf8.count
            longest = max(longest, source.utf8.count)
        }
        return size
    }

    /// A device class as a nibble: 0 for none.
    static func nibble(_ device: DeviceClass?) -> UInt8 {
        // A switch, not `allCases`: that would build an array for every event written.
        switch device {
        case nil: 0
        case .phone: 1
        case .tablet: 2
        case .desktop: 3
        case .other: 4
        }
    }

    static func device(ofNibble nibble: UInt8) throws(StoreError) -> DeviceClass? {
        switch nibble {
        case 0: return nil
        case 1: return .phone
        case 2: return .tablet
        case 3: return .desktop
        case 4: return .other
        default: throw StoreError.corrupt("event log entry has an unknown device class")
        }
    }

    private struct Writer {
        let base: UnsafeMutablePointer<UInt8>
        var offset = 0

        mutating func byte(_ value: UInt8) {
            base[offset] = value
            offset += 1
        }

        mutating func word32(_ value: UInt32) {
            UnsafeMutableRawPointer(base + offset).storeBytes(of: value.littleEndian, as: UInt32.self)
            offset += 4
        }

        mutating func parts(_ event: EventRecord.Parts) {
            if let attention = event.attention { for band in attention { word32(band) } }
            if let sections = event.sections {
                byte(UInt8(sections.count))
                for section in sections {
                    string(section.title)
                    word(section.start.bitPattern)
                    word32(UInt32(bitPattern: section.words ?? -1))
                }
            }
            if let source = event.source { string(source) }
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
}
