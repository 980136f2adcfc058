import HTTPServer

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// An IP address as the 16 bytes of IPv6 in two big-endian halves, an IPv4 address mapped into
/// `::ffff:0:0/96`, so that one comparison serves both families and an IPv4 peer reached over a
/// dual-stack socket is the same client as over IPv4.
struct IPAddress: Sendable, Hashable {
    var high: UInt64
    var low: UInt64

    init(high: UInt64, low: UInt64) {
        self.high = high
        self.low = low
    }

    init(_ words: (high: UInt64, low: UInt64)) {
        self.init(high: words.high, low: words.low)
    }

    /// A numeric IPv4 or IPv6 address (`192.0.2.7`, `2001:db8::1`, `::ffff:192.0.2.7`); `nil`
    /// for anything else, names and zone ids (`fe80::1%eth0`) included.
    init?<Text: StringProtocol>(_ text: Text) {
        let string = String(text)
        var ipv4 = in_addr()
        if inet_pton(AF_INET, string, &ipv4) == 1 {
            self.init(high: 0, low: 0xFFFF_0000_0000 | UInt64(UInt32(bigEndian: ipv4.s_addr)))
            return
        }
        var ipv6 = in6_addr()
        guard inet_pton(AF_INET6, string, &ipv6) == 1 else { return nil }
        let words = withUnsafeBytes(of: &ipv6) { bytes in
            (
                UInt64(bigEndian: bytes.loadUnaligned(as: UInt64.self)),
                UInt64(bigEndian: bytes.loadUnaligned(fromByteOffset: 8, as: UInt64.self))
            )
        }
        self.init(high: words.0, low: words.1)
    }

    /// Whether this is an IPv4 address (mapped into IPv6).
    var isIPv4: Bool { high == 0 && low >> 32 == 0xFFFF }

    /// The client a per-client limit counts this address as: an IPv4 address whole, an IPv6
    /// address by its /64 (as ``ClientNetwork`` makes one of a peer).
    var network: ClientNetwork {
        if isIPv4 { return .ipv4(UInt32(truncatingIfNeeded: low).bigEndian) }
        return .ipv6(prefix: high.bigEndian)
    }

    /// Hands `body` the address's bytes in network order: 4 for IPv4, 16 for IPv6.
    func withBytes<Result>(_ body: (UnsafeRawBufferPointer) -> Result) -> Result {
        var words = (high.bigEndian, low.bigEndian)
        return withUnsafeBytes(of: &words) { bytes in
            body(isIPv4 ? UnsafeRawBufferPointer(rebasing: bytes[12..<16]) : bytes)
        }
    }

    /// The first `bits` bits (of the IPv6 form), the others zero.
    func masked(to bits: Int) -> IPAddress {
        func mask(_ bits: Int) -> UInt64 { bits <= 0 ? 0 : bits >= 64 ? ~0 : ~0 << (64 - UInt64(bits)) }
        return IPAddress(high: high & mask(bits), low: low & mask(bits - 64))
    }
}

/// An address block: an address and how many of its leading bits a match must share.
struct AddressBlock: Sendable, Hashable {
    /// The block's first address.
    let base: IPAddress
    /// Leading bits of the IPv6 form (an IPv4 block of /n is /96+n here).
    let bits: Int

    /// `192.0.2.0/24`, `2001:db8::/32`, or a plain address (a block of one); `nil` for anything
    /// else. Bits past the prefix are ignored: `10.1.2.3/8` is `10.0.0.0/8`.
    init?(_ text: Substring) {
        let parts = text.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
        guard let address = IPAddress(parts[0]) else { return nil }
        let width = address.isIPv4 ? 32 : 128
        var prefix = width
        if parts.count == 2 {
            guard parts[1].allSatisfy(\.isASCII), parts[1].allSatisfy(\.isNumber), parts[1].count <= 3,
                let given = Int(parts[1]), given <= width
            else { return nil }
            prefix = given
        }
        bits = prefix + (128 - width)
        base = address.masked(to: bits)
    }

    func contains(_ address: IPAddress) -> Bool {
        address.masked(to: bits) == base
    }
}

/// The proxies whose `X-Forwarded-For` the service believes (`--trusted-proxies`, docs/privacy.md).
public struct TrustedProxies: Sendable {
    let blocks: [AddressBlock]

    /// None: the peer is always the client.
    public static let none = TrustedProxies(blocks: [])

    init(blocks: [AddressBlock]) {
        self.blocks = blocks
    }

    /// A refused entry of the list.
    public struct Invalid: Error, Sendable {
        public let entry: String
    }

    /// A comma-separated list of IPv4 and IPv6 blocks (`10.0.0.0/8`) and plain addresses; empty
    /// entries and spaces around entries are ignored.
    public init(parsing list: String) throws(Invalid) {
        var blocks: [AddressBlock] = []
        for entry in list.split(separator: ",") {
            let trimmed = entry.trimmingSpaces
            guard !trimmed.isEmpty else { continue }
            guard let block = AddressBlock(trimmed) else { throw Invalid(entry: String(trimmed)) }
            blocks.append(block)
        }
        self.init(blocks: blocks)
    }

    var isEmpty: Bool { blocks.isEmpty }

    func contains(_ address: IPAddress) -> Bool {
        blocks.contains { $0.contains(address) }
    }
}
