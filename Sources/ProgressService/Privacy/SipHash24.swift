/// SipHash-2-4 (Aumasson and Bernstein), fed a piece at a time, so that a derived reader id
/// hashes the client's address and header fields where they lie, without copying them together.
///
/// The 128-bit variant keys the derived ids (docs/privacy.md); the 64-bit one is here because the
/// reference vectors of both check the same rounds.
struct SipHash24 {
    private var v0: UInt64
    private var v1: UInt64
    private var v2: UInt64
    private var v3: UInt64
    /// Bytes not yet making a whole word, little-endian, and how many there are.
    private var tail: UInt64 = 0
    private var tailCount = 0
    private var length = 0
    private let wide: Bool

    /// A hash keyed by `k0` and `k1` (the key's two little-endian halves); `wide` for 128 bits.
    init(k0: UInt64, k1: UInt64, wide: Bool = true) {
        v0 = k0 ^ 0x736F_6D65_7073_6575
        v1 = k1 ^ 0x646F_7261_6E64_6F6D
        v2 = k0 ^ 0x6C79_6765_6E65_7261
        v3 = k1 ^ 0x7465_6462_7974_6573
        if wide { v1 ^= 0xEE }
        self.wide = wide
    }

    @inline(__always)
    private mutating func round() {
        v0 &+= v1
        v1 = rotate(v1, 13) ^ v0
        v0 = rotate(v0, 32)
        v2 &+= v3
        v3 = rotate(v3, 16) ^ v2
        v0 &+= v3
        v3 = rotate(v3, 21) ^ v0
        v2 &+= v1
        v1 = rotate(v1, 17) ^ v2
        v2 = rotate(v2, 32)
    }

    @inline(__always)
    private mutating func compress(_ word: UInt64) {
        v3 ^= word
        round()
        round()
        v0 ^= word
    }

    mutating func append(_ bytes: UnsafeRawBufferPointer) {
        length &+= bytes.count
        var offset = 0
        while tailCount != 0, offset < bytes.count {
            append(byte: bytes[offset], counted: false)
            offset += 1
        }
        while bytes.count - offset >= 8 {
            compress(UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self)))
            offset += 8
        }
        while offset < bytes.count {
            append(byte: bytes[offset], counted: false)
            offset += 1
        }
    }

    mutating func append(_ byte: UInt8) {
        append(byte: byte, counted: true)
    }

    /// `value` as four little-endian bytes: the length before each field of a derived id.
    mutating func append(_ value: UInt32) {
        for shift in stride(from: 0, to: 32, by: 8) { append(UInt8(truncatingIfNeeded: value >> shift)) }
    }

    @inline(__always)
    private mutating func append(byte: UInt8, counted: Bool) {
        if counted { length &+= 1 }
        tail |= UInt64(byte) << (8 * UInt64(tailCount))
        tailCount += 1
        if tailCount == 8 {
            compress(tail)
            tail = 0
            tailCount = 0
        }
    }

    private mutating func finish() {
        compress(UInt64(truncatingIfNeeded: length) << 56 | tail)
        v2 ^= wide ? 0xEE : 0xFF
        for _ in 0..<4 { round() }
    }

    /// The 64-bit hash (of a hash made with `wide: false`).
    consuming func finalize64() -> UInt64 {
        precondition(!wide, "a 128-bit SipHash has two words")
        finish()
        return v0 ^ v1 ^ v2 ^ v3
    }

    /// The 128-bit hash as two words; its 16 bytes are `first`, then `second`, each little-endian.
    consuming func finalize128() -> (first: UInt64, second: UInt64) {
        precondition(wide, "a 64-bit SipHash has one word")
        finish()
        let first = v0 ^ v1 ^ v2 ^ v3
        v1 ^= 0xDD
        for _ in 0..<4 { round() }
        return (first, v0 ^ v1 ^ v2 ^ v3)
    }
}

@inline(__always)
private func rotate(_ value: UInt64, _ bits: UInt64) -> UInt64 {
    value << bits | value >> (64 - bits)
}
