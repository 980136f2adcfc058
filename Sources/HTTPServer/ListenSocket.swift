#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A bound, listening TCP socket, handed to libmicrohttpd with `MHD_OPTION_LISTEN_SOCKET`.
///
/// Binding here rather than inside libmicrohttpd turns a failed bind into an error that names
/// the address and the system's reason ("Address already in use"), resolves names such as
/// `localhost`, and tells us the port picked for port 0.
struct ListenSocket {
    let descriptor: Int32
    let port: UInt16

    init(host: String, port: UInt16) throws {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &list)
        guard status == 0, let list else {
            throw HTTPServerError(
                "cannot resolve listen address \(host): \(String(cString: gai_strerror(status)))")
        }
        defer { freeaddrinfo(list) }

        // Names such as `localhost` resolve to both families; IPv4 first keeps the printed
        // address the one most clients will try first.
        var candidates: [UnsafeMutablePointer<addrinfo>] = []
        var next: UnsafeMutablePointer<addrinfo>? = list
        while let info = next {
            candidates.append(info)
            next = info.pointee.ai_next
        }
        candidates.sort { $0.pointee.ai_family == AF_INET && $1.pointee.ai_family != AF_INET }

        var lastError: Int32 = EADDRNOTAVAIL
        for info in candidates {
            if let socket = Self.makeListening(on: info.pointee, error: &lastError) {
                self = socket
                return
            }
        }
        throw HTTPServerError(
            "cannot listen on \(host):\(port): \(String(cString: strerror(lastError)))")
    }

    private init(descriptor: Int32, port: UInt16) {
        self.descriptor = descriptor
        self.port = port
    }

    private static func makeListening(on info: addrinfo, error: inout Int32) -> ListenSocket? {
        let fd = socket(info.ai_family, info.ai_socktype | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else {
            error = errno
            return nil
        }
        var on: Int32 = 1
        _ = setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &on, socklen_t(MemoryLayout<Int32>.size))
        if info.ai_family == AF_INET6 {
            _ = setsockopt(fd, Int32(IPPROTO_IPV6), IPV6_V6ONLY, &on, socklen_t(MemoryLayout<Int32>.size))
        }
        // libmicrohttpd's pool threads all accept on this socket; only one wins each connection.
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        guard bind(fd, info.ai_addr, info.ai_addrlen) == 0, listen(fd, SOMAXCONN) == 0 else {
            error = errno
            close(fd)
            return nil
        }
        var address = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        guard named == 0 else {
            error = errno
            close(fd)
            return nil
        }
        return ListenSocket(descriptor: fd, port: boundPort(of: address))
    }
}

/// The port of an IPv4 or IPv6 socket address, in host byte order.
private func boundPort(of address: sockaddr_storage) -> UInt16 {
    let family = Int32(address.ss_family)
    return withUnsafePointer(to: address) { pointer in
        switch family {
        case AF_INET:
            return pointer.withMemoryRebound(to: sockaddr_in.self, capacity: 1) {
                UInt16(bigEndian: $0.pointee.sin_port)
            }
        case AF_INET6:
            return pointer.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) {
                UInt16(bigEndian: $0.pointee.sin6_port)
            }
        default:
            return 0
        }
    }
}
