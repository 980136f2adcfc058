#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// An IP address as the 16 bytes of IPv6 in two big-endian halves, an IPv4 address mapped into
/// `::ffff:0:0/96`, so that one comparison serves both families and an IPv4 peer reached over a
/// dual-stack socket is the same client as over IPv4. Made from a peer's socket address without
/// formatting it, or from text (`X-Forwarded-For`, `--trusted-proxies`); never written anywhere.
public struct IPAddress: Sendable, Hashable {
    public var high: UInt64
    public var low: UInt64

    public init(high: UInt64, low: UInt64) {
        self.high = high
        self.low = low
    }

    /// An IPv4 address in network byte order (an `in_addr_t`).
    init(ipv4 bits: in_addr_t) {
        self.init(high: 0, low: 0xFFFF_0000_0000 | UInt64(UInt32(bigEndian: bits)))
    }

    init(ipv6 address: in6_addr) {
        var address = address
        let words = withUnsafeBytes(of: &address) { bytes in
            (
                UInt64(bigEndian: bytes.loadUnaligned(as: UInt64.self)),
                UInt64(bigEndian: bytes.loadUnaligned(fromByteOffset: 8, as: UInt64.self))
            )
        }
        self.init(high: words.0, low: words.1)
    }

    /// A numeric IPv4 or IPv6 address (`192.0.2.7`, `2001:db8::1`, `::ffff:192.0.2.7`); `nil`
    /// for anything else, names and zone ids (`fe80::1%eth0`) included.
    public init?<Text: StringProtocol>(_ text: Text) {
        let string = String(text)
        var ipv4 = in_addr()
        if inet_pton(AF_INET, string, &ipv4) == 1 {
            self.init(ipv4: ipv4.s_addr)
            return
        }
        var ipv6 = in6_addr()
        guard inet_pton(AF_INET6, string, &ipv6) == 1 else { return nil }
        self.init(ipv6: ipv6)
    }

    /// Whether this is an IPv4 address (mapped into IPv6).
    public var isIPv4: Bool { high == 0 && low >> 32 == 0xFFFF }

    /// The client a per-client limit counts this address as (see ``ClientNetwork``).
    public var network: ClientNetwork {
        if isIPv4 { return .ipv4(UInt32(truncatingIfNeeded: low).bigEndian) }
        return .ipv6(prefix: high.bigEndian)
    }

    /// Hands `body` the address's bytes in network order: 4 for IPv4, 16 for IPv6.
    public func withBytes<Result>(_ body: (UnsafeRawBufferPointer) -> Result) -> Result {
        var words = (high.bigEndian, low.bigEndian)
        return withUnsafeBytes(of: &words) { bytes in
            body(isIPv4 ? UnsafeRawBufferPointer(rebasing: bytes[12..<16]) : bytes)
        }
    }

    /// The first `bits` bits (of the IPv6 form), the others zero.
    public func masked(to bits: Int) -> IPAddress {
        func mask(_ bits: Int) -> UInt64 { bits <= 0 ? 0 : bits >= 64 ? ~0 : ~0 << (64 - UInt64(bits)) }
        return IPAddress(high: high & mask(bits), low: low & mask(bits - 64))
    }

    /// The numeric host (`"192.0.2.7"`, `"2001:db8::1"`): an IPv4 address as IPv4.
    var text: String {
        if isIPv4 {
            var host = in_addr(s_addr: UInt32(truncatingIfNeeded: low).bigEndian)
            return formatAddress(AF_INET, &host)
        }
        var words = (high.bigEndian, low.bigEndian)
        return formatAddress(AF_INET6, &words)
    }
}

/// `inet_ntop` of the address at `host`, or `""`.
func formatAddress(_ family: Int32, _ host: UnsafeRawPointer) -> String {
    let capacity = Int(INET6_ADDRSTRLEN)
    return withUnsafeTemporaryAllocation(of: CChar.self, capacity: capacity) { buffer in
        guard let text = inet_ntop(family, host, buffer.baseAddress, socklen_t(capacity)) else { return "" }
        return String(cString: text)
    }
}
