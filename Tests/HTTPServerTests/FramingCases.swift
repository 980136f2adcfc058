import Testing

/// One request as bytes on the wire, and what the server must make of it.
struct FramingCase: Sendable, CustomTestStringConvertible {
    enum Outcome: Sendable {
        /// Reaches the responder, whose echo carries `body`; a second request on the same
        /// connection is then answered too, unless `keepsAlive` is false (HTTP/1.0).
        case served(body: String, keepsAlive: Bool = true)
        /// Refused in JSON before any responder runs, the connection closed after the answer.
        case refused(status: Int = 400, code: String = "invalid_request", field: String?)
        /// Refused by libmicrohttpd itself before any responder runs (an HTML answer), the
        /// connection closed after the answer.
        case refusedByLibrary(status: Int)
    }

    let name: String
    let bytes: String
    let outcome: Outcome

    var testDescription: String { name }

    /// A request with a body meant to smuggle a second one past a server that frames it wrongly.
    static let smuggled = "GET /smuggled HTTP/1.1\r\nHost: t\r\n\r\n"

    /// A POST to `/v1/events` with `fields` (each a line without its CRLF) and `body`.
    static func post(_ fields: [String], body: String = "", version: String = "HTTP/1.1") -> String {
        "POST /v1/events \(version)\r\n" + fields.map { $0 + "\r\n" }.joined() + "\r\n" + body
    }

    static func refused(_ name: String, _ bytes: String, field: String?) -> FramingCase {
        FramingCase(name: name, bytes: bytes, outcome: .refused(field: field))
    }

    static func served(_ name: String, _ bytes: String, body: String, keepsAlive: Bool = true) -> FramingCase
    {
        FramingCase(name: name, bytes: bytes, outcome: .served(body: body, keepsAlive: keepsAlive))
    }

    static func byLibrary(_ name: String, _ bytes: String, status: Int = 400) -> FramingCase {
        FramingCase(name: name, bytes: bytes, outcome: .refusedByLibrary(status: status))
    }

    /// `hello` chunked, then a smuggled request.
    static let chunkedHello = "5\r\nhello\r\n0\r\n\r\n" + smuggled
}

