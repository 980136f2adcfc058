import Dispatch
import HTTPServer
import Testing

@Suite("Prepared responses")
struct PreparedResponseTests {
    static let answer = HTTPResponse(
        status: 200,
        headers: [(name: "Content-Type", value: "application/json"), (name: "X-Kept", value: "yes")],
        body: Array(#"{"status":"ok"}"#.utf8))

    @Test("one prepared response answers many requests on several connections, HEAD included")
    func sharedAcrossRequests() throws {
        let prepared = try #require(PreparedResponse(Self.answer))
        let responder = TestResponder { _, reply in reply(HTTPResponse(prepared: prepared)) }
        try withServer(responder) { _, port in
            let connections = try (0..<3).map { _ in try RawConnection(port: port) }
            for _ in 0..<3 {
                for connection in connections {
                    try connection.send("GET /healthz HTTP/1.1\r\nHost: t\r\n\r\n")
                    let response = try connection.readResponse()
                    #expect(response.status == 200)
                    #expect(response.header("X-Kept") == "yes")
                    #expect(response.header("Content-Length") == "15")
                    #expect(response.text == #"{"status":"ok"}"#)
                }
            }
            try connections[0].send(
                "HEAD /healthz HTTP/1.1\r\nHost: t\r\n\r\nGET /again HTTP/1.1\r\nHost: t\r\n\r\n")
            let head = try connections[0].readHeadOnly()
            #expect(head.status == 200)
            #expect(head.header("Content-Length") == "15")
            // Had the HEAD answer carried a body, it would be read here as the next status line.
            #expect(try connections[0].readResponse().text == #"{"status":"ok"}"#)
        }
    }

    @Test("a prepared response changed afterwards is sent as changed")
    func changedAfterPreparing() throws {
        let prepared = try #require(PreparedResponse(Self.answer))
        let responder = TestResponder { _, reply in
            var response = HTTPResponse(prepared: prepared)
            response.status = 503
            response.body = Array("down".utf8)
            reply(response)
        }
        try withServer(responder) { _, port in
            let connection = try RawConnection(port: port)
            try connection.send("GET / HTTP/1.1\r\nHost: t\r\n\r\n")
            let response = try connection.readResponse()
            #expect(response.status == 503)
            #expect(response.header("X-Kept") == "yes")
            #expect(response.text == "down")
        }
    }

    @Test("while stopping, a prepared answer still closes its connection")
    func closesWhileDraining() throws {
        let prepared = try #require(PreparedResponse(Self.answer))
        let arrived = DispatchSemaphore(value: 0)
        let responder = TestResponder { _, reply in
            arrived.signal()
            DispatchQueue.global().asyncAfter(deadline: .now() + 0.3) {
                reply(HTTPResponse(prepared: prepared))
            }
        }
        try withServer(responder) { server, port in
            let connection = try RawConnection(port: port)
            try connection.send("GET /healthz HTTP/1.1\r\nHost: t\r\n\r\n")
            #expect(arrived.wait(timeout: .now() + 5) == .success)
            server.stop()
            let response = try connection.readResponse()
            #expect(response.status == 200)
            #expect(response.text == #"{"status":"ok"}"#)
            #expect(response.header("Connection")?.lowercased() == "close")
        }
    }
}

@Suite("Header fields libmicrohttpd refuses")
struct RefusedHeaderTests {
    @Test(
        "an answer with a field libmicrohttpd will not send becomes a JSON 500, never the answer without it")
    func refusedFieldIsAnError() throws {
        let responder = TestResponder { request, reply in
            let value = request.path == "/broken" ? "a\r\nX-Injected: 1" : "fine"
            reply(
                HTTPResponse(status: 200, headers: [(name: "X-Note", value: value)], body: Array("ok".utf8)))
        }
        try withServer(responder) { _, port in
            let connection = try RawConnection(port: port)
            try connection.send("GET /broken HTTP/1.1\r\nHost: t\r\n\r\n")
            let response = try connection.readResponse()
            #expect(response.status == 500)
            #expect(response.header("Content-Type") == "application/json")
            #expect(response.header("X-Note") == nil && response.header("X-Injected") == nil)
            #expect(response.text.contains(#""code":"internal_error""#), "\(response.text)")
            #expect(connection.isClosedAfterReadingAll())
            let next = try RawConnection(port: port)
            try next.send("GET /fine HTTP/1.1\r\nHost: t\r\n\r\n")
            let fine = try next.readResponse()
            #expect(fine.status == 200 && fine.header("X-Note") == "fine")
        }
    }

    @Test("a Content-Length given is left to libmicrohttpd, which derives it from the body")
    func contentLengthIsDerived() throws {
        let responder = TestResponder { _, reply in
            reply(
                HTTPResponse(
                    status: 200, headers: [(name: "content-length", value: "99")], body: Array("ok".utf8)))
        }
        try withServer(responder) { _, port in
            let connection = try RawConnection(port: port)
            try connection.send("GET / HTTP/1.1\r\nHost: t\r\n\r\n")
            let response = try connection.readResponse()
            #expect(response.status == 200)
            #expect(response.header("Content-Length") == "2")
        }
    }

    @Test("no response is prepared with a field libmicrohttpd refuses")
    func notPrepared() {
        #expect(PreparedResponse(HTTPResponse(status: 200, headers: [(name: "X-Bad", value: "a\nb")])) == nil)
        #expect(
            PreparedResponse(HTTPResponse(status: 200, headers: [(name: "Transfer-Encoding", value: "gzip")]))
                == nil)
    }
}
