import CMicroHTTPD

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One request sent to a daemon over a socket pair, for ``FramingProof``: no port is bound, and
/// nothing but the proof can reach the daemon.
enum ProbeConnection {
    /// What came back.
    enum Outcome: Equatable {
        /// An answer with this status.
        case answered(Int)
        /// The connection closed without an answer.
        case closed
        /// Nothing by the deadline.
        case silent
        /// The request could not be sent.
        case unsent
    }

    /// Hands one end of a socket pair to `daemon` (which closes it), writes `request` into the
    /// other and reads the answer's status.
    static func exchange(
        _ request: [UInt8], with daemon: OpaquePointer, until deadline: ContinuousClock.Instant
    ) -> Outcome {
        var ends: [Int32] = [-1, -1]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &ends) == 0
        else { return .unsent }
        let ours = ends[0]
        defer { close(ours) }
        // libmicrohttpd wants a peer address; the per-address limit counts the loopback one.
        var peer = sockaddr_in()
        peer.sin_family = sa_family_t(AF_INET)
        peer.sin_addr.s_addr = in_addr_t(0x7F00_0001).bigEndian
        let added = withUnsafePointer(to: &peer) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                MHD_add_connection(daemon, ends[1], $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        // libmicrohttpd closes the descriptor it was handed, also when it refuses it.
        guard added == .YES, writeAll(request, to: ours) else { return .unsent }
        return readAnswer(from: ours, until: deadline)
    }

    private static func writeAll(_ bytes: [UInt8], to descriptor: Int32) -> Bool {
        var sent = 0
        while sent < bytes.count {
            let count = bytes[sent...].withUnsafeBytes {
                send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
            }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return false }
            sent += count
        }
        return true
    }

    /// The status of the first answer, once its head and the body its `Content-Length` announces
    /// have arrived, or the daemon has closed the connection after a status line.
    private static func readAnswer(from descriptor: Int32, until deadline: ContinuousClock.Instant) -> Outcome
    {
        var received: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4_096)
        while true {
            if let status = completeAnswer(received) { return .answered(status) }
            let left = ContinuousClock.now.duration(to: deadline)
            guard left > .zero else { return .silent }
            var ready = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            let milliseconds = Int32(
                clamping: left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000
                    + 1)
            let polled = poll(&ready, 1, milliseconds)
            if polled < 0 && errno == EINTR { continue }
            guard polled > 0 else { return .silent }
            let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return statusLine(received).map { .answered($0) } ?? .closed }
            received += chunk[..<count]
        }
    }

    private static func completeAnswer(_ bytes: [UInt8]) -> Int? {
        guard let headEnd = bytes.firstRange(of: Array("\r\n\r\n".utf8)) else { return nil }
        let head = String(decoding: bytes[..<headEnd.lowerBound], as: UTF8.self).lowercased()
        var length = 0
        for line in head.split(separator: "\r\n") where line.hasPrefix("content-length:") {
            length = Int(line.dropFirst("content-length:".count).trimmingPrefix(" ")) ?? 0
        }
        guard bytes.count - headEnd.upperBound >= length else { return nil }
        return statusLine(bytes)
    }

    /// The status of `HTTP/1.1 NNN …` at the start of `bytes`.
    private static func statusLine(_ bytes: [UInt8]) -> Int? {
        guard bytes.count >= 12, bytes.starts(with: Array("HTTP/1.".utf8)) else { return nil }
        return Int(String(decoding: bytes[9..<12], as: UTF8.self))
    }
}
