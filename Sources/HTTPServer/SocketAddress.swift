#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A peer's IP address as received: the bytes are copied per request (a few stores), and only
/// turned into text when someone asks, since formatting goes through `inet_ntop` and `sprintf`.
enum PeerAddress: Sendable {
    case none
    /// An IPv4 address, in network byte order.
    case ipv4(in_addr_t)
    /// An IPv6 address.
    case ipv6(in6_addr)
    /// Text given by whoever built the request.
    case text(String)

    init(_ address: UnsafePointer<sockaddr>?) {
        guard let address else {
            self = .none
            return
        }
        switch Int32(address.pointee.sa_family) {
        case AF_INET:
            self = address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) {
                .ipv4($0.pointee.sin_addr.s_addr)
            }
        case AF_INET6:
            self = address.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) {
                .ipv6($0.pointee.sin6_addr)
            }
        default:
            self = .none
        }
    }

    /// The numeric host (`"127.0.0.1"`, `"::1"`), or `""`.
    var text: String {
        switch self {
        case .none: return ""
        case .text(let text): return text
        case .ipv4(let bits):
            var host = in_addr(s_addr: bits)
            return Self.format(AF_INET, &host)
        case .ipv6(let host):
            var host = host
            return Self.format(AF_INET6, &host)
        }
    }

    /// The address as the 16 bytes of IPv6, as two big-endian halves, an IPv4 address mapped
    /// into `::ffff:0:0/96`; `nil` when there is none (or the text is no address).
    var words: (high: UInt64, low: UInt64)? {
        switch self {
        case .none: return nil
        case .ipv4(let bits): return (0, 0xFFFF_0000_0000 | UInt64(UInt32(bigEndian: bits)))
        case .ipv6(var host):
            return withUnsafeBytes(of: &host) { bytes in
                (
                    UInt64(bigEndian: bytes.loadUnaligned(as: UInt64.self)),
                    UInt64(bigEndian: bytes.loadUnaligned(fromByteOffset: 8, as: UInt64.self))
                )
            }
        case .text(let text):
            var ipv4 = in_addr()
            if inet_pton(AF_INET, text, &ipv4) == 1 { return PeerAddress.ipv4(ipv4.s_addr).words }
            var ipv6 = in6_addr()
            if inet_pton(AF_INET6, text, &ipv6) == 1 { return PeerAddress.ipv6(ipv6).words }
            return nil
        }
    }

    /// The client this address stands for, made from its bytes without formatting them.
    var client: ClientNetwork {
        switch self {
        case .none: return .text("")
        case .text(let text): return .text(text)
        case .ipv4(let bits): return .ipv4(bits)
        case .ipv6(var host):
            return withUnsafeBytes(of: &host) { bytes in
                if bytes[0..<10].allSatisfy({ $0 == 0 }), bytes[10] == 0xFF, bytes[11] == 0xFF {
                    return .ipv4(bytes.loadUnaligned(fromByteOffset: 12, as: in_addr_t.self))
                }
                return .ipv6(prefix: bytes.loadUnaligned(as: UInt64.self))
            }
        }
    }

    fileprivate static func format(_ family: Int32, _ host: UnsafeRawPointer) -> String {
        let capacity = Int(INET6_ADDRSTRLEN)
        return withUnsafeTemporaryAllocation(of: CChar.self, capacity: capacity) { buffer in
            guard let text = inet_ntop(family, host, buffer.baseAddress, socklen_t(capacity)) else {
                return ""
            }
            return String(cString: text)
        }
    }
}

/// The client a request comes from, as a per-client limit counts it: an IPv4 address whole, an
/// IPv6 address by its /64 network — the block one subscriber is given, so that changing the
/// last 64 bits makes no new client — and an IPv4 address mapped into IPv6 as that IPv4 address.
/// Hashing one costs no formatting; `description` is its text (`"2001:db8:1:2::/64"`).
public enum ClientNetwork: Hashable, Sendable, CustomStringConvertible {
    /// In network byte order (an `in_addr_t`).
    case ipv4(UInt32)
    /// The first 8 bytes of the address, as they lie in memory.
    case ipv6(prefix: UInt64)
    /// A request built by hand with `remoteAddress` text (empty for none), taken as it is.
    case text(String)

    public var description: String {
        switch self {
        case .ipv4(let bits):
            var host = in_addr(s_addr: bits)
            return PeerAddress.format(AF_INET, &host)
        case .ipv6(let prefix):
            var host = in6_addr()
            withUnsafeMutableBytes(of: &host) { $0.storeBytes(of: prefix, as: UInt64.self) }
            return PeerAddress.format(AF_INET6, &host) + "/64"
        case .text(let text):
            return text
        }
    }
}
