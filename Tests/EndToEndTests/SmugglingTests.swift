import Foundation
import Testing

/// Requests whose framing a proxy in front could read differently (docs/proxies.md), against
/// the real executable: each is refused with a JSON error, its connection is closed, and neither
/// its own event nor the one smuggled in its body is counted.
@Suite("Request smuggling, end to end")
struct SmugglingTests {
    /// One attempt: the fields after the request line, the body, and the refusal it must get.
    struct Attempt: Sendable {
        var name: String
        var version = "HTTP/1.1"
        var sendsHost = true
        var fields: @Sendable (_ event: [UInt8], _ smuggled: [UInt8]) -> [String]
        var body: @Sendable (_ event: [UInt8], _ smuggled: [UInt8]) -> [UInt8]
        var status = 400
        var code = "invalid_request"
        var field: String?
    }

    static func chunked(_ bytes: [UInt8]) -> [UInt8] {
        Array("\(String(bytes.count, radix: 16))\r\n".utf8) + bytes + Array("\r\n0\r\n\r\n".utf8)
    }

    static let attempts: [Attempt] = [
        Attempt(
            name: "Content-Length and Transfer-Encoding: chunked",
            fields: { event, _ in ["Content-Length: \(event.count)", "Transfer-Encoding: chunked"] },
            body: { event, smuggled in chunked(event) + smuggled }, field: "Content-Length"),
        Attempt(
            name: "two different Content-Length values",
            fields: { event, smuggled in
                ["Content-Length: \(event.count)", "Content-Length: \(event.count + smuggled.count)"]
            },
            body: { event, smuggled in event + smuggled }, field: "Content-Length"),
        Attempt(
            name: "whitespace before the colon of Content-Length",
            fields: { event, _ in ["Content-Length : \(event.count)"] },
            body: { event, smuggled in event + smuggled }, field: "Content-Length"),
        Attempt(
            name: "Content-Length folded onto a continuation line",
            fields: { event, _ in ["Content-Length: \(event.count)", " 0"] },
            body: { event, smuggled in event + smuggled }, field: "Content-Length"),
        Attempt(
            name: "a header folded onto a continuation line",
            fields: { event, _ in ["X-Folded: a", "\tb", "Content-Length: \(event.count)"] },
            body: { event, _ in event }, field: "X-Folded"),
        Attempt(
            name: "a bare CR hiding Content-Length",
            fields: { event, _ in ["X-Note: a\rContent-Length: \(event.count)"] },
            body: { event, smuggled in event + smuggled }, field: "X-Note"),
        Attempt(
            name: "a NUL inside Content-Length",
            fields: { event, smuggled in ["Content-Length: \(event.count)\u{0}\(smuggled.count)"] },
            body: { event, smuggled in event + smuggled }, field: "Content-Length"),
        Attempt(
            name: "a bare LF ending a header line",
            fields: { event, _ in ["X-Note: a\nContent-Length: \(event.count)"] },
            body: { event, smuggled in event + smuggled }, field: "X-Note"),
        Attempt(
            name: "Transfer-Encoding: chunked, identity",
            fields: { _, _ in ["Transfer-Encoding: chunked, identity"] },
            body: { event, smuggled in chunked(event) + smuggled }, field: "Transfer-Encoding"),
        Attempt(
            name: "Transfer-Encoding: gzip, chunked",
            fields: { _, _ in ["Transfer-Encoding: gzip, chunked"] },
            body: { event, smuggled in chunked(event) + smuggled }, status: 501,
            code: "unsupported_transfer_coding", field: "Transfer-Encoding"),
        Attempt(
            name: "Transfer-Encoding on HTTP/1.0", version: "HTTP/1.0",
            fields: { _, _ in ["Transfer-Encoding: chunked"] },
            body: { event, smuggled in chunked(event) + smuggled }, field: "Transfer-Encoding"),
        Attempt(
            name: "two Host fields",
            fields: { event, _ in ["Host: admin.example", "Content-Length: \(event.count)"] },
            body: { event, _ in event }, field: "Host"),
        Attempt(
            name: "HTTP/1.1 without Host", sendsHost: false,
            fields: { event, _ in ["Content-Length: \(event.count)"] },
            body: { event, _ in event }, field: "Host"),
    ]

