import ProgressStore

/// SipHash-1-3 of a byte string under a random per-process key: what the standard library's
/// `Hasher` computes, so ids chosen by clients still cannot be crafted to collide, but inlined
/// here: `Hasher`'s three calls into the runtime per id would dominate rebuilding a table of
/// short reader ids, and weigh on each lookup.
struct SipHash13 {
    private let k0: UInt64
    private let k1: UInt64

    /// This process's key, drawn once from the system's generator.
    static let process: SipHash13 = {
        var random = SystemRandomNumberGenerator()
        return SipHash13(k0: random.next(), k1: random.next())
    }()

    init(k0: UInt64, k1: UInt64) {
        self.k0 = k0
        self.k1 = k1
    }

    @inline(__always)
    func hash(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
        var v0 = k0 ^ 0x736F_6D65_7073_6575
        var v1 = k1 ^ 0x646F_7261_6E64_6F6D
        var v2 = k0 ^ 0x6C79_6765_6E65_7261
        var v3 = k1 ^ 0x7465_6462_7974_6573
        @inline(__always) func round() {
            v0 &+= v1
            v1 = v1.rotated(13) ^ v0
            v0 = v0.rotated(32)
            v2 &+= v3
            v3 = v3.rotated(16) ^ v2
            v0 &+= v3
            v3 = v3.rotated(21) ^ v0
            v2 &+= v1
            v1 = v1.rotated(17) ^ v2
            v2 = v2.rotated(32)
        }
        let count = bytes.count
        let raw = UnsafeRawBufferPointer(bytes)
        var offset = 0
        while offset + 8 <= count {
            let word = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
            v3 ^= word
            round()
            v0 ^= word
            offset += 8
        }
        var last = UInt64(truncatingIfNeeded: count) &<< 56
        var shift: UInt64 = 0
        while offset < count {
            last |= UInt64(raw[offset]) &<< shift
            shift += 8
            offset += 1
        }
        v3 ^= last
        round()
        v0 ^= last
        v2 ^= 0xFF
        round()
        round()
        round()
        return v0 ^ v1 ^ v2 ^ v3
    }
}

extension UInt64 {
    @inline(__always)
    fileprivate func rotated(_ bits: UInt64) -> UInt64 {
        self &<< bits | self &>> (64 - bits)
    }
}
