import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A deliberately small HTTP/1.1 client over a raw TCP socket, so that tests control every
/// byte: percent-encoded paths stay as written, and half-sent or hostile requests are possible.
public struct HTTPClient: Sendable {
    public let port: UInt16

    public init(port: UInt16) { self.port = port }

    /// A response as read off the wire.
    public struct Response: Sendable {
        public var status: Int
        public var headers: [(name: String, value: String)]
        public var body: [UInt8]

        public func header(_ name: String) -> String? {
            headers.first { $0.name.lowercased() == name.lowercased() }?.value
        }

        public var text: String { String(decoding: body, as: UTF8.self) }

        /// The body as a JSON object (Foundation is fine here: it only reads our answers).
        public var json: [String: Any] {
            get throws {
                guard let object = try JSONSerialization.jsonObject(with: Data(body)) as? [String: Any] else {
                    throw TestFailure("not a JSON object: \(text)")
                }
                return object
            }
        }
    }

    public func get(_ target: String, headers: [(String, String)] = []) throws -> Response {
        try send(method: "GET", target: target, headers: headers, body: [])
    }

    public func post(
        _ target: String, json: String, contentType: String = "application/json",
        headers: [(String, String)] = []
    ) throws -> Response {
        try send(
            method: "POST", target: target, headers: [("Content-Type", contentType)] + headers,
            body: Array(json.utf8))
    }

    public func send(method: String, target: String, headers: [(String, String)] = [], body: [UInt8]) throws
        -> Response
    {
        let connection = try Connection(port: port)
        return try connection.exchange(method: method, target: target, headers: headers, body: body)
    }
}

/// The name the HTTP server's tests give a response.
public typealias WireResponse = HTTPClient.Response
/// The name the HTTP server's tests give a failure to connect, send or read.
public typealias ConnectionError = TestFailure
/// One keep-alive TCP connection.
public class Connection: @unchecked Sendable {
    /// The socket, for a test that needs a call of its own on it; closed when the connection goes.
    public let fd: Int32
    private var buffer: [UInt8] = []

