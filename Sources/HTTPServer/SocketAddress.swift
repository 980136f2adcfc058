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

    /// The address as one client's: IPv4 whole, IPv6 as its /64 network (`"2001:db8:1:2::/64"`),
    /// the block a single subscriber is given, so that one client cannot pass for many by
    /// changing the last 64 bits; an IPv4 address mapped into IPv6 as the IPv4 address.
    var network: String {
        guard case .ipv6(var host) = self else { return text }
        let mapped: in_addr_t? = withUnsafeBytes(of: &host) { bytes in
            guard bytes[0..<10].allSatisfy({ $0 == 0 }), bytes[10] == 0xFF, bytes[11] == 0xFF else {
                return nil
            }
            return bytes.loadUnaligned(fromByteOffset: 12, as: in_addr_t.self)
        }
        if let mapped {
            var ipv4 = in_addr(s_addr: mapped)
            return Self.format(AF_INET, &ipv4)
        }
        withUnsafeMutableBytes(of: &host) { bytes in
            for index in 8..<16 { bytes[index] = 0 }
        }
        return Self.format(AF_INET6, &host) + "/64"
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