extension FramingCase {
    /// The cases of RFC 9112 §6.3 and RFC 9110 §5.5, §7.2 and §8.6, each beside its well-formed
    /// neighbour.
    static let lengthAndCoding: [FramingCase] = [
        refused(
            "Content-Length and Transfer-Encoding: chunked",
            post(["Host: t", "Content-Length: 5", "Transfer-Encoding: chunked"], body: chunkedHello),
            field: "Content-Length"),
        refused(
            "Transfer-Encoding: chunked, then Content-Length",
            post(["Host: t", "Transfer-Encoding: chunked", "Content-Length: 40"], body: chunkedHello),
            field: "Content-Length"),
        served("Content-Length alone", post(["Host: t", "Content-Length: 5"], body: "hello"), body: "hello"),
        served(
            "Transfer-Encoding: chunked alone",
            post(["Host: t", "Transfer-Encoding: chunked"], body: "5\r\nhello\r\n0\r\n\r\n"), body: "hello"),
        served(
            "Transfer-Encoding: Chunked, in capitals",
            post(["Host: t", "Transfer-Encoding: Chunked"], body: "5\r\nhello\r\n0\r\n\r\n"), body: "hello"),
        served(
            "a chunk extension and a trailer field",
            post(["Host: t", "Transfer-Encoding: chunked"], body: "5;x=1\r\nhello\r\n0\r\nX-T: 1\r\n\r\n"),
            body: "hello"),
        refused(
            "two different Content-Length values",
            post(["Host: t", "Content-Length: 5", "Content-Length: 40"], body: "hello" + smuggled),
            field: "Content-Length"),
        refused(
            "the same Content-Length twice",
            post(["Host: t", "Content-Length: 5", "Content-Length: 5"], body: "hello"),
            field: "Content-Length"),
        served(
            "Content-Length with leading zeros", post(["Host: t", "Content-Length: 005"], body: "hello"),
            body: "hello"),
        byLibrary("Content-Length: 5, 5", post(["Host: t", "Content-Length: 5, 5"], body: "hello")),
        byLibrary("Content-Length: +5", post(["Host: t", "Content-Length: +5"], body: "hello")),
        byLibrary("Content-Length: -5", post(["Host: t", "Content-Length: -5"], body: "hello")),
        byLibrary("Content-Length: 0x5", post(["Host: t", "Content-Length: 0x5"], body: "hello")),
        byLibrary(
            "Content-Length with trailing whitespace", post(["Host: t", "Content-Length: 5 "], body: "hello")),
        byLibrary("an empty Content-Length", post(["Host: t", "Content-Length:"], body: "hello")),
        byLibrary(
            "a Content-Length above 2⁶⁴", post(["Host: t", "Content-Length: 18446744073709551616"]),
            status: 413),
        refused(
            "Transfer-Encoding on HTTP/1.0",
            post(["Host: t", "Transfer-Encoding: chunked"], body: chunkedHello, version: "HTTP/1.0"),
            field: "Transfer-Encoding"),
        refused(
            "Transfer-Encoding: chunked, identity",
            post(["Host: t", "Transfer-Encoding: chunked, identity"], body: chunkedHello),
            field: "Transfer-Encoding"),
        refused(
            "Transfer-Encoding: identity",
            post(["Host: t", "Transfer-Encoding: identity"], body: "hello"), field: "Transfer-Encoding"),
        refused(
            "Transfer-Encoding: xchunked",
            post(["Host: t", "Transfer-Encoding: xchunked"], body: chunkedHello), field: "Transfer-Encoding"),
        FramingCase(
            name: "Transfer-Encoding: gzip, chunked",
            bytes: post(["Host: t", "Transfer-Encoding: gzip, chunked"], body: chunkedHello),
            outcome: .refused(status: 501, code: "unsupported_transfer_coding", field: "Transfer-Encoding")),
        refused(
            "Transfer-Encoding: chunked, chunked",
            post(["Host: t", "Transfer-Encoding: chunked, chunked"], body: chunkedHello),
            field: "Transfer-Encoding"),
        refused(
            "Transfer-Encoding: chunked in two fields",
            post(
                ["Host: t", "Transfer-Encoding: chunked", "Transfer-Encoding: chunked"], body: chunkedHello),
            field: "Transfer-Encoding"),
        refused(
            "Transfer-Encoding: chunked with trailing whitespace",
            post(["Host: t", "Transfer-Encoding: chunked "], body: chunkedHello), field: "Transfer-Encoding"),
        served(
            "Transfer-Encoding: chunked after more than one space",
            post(["Host: t", "Transfer-Encoding:   chunked"], body: "5\r\nhello\r\n0\r\n\r\n"), body: "hello"),
        refused(
            "Transfer-Encoding: chunked with a parameter",
            post(["Host: t", "Transfer-Encoding: chunked;q=1"], body: chunkedHello),
            field: "Transfer-Encoding"),
        refused(
            "an empty Transfer-Encoding", post(["Host: t", "Transfer-Encoding:"], body: chunkedHello),
            field: "Transfer-Encoding"),
        refused(
            "Transfer-Encoding: , chunked",
            post(["Host: t", "Transfer-Encoding: , chunked"], body: chunkedHello), field: "Transfer-Encoding"),
        byLibrary(
            "a chunk size that is not hexadecimal",
            post(["Host: t", "Transfer-Encoding: chunked"], body: "zz\r\nhello\r\n0\r\n\r\n")),
        byLibrary(
            "a chunk size with 0x",
            post(["Host: t", "Transfer-Encoding: chunked"], body: "0x5\r\nhello\r\n0\r\n\r\n")),
        byLibrary(
            "a chunk size with a sign",
            post(["Host: t", "Transfer-Encoding: chunked"], body: "+5\r\nhello\r\n0\r\n\r\n")),
        byLibrary(
            "a chunk size after whitespace",
            post(["Host: t", "Transfer-Encoding: chunked"], body: " 5\r\nhello\r\n0\r\n\r\n")),
        byLibrary(
            "a chunk size before whitespace",
            post(["Host: t", "Transfer-Encoding: chunked"], body: "5 \r\nhello\r\n0\r\n\r\n")),
        byLibrary(
            "a chunk longer than its size",
            post(["Host: t", "Transfer-Encoding: chunked"], body: "5\r\nhello!\r\n0\r\n\r\n")),
        byLibrary(
            "a chunk size above 2⁶⁴",
            post(["Host: t", "Transfer-Encoding: chunked"], body: "10000000000000000\r\nhello\r\n0\r\n\r\n"),
            status: 413),
    ]
}

