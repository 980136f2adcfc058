#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A response as read off the wire by ``RawConnection``.
struct WireResponse {
    var status: Int
    var headers: [(name: String, value: String)]
    var body: [UInt8]

    func header(_ name: String) -> String? {
        headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }

    var text: String { String(decoding: body, as: UTF8.self) }
}

struct ConnectionError: Error, CustomStringConvertible {
    let description: String
}

/// A blocking TCP client that writes exactly the bytes a test gives it, so tests control
/// framing (partial requests, chunking, `Expect`) in a way an HTTP client library would not.
final class RawConnection {
    private let fd: Int32
    private var buffer: [UInt8] = []

    init(port: UInt16, receiveTimeoutSeconds: Int = 5) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw ConnectionError(description: "socket: \(errno)") }
        var timeout = timeval(tv_sec: receiveTimeoutSeconds, tv_usec: 0)
        _ = setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else {
            let error = errno
            close(fd)
            throw ConnectionError(description: "connect: \(String(cString: strerror(error)))")
        }
    }

    deinit {
        close(fd)
    }

    func send(_ text: String) throws {
        try send(Array(text.utf8))
    }

    func send(_ bytes: [UInt8]) throws {
        var sent = 0
        while sent < bytes.count {
            let n = bytes[sent...].withUnsafeBytes {
                Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
            }
            guard n > 0 else {
                throw ConnectionError(description: "send: \(String(cString: strerror(errno)))")
            }
            sent += n
        }
    }

    /// Reads one response (an interim `100 Continue` counts as one), framed by Content-Length.
    func readResponse() throws -> WireResponse {
        try readResponse(expectingBody: true)
    }

    private func readResponse(expectingBody: Bool) throws -> WireResponse {
        let headerEnd = try fill { Self.find([13, 10, 13, 10], in: $0) }
        let head = String(decoding: buffer[..<headerEnd], as: UTF8.self)
        buffer.removeFirst(headerEnd + 4)
        var lines = head.split(separator: "\r\n", omittingEmptySubsequences: false).map(String.init)
        let statusLine = lines.removeFirst().split(separator: " ")
        guard statusLine.count >= 2, let status = Int(statusLine[1]) else {
            throw ConnectionError(description: "bad status line in \(head)")
        }
        let headers = lines.compactMap { line -> (name: String, value: String)? in
            guard let colon = line.firstIndex(of: ":") else { return nil }
            let value = line[line.index(after: colon)...].trimmingPrefix(" ")
            return (name: String(line[..<colon]), value: String(value))
        }
        var response = WireResponse(status: status, headers: headers, body: [])
        let length = expectingBody ? response.header("Content-Length").flatMap { Int($0) } ?? 0 : 0
        _ = try fill { $0.count >= length ? length : nil }
        response.body = Array(buffer[..<length])
        buffer.removeFirst(length)
        return response
    }

    /// Reads the status line and header fields of an answer that has no body (to HEAD).
    func readHeadOnly() throws -> WireResponse {
        var response = try readResponse(expectingBody: false)
        response.body = []
        return response
    }

    /// Whether the server closes the connection (end of file or reset) within the receive timeout.
    func isClosedByPeer() -> Bool {
        var byte: UInt8 = 0
        let n = recv(fd, &byte, 1, 0)
        return n == 0 || (n < 0 && errno == ECONNRESET)
    }

    /// Whether the server closes the connection within the receive timeout, whatever it sends
    /// before (libmicrohttpd's own refusals can send more than their Content-Length says).
    func isClosedAfterReadingAll() -> Bool {
        var chunk = [UInt8](repeating: 0, count: 4_096)
        while true {
            let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n == 0 { return true }
            if n < 0 { return errno == ECONNRESET }
        }
    }

    private func fill(until done: ([UInt8]) -> Int?) throws -> Int {
        while true {
            if let result = done(buffer) { return result }
            var chunk = [UInt8](repeating: 0, count: 65_536)
            let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            guard n > 0 else {
                throw ConnectionError(description: n == 0 ? "closed by server" : "recv: \(errno)")
            }
            buffer.append(contentsOf: chunk[..<n])
        }
    }

    private static func find(_ needle: [UInt8], in haystack: [UInt8]) -> Int? {
        guard haystack.count >= needle.count else { return nil }
        for start in 0...(haystack.count - needle.count)
        where haystack[start..<start + needle.count].elementsEqual(needle) {
            return start
        }
        return nil
    }
}
