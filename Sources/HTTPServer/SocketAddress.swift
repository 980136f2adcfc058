#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A peer's address as received: copied per request as an ``IPAddress``, and only turned into
/// text when someone asks, since formatting goes through `inet_ntop` and `sprintf`.
enum PeerAddress: Sendable {
    case none
    case address(IPAddress)
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
                .address(IPAddress(ipv4: $0.pointee.sin_addr.s_addr))
            }
        case AF_INET6:
            self = address.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) {
                .address(IPAddress(ipv6: $0.pointee.sin6_addr))
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
        case .address(let address): return address.text
        }
    }

    /// The address; `nil` when there is none (or the text is no address).
    var address: IPAddress? {
        switch self {
        case .none: return nil
        case .address(let address): return address
        case .text(let text): return IPAddress(text)
        }
    }

    /// The client this address stands for, made from its bytes without formatting them.
    var client: ClientNetwork {
        switch self {
        case .none: return .text("")
        case .text(let text): return .text(text)
        case .address(let address): return address.network
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
            return formatAddress(AF_INET, &host)
        case .ipv6(let prefix):
            var host = in6_addr()
            withUnsafeMutableBytes(of: &host) { $0.storeBytes(of: prefix, as: UInt64.self) }
            return formatAddress(AF_INET6, &host) + "/64"
        case .text(let text):
            return text
        }
    }
}
