/// One HTTP request, complete with its body, as it arrived on the wire.
///
/// The path and query are left exactly as the client sent them (still percent-encoded), so
/// an encoded `/` inside a path segment (`%2F`) can be told apart from a segment separator.
public struct HTTPRequest: Sendable {
    /// The request method, such as `"GET"` or `"POST"`.
    public var method: String
    /// The raw request path, still percent-encoded, without the query.
    public var path: String
    /// The raw query string after `?`, still percent-encoded; `nil` when there was no `?`.
    public var query: String?
    /// The header fields in the order they were received.
    public var headers: [(name: String, value: String)]
    /// The request body (empty when there was none).
    public var body: [UInt8]
    /// The peer's IP address, such as `"127.0.0.1"` or `"::1"`.
    public var remoteAddress: String

    /// Creates a request; the server builds these from the wire, tests build them by hand.
    public init(
        method: String, path: String, query: String? = nil,
        headers: [(name: String, value: String)] = [], body: [UInt8] = [],
        remoteAddress: String = "127.0.0.1"
    ) {
        self.method = method
        self.path = path
        self.query = query
        self.headers = headers
        self.body = body
        self.remoteAddress = remoteAddress
    }

    /// The value of the first header field called `name`, compared case-insensitively.
    public func header(_ name: String) -> String? {
        for field in headers where field.name.utf8.count == name.utf8.count {
            if asciiCaseInsensitiveEquals(field.name, name) { return field.value }
        }
        return nil
    }
}

/// Header names are ASCII tokens, so comparing bytes with the case bit folded is enough and
/// avoids the allocations of `lowercased()` on the request path.
private func asciiCaseInsensitiveEquals(_ lhs: String, _ rhs: String) -> Bool {
    var right = rhs.utf8.makeIterator()
    for left in lhs.utf8 {
        guard let other = right.next() else { return false }
        if left != other && asciiLower(left) != asciiLower(other) { return false }
    }
    return right.next() == nil
}

private func asciiLower(_ byte: UInt8) -> UInt8 {
    (byte >= 0x41 && byte <= 0x5A) ? byte | 0x20 : byte
}
