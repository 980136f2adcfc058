import Foundation
import HTTPServer
import Synchronization
import Testing

/// Requests another HTTP implementation could frame differently are refused before the
/// responder sees them, and their well-formed neighbours are served (docs/proxies.md).
@Suite("Requests a proxy could frame differently")
struct FramingRefusalTests {
    @Test("each request is served or refused as its case says", arguments: FramingCase.all)
    func framing(_ framing: FramingCase) throws {
        let calls = Atomic<Int>(0)
        let responder = TestResponder { request, reply in
            calls.add(1, ordering: .relaxed)
            reply(echoResponse(request))
        }
        try withServer(responder) { _, port in
            let connection = try RawConnection(port: port)
            try connection.send(Array(framing.bytes.utf8))
            let response = try connection.readResponse()
            switch framing.outcome {
            case .served(let body, let keepsAlive):
                #expect(response.status == 200, "\(response.text)")
                #expect(response.text == body)
                if keepsAlive {
                    try connection.send("GET /next HTTP/1.1\r\nHost: t\r\n\r\n")
                    #expect(try connection.readResponse().header("X-Path") == "/next")
                    #expect(calls.load(ordering: .relaxed) == 2)
                } else {
                    #expect(connection.isClosedAfterReadingAll())
                    #expect(calls.load(ordering: .relaxed) == 1)
                }
            case .refused(let status, let code, let field):
                #expect(response.status == status)
                #expect(response.header("Content-Type") == "application/json")
                #expect(response.header("Connection")?.lowercased() == "close")
                let error = try #require(
                    (try JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any])?["error"]
                        as? [String: Any], "\(response.text)")
                #expect(error["code"] as? String == code)
                #expect((error["message"] as? String)?.isEmpty == false)
                #expect(error["field"] as? String == field, "\(response.text)")
                #expect(connection.isClosedAfterReadingAll())
                #expect(calls.load(ordering: .relaxed) == 0)
            case .refusedByLibrary(let status):
                #expect(response.status == status)
                #expect(connection.isClosedAfterReadingAll())
                #expect(calls.load(ordering: .relaxed) == 0)
            }
        }
    }

    @Test("a refusal comes at once, without 100 Continue and without waiting for the body")
    func refusalBeforeContinue() throws {
        try withServer(.echo) { _, port in
            let connection = try RawConnection(port: port)
            try connection.send(
                "POST /v1/events HTTP/1.1\r\nHost: t\r\nExpect: 100-continue\r\nContent-Length: 5\r\n"
                    + "Transfer-Encoding: chunked\r\n\r\n")
            let response = try connection.readResponse()
            #expect(response.status == 400)
            #expect(connection.isClosedAfterReadingAll())
        }
    }

    @Test("a head sent a byte at a time is framed as if sent at once")
    func headByteByByte() throws {
        // The refused head is answered, and its connection closed, before the body is read, so
        // its body is not sent: a write after the close could fail with EPIPE.
        let requests = [
            (FramingCase.post(["Host: t", "Content-Length: 5"], body: ""), body: "hello", status: 200),
            (
                FramingCase.post(["Host: t", "X-Folded: a", " b", "Content-Length: 5"], body: ""), body: "",
                status: 400
            ),
        ]
        try withServer(.echo) { _, port in
            for (head, body, status) in requests {
                let connection = try RawConnection(port: port)
                for byte in (head + body).utf8 { try connection.send([byte]) }
                let response = try connection.readResponse()
                #expect(response.status == status, "\(response.text)")
            }
        }
    }

    @Test("pipelined requests are framed one after the other, and a refused one ends the connection")
    func pipelined() throws {
        try withServer(.echo) { _, port in
            let connection = try RawConnection(port: port)
            try connection.send(
                "POST /one HTTP/1.1\r\nHost: t\r\nContent-Length: 3\r\n\r\none"
                    + "POST /two HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: chunked\r\n\r\n3\r\ntwo\r\n0\r\n\r\n"
                    + "GET /three HTTP/1.1\r\nHost: t\r\nHost: u\r\n\r\n"
                    + "GET /four HTTP/1.1\r\nHost: t\r\n\r\n")
            let answers = try (0..<3).map { _ in try connection.readResponse() }
            #expect(answers.map(\.status) == [200, 200, 400])
            #expect(answers.prefix(2).map(\.text) == ["one", "two"])
            #expect(connection.isClosedAfterReadingAll())
        }
    }

    @Test("a responder can answer refusals itself")
    func ownRefusal() throws {
        let responder = RefusingResponder()
        let configuration = HTTPServerConfiguration(port: 0, threads: 1)
        let server = HTTPServer(configuration: configuration, responder: responder)
        let port = try server.start()
        defer { server.stop() }
        let connection = try RawConnection(port: port)
        try connection.send("GET /x HTTP/1.1\r\n\r\n")
        let response = try connection.readResponse()
        #expect(response.status == 400)
        #expect(response.text == "refused: /x Host")
        #expect(response.header("Connection")?.lowercased() == "close")
    }

    @Test("the refusal's JSON escapes what the client sent")
    func escaping() throws {
        try withServer(.echo) { _, port in
            let connection = try RawConnection(port: port)
            try connection.send("GET / HTTP/1.1\r\nHost: t\r\nX\"\\\u{1}: 1\r\n\r\n")
            let response = try connection.readResponse()
            let object = try JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any]
            #expect((object?["error"] as? [String: Any])?["field"] as? String == "X\"\\\u{1}")
        }
    }
}

private struct RefusingResponder: HTTPResponder {
    func respond(to request: HTTPRequest, reply: @escaping @Sendable (HTTPResponse) -> Void) {
        reply(HTTPResponse(status: 200))
    }

    func bodyTooLarge(_ request: HTTPRequest) -> HTTPResponse {
        HTTPResponse(status: 413)
    }

    func refuse(_ request: HTTPRequest, because refusal: RequestRefusal) -> HTTPResponse {
        HTTPResponse(
            status: refusal.status, body: Array("refused: \(request.path) \(refusal.field ?? "-")".utf8))
    }
}
