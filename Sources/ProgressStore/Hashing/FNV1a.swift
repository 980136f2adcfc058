/// FNV-1a, 64 bits: a fast checksum of bytes that nobody chooses to collide (entity tags of
/// the service's own files, listing cursors it signs with a fixed salt). Not for ids clients
/// choose: see ``SipHash``.
package enum FNV1a {
    /// The hash of `bytes`.
    package static func hash(_ bytes: some Sequence<UInt8>) -> UInt64 {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01B3 }
        return hash
    }

    /// The hash of `bytes` as 16 lowercase hexadecimal digits.
    package static func hex(_ bytes: some Sequence<UInt8>) -> String {
        let hex = String(hash(bytes), radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }
}
