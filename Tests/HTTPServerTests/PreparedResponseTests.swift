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
