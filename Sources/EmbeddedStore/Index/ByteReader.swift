import ProgressStore

/// Reads little-endian numbers, refusing to read past the end.
struct ByteReader {
    let bytes: UnsafeRawBufferPointer
    private(set) var offset = 0

    init(_ bytes: UnsafeRawBufferPointer) {
        self.bytes = bytes
    }

    var remaining: Int { bytes.count - offset }

    mutating func read<T: FixedWidthInteger>(_: T.Type) throws(StoreError) -> T {
        let value = T(littleEndian: try bytes(MemoryLayout<T>.size).loadUnaligned(as: T.self))
        return value
    }

    /// The next `count` bytes.
    mutating func bytes(_ count: Int) throws(StoreError) -> UnsafeRawBufferPointer {
        guard count >= 0 && count <= remaining else { throw ArticleCodec.damaged("it is truncated") }
        defer { offset += count }
        return UnsafeRawBufferPointer(rebasing: bytes[offset..<offset + count])
    }

    /// The next `count` items of `size` bytes.
    mutating func section(count: Int, size: Int) throws(StoreError) -> UnsafeRawBufferPointer {
        let (total, overflow) = count.multipliedReportingOverflow(by: size)
        guard !overflow else { throw ArticleCodec.damaged("it is truncated") }
        return try bytes(total)
    }

    /// An unsigned LEB128 number below 2³².
    mutating func readVarint() throws(StoreError) -> Int {
        var value = 0
        var shift = 0
        while true {
            let byte = try read(UInt8.self)
            value |= Int(byte & 0x7F) << shift
            if byte < 0x80 { return value }
            shift += 7
            guard shift < 32 else { throw ArticleCodec.damaged("a length is too long") }
        }
    }
}
