import HTTPServer

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
