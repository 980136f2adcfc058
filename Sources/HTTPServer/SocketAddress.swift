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

    private static func format(_ family: Int32, _ host: UnsafeRawPointer) -> String {
        let capacity = Int(INET6_ADDRSTRLEN)
        return withUnsafeTemporaryAllocation(of: CChar.self, capacity: capacity) { buffer in
            guard let text = inet_ntop(family, host, buffer.baseAddress, socklen_t(capacity)) else {
                return ""
            }
            return String(cString: text)
        }
    }
}
