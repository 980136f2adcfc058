#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The article ids of one batch, kept so that a batch about a few articles makes each one's
/// `String` once — an id of more than 15 bytes is an allocation, and a release later —
/// and hands out that one again wherever the same bytes come back.
///
/// A table of slots found by the id's first and last eight bytes and its length — 256 for a
/// large body, 16 for a small one (a beacon's single line has one id) — where a slot holds the
/// last id that landed in it, and a hit is checked byte for byte.
struct ArticleNames {
    private let slotBits: Int
    private var names: [String?]

    /// Room for the ids of a body of `bodyBytes`: an event takes some 150 bytes or more.
    init(bodyBytes: Int) {
        slotBits = bodyBytes >= 16_384 ? 8 : 4
        names = [String?](repeating: nil, count: 1 << slotBits)
    }

    /// The `String` of `bytes` (printable ASCII, as the scanner's plain strings are).
    mutating func name(of bytes: UnsafeBufferPointer<UInt8>) -> String {
        let slot = Self.slot(of: bytes, bits: slotBits)
        if var name = names[slot], name.utf8.count == bytes.count,
            name.withUTF8({ memcmp($0.baseAddress!, bytes.baseAddress!, bytes.count) == 0 })
        {
            return name
        }
        let name = String(decoding: bytes, as: UTF8.self)
        names[slot] = name
        return name
    }

    private static func slot(of bytes: UnsafeBufferPointer<UInt8>, bits slotBits: Int) -> Int {
        let count = bytes.count
        var first: UInt64 = 0
        var last: UInt64 = 0
        if count >= 8 {
            let raw = UnsafeRawPointer(bytes.baseAddress!)
            first = raw.loadUnaligned(as: UInt64.self)
            last = raw.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)
        } else {
            for byte in bytes { first = first << 8 | UInt64(byte) }
        }
        let mixed = (first ^ (last << 32 | last >> 32) ^ UInt64(count)) &* 0x9E37_79B9_7F4A_7C15
        return Int(truncatingIfNeeded: mixed >> UInt64(64 - slotBits))
    }
}