    @Test("each attempt at POST /v1/events is refused in JSON, closes its connection and counts nothing")
    func attemptsAreRefused() throws {
        let server = try ServerProcess(store: "memory:")
        let now = Int64(Date().timeIntervalSince1970 * 1000)
        var articles: [String] = []
        for (index, attempt) in Self.attempts.enumerated() {
            let article = "/smuggling/\(index)"
            let hidden = "/smuggled/\(index)"
            articles += [article, hidden]
            let event = Array(Scenario.event(article: article, reader: "r", y: 100, timeMs: now).utf8)
            let hiddenEvent = Array(Scenario.event(article: hidden, reader: "r", y: 100, timeMs: now).utf8)
            let smuggled =
                Array(
                    ("POST /v1/events HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                        + "Content-Length: \(hiddenEvent.count)\r\n\r\n").utf8) + hiddenEvent
            let fields =
                (attempt.sendsHost ? ["Host: 127.0.0.1"] : [])
                + ["Content-Type: application/json"] + attempt.fields(event, smuggled)
            let head = "POST /v1/events \(attempt.version)\r\n" + fields.map { $0 + "\r\n" }.joined() + "\r\n"

            let connection = try Connection(port: server.port, receiveTimeoutSeconds: 5)
            try connection.write(Array(head.utf8) + attempt.body(event, smuggled))
            let response = try connection.readResponse()
            #expect(response.status == attempt.status, "\(attempt.name): \(response.text)")
            #expect(response.header("Content-Type") == "application/json", "\(attempt.name)")
            #expect(response.header("Connection")?.lowercased() == "close", "\(attempt.name)")
            let error = (try? response.json["error"]) as? [String: Any]
            #expect(error?["code"] as? String == attempt.code, "\(attempt.name): \(response.text)")
            #expect(error?["field"] as? String == attempt.field, "\(attempt.name): \(response.text)")
            #expect(connection.isClosedByPeer(within: 5), "\(attempt.name)")
        }
        let client = server.client()
        for article in articles {
            #expect(
                try client.get("/v1/articles/\(Scenario.segment(article))/stats").status == 404, "\(article)")
        }
        #expect(try client.get("/healthz").status == 200)
    }

    @Test("the refusals are proven at start: no warning, and accepting unproven framing turns none off")
    func provenAtStart() throws {
        let server = try ServerProcess(store: "memory:", arguments: ["--accept-unproven-framing"])
        let connection = try Connection(port: server.port, receiveTimeoutSeconds: 5)
        try connection.write("POST /v1/events HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Folded: a\r\n b\r\n\r\n")
        let response = try connection.readResponse()
        #expect(response.status == 400)
        #expect(response.header("Content-Type") == "application/json")
        #expect(server.standardError.contains("started reading-progress"))
        #expect(
            !server.standardError.contains("warning: --accept-unproven-framing"), "\(server.standardError)")
    }

    @Test("chunked uploads, HTTP/1.0 without Host, 100-continue and keep-alive still count")
    func neighboursCount() throws {
        let server = try ServerProcess(store: "memory:")
        let now = Int64(Date().timeIntervalSince1970 * 1000)
        func event(_ reader: String) -> [UInt8] {
            Array(Scenario.event(article: "/framed", reader: reader, y: 100, timeMs: now).utf8)
        }

        let kept = try Connection(port: server.port, receiveTimeoutSeconds: 5)
        try kept.write(
            Array(
                "POST /v1/events HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n"
                    .utf8) + Self.chunked(event("chunked")))
        #expect(try kept.readResponse().status == 202)
        let again = try kept.exchange(
            method: "POST", target: "/v1/events", headers: [("Content-Type", "application/json")],
            body: event("kept-alive"))
        #expect(again.status == 202)

        let old = try Connection(port: server.port, receiveTimeoutSeconds: 5)
        let body = event("http-1.0")
        try old.write(
            Array(
                "POST /v1/events HTTP/1.0\r\nContent-Type: application/json\r\nContent-Length: \(body.count)\r\n\r\n"
                    .utf8) + body)
        #expect(try old.readResponse().status == 202)

        let continued = try Connection(port: server.port, receiveTimeoutSeconds: 5)
        let later = event("continue")
        try continued.write(
            "POST /v1/events HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                + "Expect: 100-continue\r\nContent-Length: \(later.count)\r\n\r\n")
        #expect(try continued.readInterim() == "HTTP/1.1 100 Continue")
        try continued.write(later)
        #expect(try continued.readResponse().status == 202)

        let stats = try server.client().get("/v1/articles/\(Scenario.segment("/framed"))/stats")
        #expect(try stats.json["events"] as? Int == 4)
        #expect(try stats.json["readers"] as? Int == 4)
    }
}