extension FramingCase {
    /// Header lines and the request line: what a parser could split, join or drop otherwise.
    static let lines: [FramingCase] = [
        refused(
            "whitespace before the colon",
            post(["Host: t", "Content-Length : 5"], body: "hello" + smuggled), field: "Content-Length"),
        refused(
            "a tab before the colon", post(["Host: t", "Content-Length\t: 5"], body: "hello"),
            field: "Content-Length"),
        served(
            "no whitespace after the colon", post(["Host: t", "Content-Length:5"], body: "hello"),
            body: "hello"),
        served(
            "tabs around a value",
            post(["Host: t", "X-Tabbed:\tvalue\t", "Content-Length: 5"], body: "hello"),
            body: "hello"),
        refused(
            "whitespace inside a field name", post(["Host: t", "Content Length: 5"], body: "hello"),
            field: "Content Length"),
        refused("an empty field name", post([": value", "Host: t"]), field: ""),
        refused(
            "an empty field name after another field",
            post(["Host: t", ": value", "Content-Length: 5"], body: "hello" + smuggled), field: ""),
        refused("a field name that is not a token", post(["Host: t", "X(y): 1"]), field: "X(y)"),
        byLibrary("a header line without a colon", post(["Host: t", "Content-Length 5"], body: "hello")),
        refused(
            "a header folded onto a continuation line",
            post(["Host: t", "X-Folded: a", " b", "Content-Length: 5"], body: "hello"), field: "X-Folded"),
        refused(
            "Content-Length folded onto a continuation line",
            post(["Host: t", "Content-Length: 5", " 0"], body: "hello" + smuggled), field: "Content-Length"),
        refused(
            "a header folded with a tab", post(["Host: t", "X-Folded: a", "\tb"]), field: "X-Folded"),
        refused(
            "a header folded twice, the last field",
            post(["Host: t", "X-Folded: a", " b", " c"]), field: "X-Folded"),
        refused("whitespace before the first field", post([" Host: t"]), field: "Host"),
        refused("a NUL inside a value", post(["Host: t", "X-Nul: a\u{0}b"]), field: "X-Nul"),
        refused("a NUL at the end of a value", post(["Host: t", "X-Nul: a\u{0}"]), field: "X-Nul"),
        refused(
            "a NUL ending Content-Length",
            post(["Host: t", "Content-Length: 5\u{0}0"], body: "hello" + smuggled), field: "Content-Length"),
        refused("a bare CR inside a value", post(["Host: t", "X-CR: a\rb"]), field: "X-CR"),
        refused("a bare CR before CRLF", post(["Host: t", "X-CR: a\r"]), field: "X-CR"),
        refused(
            "a bare CR hiding a field",
            post(["Host: t", "X-CR: a\rContent-Length: 5"], body: "hello" + smuggled), field: "X-CR"),
        refused(
            "another control character in a value", post(["Host: t", "X-Bell: a\u{7}b"]), field: "X-Bell"),
        refused(
            "a bare LF ending a header line",
            "POST /v1/events HTTP/1.1\r\nHost: t\nContent-Length: 5\r\n\r\nhello", field: "Host"),
        refused(
            "a bare LF ending the request line", "POST /v1/events HTTP/1.1\nHost: t\r\n\r\n", field: nil),
        refused("a bare LF ending the head", "POST /v1/events HTTP/1.1\r\nHost: t\r\n\n", field: "Host"),
        refused("bare LFs throughout", "POST /v1/events HTTP/1.1\nHost: t\n\n", field: nil),
        refused(
            "a control character far into a long value",
            post(["Host: t", "X-Long: abcdefghijklmnopqrstu\u{1}vwxyz"]), field: "X-Long"),
        refused(
            "a DEL ending a long value", post(["Host: t", "X-Long: abcdefghijklmnop\u{7F}"]), field: "X-Long"),
        refused(
            "a bare CR among UTF-8 in a long value", post(["Host: t", "X-Long: Zoë Zoë Zoë\rZoë Zoë"]),
            field: "X-Long"),
        served(
            "UTF-8 in a value", post(["Host: t", "X-Name: Zoë", "Content-Length: 5"], body: "hello"),
            body: "hello"),
        served(
            "UTF-8 and tabs in a long value",
            post(
                ["Host: t", "X-Name: Zoë Zoë\tZoë Zoë ÿÿÿÿÿÿÿÿ \u{80}\u{9F}", "Content-Length: 5"],
                body: "hello"),
            body: "hello"),
        served("an empty value", post(["Host: t", "X-Empty:", "X-Blank: "]), body: ""),
        served(
            "an empty line before the request line", "\r\nPOST /v1/events HTTP/1.1\r\nHost: t\r\n\r\n",
            body: ""),
        served(
            "a head larger than the first buffer",
            post(
                ["Host: t", "X-Long: " + String(repeating: "x", count: 4_000), "Content-Length: 5"],
                body: "hello"),
            body: "hello"),
        refused(
            "a fold in a head larger than the first buffer",
            post(["Host: t", "X-Long: " + String(repeating: "x", count: 4_000), "X-Folded: a", " b"]),
            field: "X-Folded"),
        refused("a space inside the target", "GET /a b HTTP/1.1\r\nHost: t\r\n\r\n", field: nil),
        refused("a tab inside the target", "GET /a\tb HTTP/1.1\r\nHost: t\r\n\r\n", field: nil),
        refused("two spaces after the method", "GET  /a HTTP/1.1\r\nHost: t\r\n\r\n", field: nil),
        refused("two spaces before the version", "GET /a  HTTP/1.1\r\nHost: t\r\n\r\n", field: nil),
        byLibrary("whitespace after the version", "GET /a HTTP/1.1 \r\nHost: t\r\n\r\n"),
        byLibrary("a request line without a version", "GET /a\r\nHost: t\r\n\r\n"),
        byLibrary("HTTP/2.0 as the version", "GET /a HTTP/2.0\r\nHost: t\r\n\r\n", status: 505),
    ]

