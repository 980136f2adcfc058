import HTTPServer
import Testing

@Suite("Requests arrive as the client sent them")
struct RequestFramingTests {
    @Test("a percent-encoded path and query arrive raw")
    func rawPath() throws {
        try withServer(.echo) { _, port in
            let connection = try RawConnection(port: port)
            try connection.send(
                "GET /v1/articles/%2Fblog%2Fa%20b/stats?x=1 HTTP/1.1\r\nHost: t\r\nUser-Agent: probe\r\n\r\n")
            let response = try connection.readResponse()
            #expect(response.status == 200)
            #expect(response.header("X-Method") == "GET")
            #expect(response.header("X-Path") == "/v1/articles/%2Fblog%2Fa%20b/stats")
            #expect(response.header("X-Query") == "x=1")
            #expect(response.header("X-Agent") == "probe")
            #expect(response.header("X-Remote") == "127.0.0.1")
        }
    }

    @Test("a request without a query has none")
    func noQuery() throws {
        try withServer(.echo) { _, port in
            let connection = try RawConnection(port: port)
            try connection.send("GET /healthz HTTP/1.1\r\nHost: t\r\n\r\n")
            let response = try connection.readResponse()
            #expect(response.header("X-Path") == "/healthz")
            #expect(response.header("X-Query") == "<none>")
        }
    }

    @Test("a 200 KB body sent in pieces arrives intact")
    func largeBody() throws {
        let body = (0..<200_000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 8) }
        try withServer(.echo) { _, port in
            let connection = try RawConnection(port: port)
            try connection.send(
                "POST /v1/events HTTP/1.1\r\nHost: t\r\nContent-Length: \(body.count)\r\n\r\n")
            for start in stride(from: 0, to: body.count, by: 7_000) {
                try connection.send(Array(body[start..<min(start + 7_000, body.count)]))
            }
            let response = try connection.readResponse()
            #expect(response.status == 200)
            #expect(response.body == body)
        }
    }

    @Test("a chunked upload arrives whole")
    func chunkedUpload() throws {
        try withServer(.echo) { _, port in
            let connection = try RawConnection(port: port)
            try connection.send("POST /v1/events HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: chunked\r\n\r\n")
            try connection.send("5\r\nhello\r\n")
            try connection.send("1\r\n \r\n6\r\nworld!\r\n")
            try connection.send("0\r\n\r\n")
            let response = try connection.readResponse()
            #expect(response.status == 200)
            #expect(response.text == "hello world!")
        }
    }

    @Test("Expect: 100-continue gets 100 Continue, then the answer")
    func expectContinue() throws {
        try withServer(.echo) { _, port in
            let connection = try RawConnection(port: port)
            try connection.send(
                "POST /v1/events HTTP/1.1\r\nHost: t\r\nContent-Length: 4\r\nExpect: 100-continue\r\n\r\n")
            let interim = try connection.readResponse()
            #expect(interim.status == 100)
            try connection.send("ping")
            let response = try connection.readResponse()
            #expect(response.status == 200)
            #expect(response.text == "ping")
        }
    }

    @Test("Content-Length over the limit is answered before the body is sent")
    func contentLengthOverLimit() throws {
        try withServer(.echo, maxBodyBytes: 1_000) { _, port in
            let connection = try RawConnection(port: port)
            try connection.send(
                "POST /v1/events HTTP/1.1\r\nHost: t\r\nContent-Length: 5000\r\nExpect: 100-continue\r\n\r\n")
            let response = try connection.readResponse()
            #expect(response.status == 413)
            #expect(response.text == "too large: /v1/events 0")
            #expect(connection.isClosedByPeer())
        }
    }

    @Test("a body exactly at the limit is accepted")
    func bodyAtLimit() throws {
        try withServer(.echo, maxBodyBytes: 1_000) { _, port in
            let connection = try RawConnection(port: port)
            try connection.send("POST /x HTTP/1.1\r\nHost: t\r\nContent-Length: 1000\r\n\r\n")
            try connection.send([UInt8](repeating: 65, count: 1_000))
            #expect(try connection.readResponse().body.count == 1_000)
        }
    }

    @Test("a chunked body over the limit gets the too-large answer")
    func chunkedOverLimit() throws {
        try withServer(.echo, maxBodyBytes: 1_000) { _, port in
            let connection = try RawConnection(port: port)
            try connection.send("POST /v1/events HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: chunked\r\n\r\n")
            let chunk = "800\r\n" + String(repeating: "a", count: 0x800) + "\r\n"
            try connection.send(chunk + "0\r\n\r\n")
            let response = try connection.readResponse()
            #expect(response.status == 413)
            #expect(response.header("Connection")?.lowercased() == "close")
        }
    }

    @Test("two requests share one kept-alive connection")
    func keepAlive() throws {
        try withServer(.echo) { _, port in
            let connection = try RawConnection(port: port)
            try connection.send("POST /first HTTP/1.1\r\nHost: t\r\nContent-Length: 3\r\n\r\none")
            let first = try connection.readResponse()
            try connection.send("GET /second?y=2 HTTP/1.1\r\nHost: t\r\n\r\n")
            let second = try connection.readResponse()
            #expect(first.text == "one")
            #expect(first.header("Connection")?.lowercased() != "close")
            #expect(second.header("X-Path") == "/second")
            #expect(second.header("X-Query") == "y=2")
        }
    }

    @Test("response headers are sent and Content-Length follows the body")
    func responseHeaders() throws {
        let responder = TestResponder { _, reply in
            reply(
                HTTPResponse(
                    status: 201, headers: [(name: "Content-Type", value: "application/json")],
                    body: Array(#"{"ok":true}"#.utf8)))
        }
        try withServer(responder) { _, port in
            let connection = try RawConnection(port: port)
            try connection.send("GET / HTTP/1.1\r\nHost: t\r\n\r\n")
            let response = try connection.readResponse()
            #expect(response.status == 201)
            #expect(response.header("Content-Type") == "application/json")
            #expect(response.header("Content-Length") == "11")
            #expect(response.text == #"{"ok":true}"#)
        }
    }
}
