#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The numeric host of an IPv4 or IPv6 socket address (`"127.0.0.1"`, `"::1"`), or `""`.
func describe(_ address: UnsafePointer<sockaddr>?) -> String {
    guard let address else { return "" }
    let capacity = Int(INET6_ADDRSTRLEN)
    return withUnsafeTemporaryAllocation(of: CChar.self, capacity: capacity) { buffer in
        let text: UnsafePointer<CChar>?
        switch Int32(address.pointee.sa_family) {
        case AF_INET:
            text = address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) {
                var host = $0.pointee.sin_addr
                return inet_ntop(AF_INET, &host, buffer.baseAddress, socklen_t(capacity))
            }
        case AF_INET6:
            text = address.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) {
                var host = $0.pointee.sin6_addr
                return inet_ntop(AF_INET6, &host, buffer.baseAddress, socklen_t(capacity))
            }
        default:
            text = nil
        }
        return text.map { String(cString: $0) } ?? ""
    }
}
