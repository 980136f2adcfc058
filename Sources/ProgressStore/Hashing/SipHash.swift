/// SipHash (Aumasson and Bernstein) with a chosen number of rounds, fed a piece at a time.
///
/// Two variants are used: SipHash-2-4-128 keys the derived reader ids (docs/privacy.md), where
/// the paper's strength matters; SipHash-1-3-64, what the standard library's `Hasher`
/// computes, finds reader ids and event ids in the embedded store, where a random key is enough
/// to keep ids chosen by clients from being crafted to collide, and speed matters: ``hash13(_:key:)``
/// has its rounds unrolled, where `Hasher`'s three calls into the runtime per id would dominate
/// rebuilding a table of short reader ids.
@frozen
package struct SipHash {
    /// Rounds a message word takes (`c`) and rounds at the end (`d`).
    @frozen
    package struct Rounds: Sendable, Equatable {
        package let compression: Int
        package let finalization: Int

        @inlinable
        package init(compression: Int, finalization: Int) {
            self.compression = compression
            self.finalization = finalization
        }

        // Computed and inlinable rather than stored, so that the rounds are constants where
        // the hash is inlined and its loops unroll.
        /// SipHash-2-4, the paper's recommendation.
        @inlinable package static var sip24: Rounds { Rounds(compression: 2, finalization: 4) }
        /// SipHash-1-3, `Hasher`'s.
        @inlinable package static var sip13: Rounds { Rounds(compression: 1, finalization: 3) }
    }

    @usableFromInline var v0: UInt64
    @usableFromInline var v1: UInt64
    @usableFromInline var v2: UInt64
    @usableFromInline var v3: UInt64
    /// Bytes not yet making a whole word, little-endian, and how many there are.
    @usableFromInline var tail: UInt64 = 0
    @usableFromInline var tailCount = 0
    @usableFromInline var length = 0
    @usableFromInline let rounds: Rounds
    @usableFromInline let wide: Bool

    /// A hash keyed by `k0` and `k1` (the key's two little-endian halves); `wide` for 128 bits.
    @inlinable
    package init(k0: UInt64, k1: UInt64, rounds: Rounds, wide: Bool = false) {
        v0 = k0 ^ 0x736F_6D65_7073_6575
        v1 = k1 ^ 0x646F_7261_6E64_6F6D
        v2 = k0 ^ 0x6C79_6765_6E65_7261
        v3 = k1 ^ 0x7465_6462_7974_6573
        if wide { v1 ^= 0xEE }
        self.rounds = rounds
        self.wide = wide
    }

    /// A 128-bit key as its two little-endian halves.
    @frozen
    package struct Key: Sendable {
        package let k0: UInt64
        package let k1: UInt64

        @inlinable
        package init(k0: UInt64, k1: UInt64) {
            self.k0 = k0
            self.k1 = k1
        }

        /// A key from the system's generator.
        package static func random() -> Key {
            var random = SystemRandomNumberGenerator()
            return Key(k0: random.next(), k1: random.next())
        }
    }

    /// SipHash-1-3-64 of `bytes` under `key`, at once: the index's hash of every reader id. Its
    /// rounds are constants here, in this module, so that they unroll whether or not the
    /// caller's module inlines it.
    package static func hash13(_ bytes: UnsafeBufferPointer<UInt8>, key: Key) -> UInt64 {
        hash(bytes, key: key, rounds: .sip13)
    }

    /// The 64-bit hash of `bytes` at once.
    @inlinable @inline(__always)
    package static func hash(_ bytes: UnsafeBufferPointer<UInt8>, key: Key, rounds: Rounds) -> UInt64 {
        // The words straight from the buffer, without the bookkeeping of a hash fed in pieces.
        var hash = SipHash(k0: key.k0, k1: key.k1, rounds: rounds)
        let raw = UnsafeRawBufferPointer(bytes)
        var offset = 0
        while raw.count - offset >= 8 {
            hash.compress(UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self)))
            offset += 8
        }
        var last = UInt64(truncatingIfNeeded: raw.count) &<< 56
        var shift: UInt64 = 0
        while offset < raw.count {
            last |= UInt64(raw[offset]) &<< shift
            shift += 8
            offset += 1
        }
        hash.finish(last: last)
        return hash.v0 ^ hash.v1 ^ hash.v2 ^ hash.v3
    }

    @inlinable @inline(__always)
    mutating func round() {
        v0 &+= v1
        v1 = v1.rotatedLeft(13) ^ v0
        v0 = v0.rotatedLeft(32)
        v2 &+= v3
        v3 = v3.rotatedLeft(16) ^ v2
        v0 &+= v3
        v3 = v3.rotatedLeft(21) ^ v0
        v2 &+= v1
        v1 = v1.rotatedLeft(17) ^ v2
        v2 = v2.rotatedLeft(32)
    }

    @inlinable @inline(__always)
    mutating func compress(_ word: UInt64) {
        v3 ^= word
        for _ in 0..<rounds.compression { round() }
        v0 ^= word
    }

    @inlinable @inline(__always)
    package mutating func append(_ bytes: UnsafeRawBufferPointer) {
        length &+= bytes.count
        var offset = 0
        if tailCount != 0 {
            while tailCount < 8 && offset < bytes.count {
                tail |= UInt64(bytes[offset]) &<< (8 &* UInt64(tailCount))
                tailCount += 1
                offset += 1
            }
            guard tailCount == 8 else { return }
            compress(tail)
            tail = 0
            tailCount = 0
        }
        while bytes.count - offset >= 8 {
            compress(UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self)))
            offset += 8
        }
        // The tail is empty here, and fewer than 8 bytes are left.
        var shift: UInt64 = 0
        while offset < bytes.count {
            tail |= UInt64(bytes[offset]) &<< shift
            shift += 8
            offset += 1
        }
        tailCount = Int(truncatingIfNeeded: shift &>> 3)
    }

    @inlinable
    package mutating func append(_ byte: UInt8) {
        withUnsafeBytes(of: byte) { append($0) }
    }

    /// `value` as four little-endian bytes: the length before each field of a derived id.
    @inlinable
    package mutating func append(_ value: UInt32) {
        withUnsafeBytes(of: value.littleEndian) { append($0) }
    }

    /// Compresses the last word — the length's low byte, then the bytes left — and ends.
    @inlinable @inline(__always)
    mutating func finish(last: UInt64) {
        compress(last)
        v2 ^= wide ? 0xEE : 0xFF
        for _ in 0..<rounds.finalization { round() }
    }

    /// The 64-bit hash (of a hash made with `wide: false`).
    @inlinable @inline(__always)
    package consuming func finalize64() -> UInt64 {
        precondition(!wide, "a 128-bit SipHash has two words")
        finish(last: UInt64(truncatingIfNeeded: length) &<< 56 | tail)
        return v0 ^ v1 ^ v2 ^ v3
    }

    /// The 128-bit hash as two words; its 16 bytes are `first`, then `second`, each little-endian.
    @inlinable
    package consuming func finalize128() -> (first: UInt64, second: UInt64) {
        precondition(wide, "a 64-bit SipHash has one word")
        finish(last: UInt64(truncatingIfNeeded: length) &<< 56 | tail)
        let first = v0 ^ v1 ^ v2 ^ v3
        v1 ^= 0xDD
        for _ in 0..<rounds.finalization { round() }
        return (first, v0 ^ v1 ^ v2 ^ v3)
    }
}

extension UInt64 {
    @inlinable @inline(__always)
    func rotatedLeft(_ bits: UInt64) -> UInt64 {
        self &<< bits | self &>> (64 &- bits)
    }
}
