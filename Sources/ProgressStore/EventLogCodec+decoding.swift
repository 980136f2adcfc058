import ProgressCore

/// Reading the journal's entries back (see ``EventLogCodec``).
extension EventLogCodec {
    package static func decode(_ bytes: [UInt8]) throws(StoreError) -> [EventRecord] {
        let decoded = bytes.withUnsafeBytes { raw in Result { () throws(StoreError) in try decode(raw) } }
        return try decoded.get()
    }

    package static func decode(_ bytes: UnsafeRawBufferPointer) throws(StoreError) -> [EventRecord] {
        var reader = Reader(bytes: bytes)
        let layout = try reader.byte()
        guard layout == version || layout == partsDevicesLayout else {
            throw StoreError.corrupt("event log entry has an unknown layout")
        }
        let devicesInParts = layout == partsDevicesLayout
        var events: [EventRecord] = []
        while !reader.isAtEnd {
            let article = try reader.string()
            let readerID = try reader.string()
            let timeMs = Int64(bitPattern: try reader.uint64())
            let progress = Double(bitPattern: try reader.uint64())
            let seen = Double(bitPattern: try reader.uint64())
            let flags = try reader.byte()
            guard devicesInParts || flags & Flag.device == 0 else {
                throw StoreError.corrupt("event log entry has an unknown flag")
            }
            let devices = devicesInParts ? 0 : try reader.byte()
            let engagedMs = Int64(bitPattern: try reader.uint64())
            let id = flags & Flag.id != 0 ? try reader.string() : nil
            let parts = flags & Flag.parts != 0 ? try reader.parts(flags) : Parts()
            events.append(
                EventRecord(
                    article: article, reader: readerID, timeMs: timeMs, progress: progress, seenDepth: seen,
                    scrollable: flags & Flag.scrollable != 0, engagedMs: engagedMs, eventID: id,
                    sections: parts.sections, attention: parts.attention,
                    device: try device(ofNibble: (parts.devices ?? devices) & 0xF),
                    widthDevice: try device(ofNibble: (parts.devices ?? devices) >> 4), source: parts.source))
        }
        return events
    }

    /// An event's parts as read, before they go into its record.
    struct Parts {
        var sections: [Section]?
        var attention: [UInt32]?
        var devices: UInt8?
        var source: String?
    }

    struct Reader {
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

        mutating func uint32() throws(StoreError) -> UInt32 {
            guard offset + 4 <= bytes.count else { throw Self.truncated }
            var value: UInt32 = 0
            withUnsafeMutableBytes(of: &value) {
                $0.copyMemory(from: UnsafeRawBufferPointer(rebasing: bytes[offset..<offset + 4]))
            }
            offset += 4
            return UInt32(littleEndian: value)
        }

        /// What the flags say follows the id; `devices` only in an entry of ``partsDevicesLayout``.
        mutating func parts(_ flags: UInt8) throws(StoreError) -> Parts {
            var parts = Parts()
            if flags & Flag.attention != 0 {
                var bands: [UInt32] = []
                bands.reserveCapacity(AttentionBands.count)
                for _ in 0..<AttentionBands.count { bands.append(try uint32()) }
                parts.attention = bands
            }
            if flags & Flag.sections != 0 {
                let count = Int(try byte())
                var sections: [Section] = []
                sections.reserveCapacity(count)
                for _ in 0..<count {
                    let title = try string()
                    let start = Double(bitPattern: try uint64())
                    let words = Int32(bitPattern: try uint32())
                    sections.append(Section(title: title, start: start, words: words < 0 ? nil : words))
                }
                parts.sections = sections
            }
            if flags & Flag.device != 0 { parts.devices = try byte() }
            if flags & Flag.source != 0 { parts.source = try string() }
            return parts
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
