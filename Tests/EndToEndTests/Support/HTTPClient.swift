import Foundation

/// A deliberately small HTTP/1.1 client over a raw TCP socket, so that tests control every
/// byte: percent-encoded paths stay as written, and half-sent or hostile requests are possible.
struct HTTPClient: Sendable {
    let port: UInt16

    struct Response: Sendable {
        var status: Int
        var headers: [(name: String, value: String)]
        var body: [UInt8]

        func header(_ name: String) -> String? {
            headers.first { $0.name.lowercased() == name.lowercased() }?.value
        }

        var text: String { String(decoding: body, as: UTF8.self) }

        /// The body as a JSON object (Foundation is fine here: it only reads our answers).
        var json: [String: Any] {
            get throws {
                guard let object = try JSONSerialization.jsonObject(with: Data(body)) as? [String: Any] else {
                    throw TestFailure("not a JSON object: \(text)")
                }
                return object
            }
        }
    }

    func get(_ target: String, headers: [(String, String)] = []) throws -> Response {
        try send(method: "GET", target: target, headers: headers, body: [])
    }

    func post(
        _ target: String, json: String, contentType: String = "application/json",
        headers: [(String, String)] = []
    ) throws -> Response {
        try send(
            method: "POST", target: target, headers: [("Content-Type", contentType)] + headers,
            body: Array(json.utf8))
    }

    func send(method: String, target: String, headers: [(String, String)] = [], body: [UInt8]) throws
        -> Response
    {
        let connection = try Connection(port: port)
        return try connection.exchange(method: method, target: target, headers: headers, body: body)
    }
}

/// One keep-alive TCP connection.
final class Connection: @unchecked Sendable {
    let fd: Int32

    /// Connects to the server on 127.0.0.1. With `sourceAddress` the socket is bound to that
    /// local address first (on Linux all of 127/8 is loopback), so that the server sees the
    /// connection come from another client address.
    ///
    /// The descriptor is stored only once connected: a class whose init throws after setting all
    /// its properties is deinitialized, and closing the descriptor there as well would close
    /// whatever socket another test opened under the same number in the meantime.
    init(port: UInt16, sourceAddress: String? = nil, receiveTimeoutSeconds: Int = 30) throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw TestFailure("socket() failed") }
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
            throw TestFailure("connect() failed: errno \(error)")
        }
        self.fd = fd
    }

    deinit { close(fd) }

    func write(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes {
                Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
            }
            guard sent > 0 else { throw TestFailure("send() failed: errno \(errno)") }
            offset += sent
        }
    }

    func write(_ text: String) throws { try write(Array(text.utf8)) }

    func exchange(method: String, target: String, headers: [(String, String)], body: [UInt8]) throws
        -> HTTPClient.Response
    {
        var head = "\(method) \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        if !body.isEmpty || method == "POST" { head += "Content-Length: \(body.count)\r\n" }
        head += "\r\n"
        try write(Array(head.utf8) + body)
        return try readResponse(isHead: method == "HEAD")
    }

    private var buffer: [UInt8] = []

    /// Reads one response; `nil`-free: throws when the peer closes first.
    func readResponse(isHead: Bool = false) throws -> HTTPClient.Response {
        while true {
            if let end = headerEnd() {
                let head = String(decoding: buffer[..<end], as: UTF8.self)
                var lines = head.components(separatedBy: "\r\n")
                let statusLine = lines.removeFirst()
                let parts = statusLine.split(separator: " ")
                guard parts.count >= 2, let status = Int(parts[1]) else {
                    throw TestFailure("bad status line \(statusLine)")
                }
                let headers = lines.compactMap { line -> (name: String, value: String)? in
                    guard let colon = line.firstIndex(of: ":") else { return nil }
                    return (
                        String(line[..<colon]),
                        line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
                    )
                }
                let length =
                    isHead || status == 204 || status == 100
                    ? 0
                    : Int(headers.first { $0.name.lowercased() == "content-length" }?.value ?? "0") ?? 0
                let bodyStart = end + 4
                while buffer.count < bodyStart + length { try fill() }
                let body = Array(buffer[bodyStart..<(bodyStart + length)])
                buffer.removeFirst(bodyStart + length)
                if status == 100 { continue }
                return HTTPClient.Response(status: status, headers: headers, body: body)
            }
            try fill()
        }
    }

    /// Whether the server has closed the connection (reads EOF within `seconds`).
    func isClosedByPeer(within seconds: Int) -> Bool {
        var timeout = timeval(tv_sec: seconds, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = recv(fd, &chunk, chunk.count, 0)
            if count == 0 { return true }
            if count < 0 { return errno == ECONNRESET }
        }
    }

    private func headerEnd() -> Int? {
        guard buffer.count >= 4 else { return nil }
        for i in 0...(buffer.count - 4)
        where buffer[i] == 13 && buffer[i + 1] == 10 && buffer[i + 2] == 13 && buffer[i + 3] == 10 {
            return i
        }
        return nil
    }

    private func fill() throws {
        var chunk = [UInt8](repeating: 0, count: 65536)
        let count = recv(fd, &chunk, chunk.count, 0)
        guard count > 0 else { throw TestFailure("connection closed or timed out (errno \(errno))") }
        buffer.append(contentsOf: chunk[..<count])
    }
}
