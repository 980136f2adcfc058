import ProgressStore

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
        var stream = Stream()
        stream.update(bytes)
        return stream.finish()
    }

    /// The same hash over bytes that arrive in pieces: `update` with each in order, then
    /// `finish`. The pieces may be of any sizes; the hash is that of all of them joined.
    struct Stream {
        private var v1 = p1 &+ p2
        private var v2 = p2
        private var v3: UInt64 = 0
        private var v4 = 0 &- p1
        private var total = 0
        /// The bytes of a 32-byte stripe not yet complete.
        private var pending: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
        private var pendingCount = 0

        mutating func update(_ bytes: UnsafeRawBufferPointer) {
            guard !bytes.isEmpty else { return }
            total += bytes.count
            var offset = 0
            if pendingCount > 0 {
                let taken = min(32 - pendingCount, bytes.count)
                withUnsafeMutableBytes(of: &pending) { stripe in
                    stripe.baseAddress!.advanced(by: pendingCount).copyMemory(
                        from: bytes.baseAddress!, byteCount: taken)
                }
                pendingCount += taken
                offset = taken
                guard pendingCount == 32 else { return }
                withUnsafeBytes(of: pending) { stripe($0, at: 0) }
                pendingCount = 0
            }
            while offset + 32 <= bytes.count {
                stripe(bytes, at: offset)
                offset += 32
            }
            if offset < bytes.count {
                withUnsafeMutableBytes(of: &pending) { stripe in
                    stripe.baseAddress!.copyMemory(
                        from: bytes.baseAddress! + offset, byteCount: bytes.count - offset)
                }
                pendingCount = bytes.count - offset
            }
        }

        private mutating func stripe(_ bytes: UnsafeRawBufferPointer, at offset: Int) {
            v1 = round(v1, word(bytes, offset))
            v2 = round(v2, word(bytes, offset + 8))
            v3 = round(v3, word(bytes, offset + 16))
            v4 = round(v4, word(bytes, offset + 24))
        }

        func finish() -> UInt64 {
            var h: UInt64
            if total >= 32 {
                h = rotate(v1, 1) &+ rotate(v2, 7) &+ rotate(v3, 12) &+ rotate(v4, 18)
                for v in [v1, v2, v3, v4] {
                    h = (h ^ round(0, v)) &* p1 &+ p4
                }
            } else {
                h = p5
            }
            h &+= UInt64(total)
            return withUnsafeBytes(of: pending) { tail in
                let count = pendingCount
                var offset = 0
                while offset + 8 <= count {
                    h = rotate(h ^ round(0, word(tail, offset)), 27) &* p1 &+ p4
                    offset += 8
                }
                if offset + 4 <= count {
                    let half = UInt64(
                        UInt32(littleEndian: tail.loadUnaligned(fromByteOffset: offset, as: UInt32.self)))
                    h = rotate(h ^ (half &* p1), 23) &* p2 &+ p3
                    offset += 4
                }
                while offset < count {
                    h = rotate(h ^ (UInt64(tail[offset]) &* p5), 11) &* p1
                    offset += 1
                }
                h ^= h &>> 33
                h &*= p2
                h ^= h &>> 29
                h &*= p3
                h ^= h &>> 32
                return h
            }
        }
    }

    private static func word(_ bytes: UnsafeRawBufferPointer, _ at: Int) -> UInt64 {
        UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: at, as: UInt64.self))
    }

    private static func round(_ accumulator: UInt64, _ input: UInt64) -> UInt64 {
        rotate(accumulator &+ input &* p2, 31) &* p1
    }

    private static func rotate(_ value: UInt64, _ bits: UInt64) -> UInt64 {
        value &<< bits | value &>> (64 - bits)
    }
}