    /// Connects to the server on 127.0.0.1. With `sourceAddress` the socket is bound to that
    /// local address first (on Linux all of 127/8 is loopback), so that the server sees the
    /// connection come from another client address.
    ///
    /// The descriptor is stored only once connected: a class whose init throws after setting all
    /// its properties is deinitialized, and closing the descriptor there as well would close
    /// whatever descriptor another test opened under the same number in the meantime (the
    /// lowest free number, so very likely the one just closed).
    public init(port: UInt16, sourceAddress: String? = nil, receiveTimeoutSeconds: Int = 30) throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw TestFailure("socket() failed: errno \(errno)") }
        var timeout = timeval(tv_sec: receiveTimeoutSeconds, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        if let sourceAddress {
            var local = sockaddr_in()
            local.sin_family = sa_family_t(AF_INET)
            local.sin_addr.s_addr = inet_addr(sourceAddress)
            let bound = withUnsafePointer(to: &local) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
            guard bound == 0 else {
                let error = errno
                close(fd)
                throw TestFailure("bind(\(sourceAddress)) failed: errno \(error)")
            }
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard result == 0 else {
            let error = errno
            close(fd)
            throw TestFailure("connect() failed: \(String(cString: strerror(error))) (errno \(error))")
        }
        self.fd = fd
    }

    deinit { close(fd) }

    public func write(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes {
                Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
            }
            guard sent > 0 else { throw TestFailure("send() failed: errno \(errno)") }
            offset += sent
        }
    }

    public func write(_ text: String) throws { try write(Array(text.utf8)) }

    public func send(_ bytes: [UInt8]) throws { try write(bytes) }

    public func send(_ text: String) throws { try write(Array(text.utf8)) }

    public func exchange(method: String, target: String, headers: [(String, String)], body: [UInt8]) throws
        -> HTTPClient.Response
    {
        var head = "\(method) \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        if !body.isEmpty || method == "POST" { head += "Content-Length: \(body.count)\r\n" }
        head += "\r\n"
        try write(Array(head.utf8) + body)
        return try readResponse(isHead: method == "HEAD")
    }

    /// Reads one final response, framed by Content-Length; throws when the peer closes first.
    public func readResponse(isHead: Bool = false) throws -> HTTPClient.Response {
        while true {
            let response = try readAnyResponse(expectingBody: !isHead)
            if response.status != 100 { return response }
        }
    }

    func readAnyResponse(expectingBody: Bool) throws -> HTTPClient.Response {
        let end = try fill { Self.headerEnd(in: $0) }
        let head = String(decoding: buffer[..<end], as: UTF8.self)
        buffer.removeFirst(end + 4)
        var lines = head.components(separatedBy: "\r\n")
        let statusLine = lines.removeFirst()
        let parts = statusLine.split(separator: " ")
        guard parts.count >= 2, let status = Int(parts[1]) else {
            throw TestFailure("bad status line \(statusLine)")
        }
        let headers = lines.compactMap { line -> (name: String, value: String)? in
            guard let colon = line.firstIndex(of: ":") else { return nil }
            return (
                String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            )
        }
        let framed = expectingBody && status != 204 && status != 100
        let length =
            framed ? Int(headers.first { $0.name.lowercased() == "content-length" }?.value ?? "0") ?? 0 : 0
        _ = try fill { $0.count >= length ? length : nil }
        let body = Array(buffer[..<length])
        buffer.removeFirst(length)
        return HTTPClient.Response(status: status, headers: headers, body: body)
    }

    /// Whether the server has closed the connection (reads EOF within `seconds`), whatever it
    /// sends before.
    public func isClosedByPeer(within seconds: Int) -> Bool {
        var timeout = timeval(tv_sec: seconds, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        return isClosedAfterReadingAll()
    }

    /// Whether the server closes the connection within the receive timeout, whatever it sends
    /// before (libmicrohttpd's own refusals can send more than their Content-Length says).
    public func isClosedAfterReadingAll() -> Bool {
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = recv(fd, &chunk, chunk.count, 0)
            if count == 0 { return true }
            if count < 0 { return errno == ECONNRESET }
        }
    }

    /// Whether the next read, within the receive timeout, finds the end of the connection (end of
    /// file or reset) rather than a byte or nothing.
    public func isClosedByPeer() -> Bool {
        var byte: UInt8 = 0
        let count = recv(fd, &byte, 1, 0)
        return count == 0 || (count < 0 && errno == ECONNRESET)
    }

    /// Reads until `done` says how far the buffer answers, and returns that.
    private func fill(until done: ([UInt8]) -> Int?) throws -> Int {
        while true {
            if let result = done(buffer) { return result }
            var chunk = [UInt8](repeating: 0, count: 65536)
            let count = recv(fd, &chunk, chunk.count, 0)
            guard count > 0 else {
                throw TestFailure(
                    count == 0 ? "closed by server" : "recv() failed or timed out: errno \(errno)")
            }
            buffer.append(contentsOf: chunk[..<count])
        }
    }

    private static func headerEnd(in buffer: [UInt8]) -> Int? {
        guard buffer.count >= 4 else { return nil }
        for i in 0...(buffer.count - 4)
        where buffer[i] == 13 && buffer[i + 1] == 10 && buffer[i + 2] == 13 && buffer[i + 3] == 10 {
            return i
        }
        return nil
    }
}

/// A connection as the HTTP server's tests use it: a 5 s receive timeout, and an interim
/// `100 Continue` read as a response of its own.
public final class RawConnection: Connection, @unchecked Sendable {
    public init(port: UInt16, receiveTimeoutSeconds: Int = 5) throws {
        try super.init(port: port, sourceAddress: nil, receiveTimeoutSeconds: receiveTimeoutSeconds)
    }

    /// Reads one response, an interim `100 Continue` included, framed by Content-Length.
    public func readResponse() throws -> HTTPClient.Response {
        try readAnyResponse(expectingBody: true)
    }

    /// Reads the status line and header fields of an answer that has no body (to HEAD).
    public func readHeadOnly() throws -> HTTPClient.Response {
        try readAnyResponse(expectingBody: false)
    }
}
