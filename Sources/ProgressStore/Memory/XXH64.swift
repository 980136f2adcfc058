/// XXH64 (seed 0): a fast 64-bit checksum, so that a snapshot damaged on disk is refused
/// before any of it is believed. Not a defence against forgery, which the database is not
/// exposed to; runs at several GB/s, a small fraction of restoring what it covers.
enum XXH64 {
    private static let p1: UInt64 = 0x9E37_79B1_85EB_CA87
    private static let p2: UInt64 = 0xC2B2_AE3D_27D4_EB4F
    private static let p3: UInt64 = 0x1656_67B1_9E37_79F9
    private static let p4: UInt64 = 0x85EB_CA77_C2B2_AE63
    private static let p5: UInt64 = 0x27D4_EB2F_1656_67C5

    static func hash(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
        let count = bytes.count
        var offset = 0
        func word(_ at: Int) -> UInt64 {
            UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: at, as: UInt64.self))
        }
        var h: UInt64
        if count >= 32 {
            var v1 = p1 &+ p2
            var v2 = p2
            var v3: UInt64 = 0
            var v4 = 0 &- p1
            while offset + 32 <= count {
                v1 = round(v1, word(offset))
                v2 = round(v2, word(offset + 8))
                v3 = round(v3, word(offset + 16))
                v4 = round(v4, word(offset + 24))
                offset += 32
            }
            h = rotate(v1, 1) &+ rotate(v2, 7) &+ rotate(v3, 12) &+ rotate(v4, 18)
            for v in [v1, v2, v3, v4] {
                h = (h ^ round(0, v)) &* p1 &+ p4
            }
        } else {
            h = p5
        }
        h &+= UInt64(count)
        while offset + 8 <= count {
            h = rotate(h ^ round(0, word(offset)), 27) &* p1 &+ p4
            offset += 8
        }
        if offset + 4 <= count {
            let half = UInt64(
                UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt32.self)))
            h = rotate(h ^ (half &* p1), 23) &* p2 &+ p3
            offset += 4
        }
        while offset < count {
            h = rotate(h ^ (UInt64(bytes[offset]) &* p5), 11) &* p1
            offset += 1
        }
        h ^= h &>> 33
        h &*= p2
        h ^= h &>> 29
        h &*= p3
        h ^= h &>> 32
        return h
    }

    private static func round(_ accumulator: UInt64, _ input: UInt64) -> UInt64 {
        rotate(accumulator &+ input &* p2, 31) &* p1
    }

    private static func rotate(_ value: UInt64, _ bits: UInt64) -> UInt64 {
        value &<< bits | value &>> (64 - bits)
    }
}