    /// `Host` (RFC 9110 §7.2), and HTTP/1.0 beside HTTP/1.1.
    static let hosts: [FramingCase] = [
        refused("two Host fields", post(["Host: a", "Host: b"]), field: "Host"),
        refused("the same Host twice", post(["Host: a", "Host: a"]), field: "Host"),
        refused("HTTP/1.1 without Host", post(["Content-Length: 5"], body: "hello"), field: "Host"),
        refused("a Host with a space", post(["Host: a b"]), field: "Host"),
        refused("a Host with user information", post(["Host: user@a"]), field: "Host"),
        refused("a Host that is a list", post(["Host: a,b"]), field: "Host"),
        refused("a Host with a path", post(["Host: a/b"]), field: "Host"),
        refused("a Host with a port that is not a number", post(["Host: a:80x"]), field: "Host"),
        served("a Host with a port", post(["Host: example.com:8080"]), body: ""),
        served("an IPv6 Host", post(["Host: [::1]:8080"]), body: ""),
        served("an empty Host", post(["Host:"]), body: ""),
        served("a Host with trailing whitespace", post(["Host: t "]), body: ""),
        served(
            "HTTP/1.0 without Host", post(["Content-Length: 5"], body: "hello", version: "HTTP/1.0"),
            body: "hello", keepsAlive: false),
        served(
            "HTTP/1.0 with Host and keep-alive",
            post(
                ["Host: t", "Connection: keep-alive", "Content-Length: 5"], body: "hello", version: "HTTP/1.0"
            ),
            body: "hello"),
        refused(
            "HTTP/1.0 with two Host fields", post(["Host: a", "Host: b"], version: "HTTP/1.0"), field: "Host"),
    ]

    static let all = lengthAndCoding + lines + hosts
}
