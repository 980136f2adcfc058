import Foundation
import Testing

/// docs/api.md's errors against the running server: every malformed body is answered with a JSON 4xx that
/// names the problem (and the field to blame), and none of them changes a statistic.
@Suite("Malformed bodies, end to end")
struct BadInputTests {
    /// Articles the server already has, so that a wrongly accepted event would change them.
    static let seeded = ["/bad-input", "/bad-input/other"]

    @Test("every malformed body gets a JSON 4xx naming the problem, and no statistic moves")
    func malformedBodies() throws {
        let server = try ServerProcess(store: "memory:")
        let client = server.client()
        try Self.seed(client)
        let before = try StatisticsSnapshot.take(client, articles: Self.seeded)
        let cases = BadBody.table(nowMs: Int64(Date().timeIntervalSince1970 * 1000))
        #expect(cases.count > 100)

        for route in ["/v1/events", "/v1/progress"] {
            for bad in cases where bad.routes.contains(route) {
                let label = "\(route): \(bad.name)"
                let response: HTTPClient.Response
                do {
                    response = try bad.send(to: route, port: server.port)
                } catch {
                    // A stalled or dropped answer fails this case; the rest still run.
                    Issue.record("\(label): \(error)")
                    continue
                }
                #expect(response.status == bad.status, "\(label): \(response.text)")
                #expect(response.header("Content-Type") == "application/json", "\(label)")
                let error = (try? response.json["error"]) as? [String: Any]
                #expect(error != nil, "\(label): \(response.text)")
                #expect(error?["code"] as? String == bad.code, "\(label): \(response.text)")
                #expect((error?["message"] as? String)?.isEmpty == false, "\(label)")
                #expect(error?["field"] as? String == bad.field, "\(label): \(response.text)")
                #expect(
                    try StatisticsSnapshot.take(client, articles: Self.seeded) == before,
                    "\(label) changed the statistics")
            }
        }

        let health = try client.get("/healthz")
        #expect(health.status == 200)
        #expect(health.text == #"{"status":"ok"}"#)
        #expect(try StatisticsSnapshot.take(client, articles: Self.seeded) == before)
    }

    @Test(
        "a body over the limit gets 413 from its headers alone, with or without Expect",
        arguments: [
            ("/v1/events", "10737418240", false),
            ("/v1/events", "1048577", false),
            ("/v1/events", "1048577", true),
            // Above Int64.max but a valid HTTP length: once read as "no length" and waited for.
            ("/v1/events", "9223372036854775808", false),
            ("/v1/events", "18446744073709551615", true),
            ("/v1/progress", "10737418240", false),
            ("/v1/progress", "9223372036854775808", true),
        ])
    func oversizedHeadersOnly(route: String, length: String, expectContinue: Bool) throws {
        let server = try ServerProcess(store: "memory:")
        let connection = try Connection(port: server.port, receiveTimeoutSeconds: 5)
        var head = "POST \(route) HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
        if expectContinue { head += "Expect: 100-continue\r\n" }
        head += "Content-Length: \(length)\r\n\r\n"
        try connection.write(head)
        // Not one byte of body is sent: the answer must come from the headers alone.
        let response = try connection.readResponse()
        #expect(response.status == 413)
        #expect(response.header("Content-Type") == "application/json")
        #expect((try response.json["error"] as? [String: Any])?["code"] as? String == "body_too_large")
        #expect(response.header("Connection")?.lowercased() == "close")
        #expect(connection.isClosedByPeer(within: 5))
        #expect(try server.client().get("/healthz").status == 200)
    }

    @Test("a chunked body that grows over the limit gets 413 and counts nothing")
    func oversizedChunked() throws {
        let server = try ServerProcess(store: "memory:", arguments: ["--max-body-bytes", "4096"])
        let client = server.client()
        try Self.seed(client)
        let before = try StatisticsSnapshot.take(client, articles: Self.seeded)
        // A valid batch of events, so that only the size can be why it is refused.
        let event = Scenario.event(article: Self.seeded[0], reader: "chunked", y: 10, timeMs: Self.nowMs())
        let batch = Array(("[" + Array(repeating: event, count: 40).joined(separator: ",") + "]").utf8)
        let connection = try Connection(port: server.port, receiveTimeoutSeconds: 5)
        try connection.write(
            "POST /v1/events HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                + "Transfer-Encoding: chunked\r\n\r\n")
        for start in stride(from: 0, to: batch.count, by: 1000) {
            let chunk = Array(batch[start..<min(start + 1000, batch.count)])
            try connection.write(
                Array("\(String(chunk.count, radix: 16))\r\n".utf8) + chunk + Array("\r\n".utf8))
        }
        try connection.write("0\r\n\r\n")
        let response = try connection.readResponse()
        #expect(response.status == 413)
        #expect((try response.json["error"] as? [String: Any])?["code"] as? String == "body_too_large")
        #expect(try StatisticsSnapshot.take(client, articles: Self.seeded) == before)
    }

    @Test("a batch the byte scanner gives up on partway counts each event once, the refused one at its index")
    func batchTheScannerGivesUpOn() throws {
        let server = try ServerProcess(store: "memory:")
        let client = server.client()
        // No "/" in the article: JSONSerialization writes it as "\/", an escape the scanner
        // leaves to the tree path from the first entry on.
        let plain = Scenario.event(
            article: "partway", reader: "r1", y: 100, timeMs: Self.nowMs(), engagedMs: 1000)
        // The scanner hands the first two entries over, then leaves the escape to the tree path,
        // which decodes the whole batch again.
        let escaped = plain.replacingOccurrences(of: #""r1""#, with: #""r\u0032""#)
        let refused = plain.replacingOccurrences(of: #""engagedMs":1000"#, with: #""engagedMs":-1"#)
        #expect(escaped != plain && refused != plain)
        let response = try client.post("/v1/events", json: "[\(plain),\(plain),\(escaped),\(refused)]")
        #expect(response.status == 202, "\(response.text)")
        #expect(try response.json["accepted"] as? Int == 3)
        let rejected = try response.json["rejected"] as? [[String: Any]]
        #expect(rejected?.count == 1)
        #expect(rejected?.first?["index"] as? Int == 3)
        #expect((rejected?.first?["error"] as? [String: Any])?["field"] as? String == "engagedMs")

        let stats = try client.get("/v1/articles/partway/stats").json
        #expect(stats["events"] as? Int == 3)
        #expect(stats["readers"] as? Int == 2)
    }

    static func nowMs() -> Int64 { Int64(Date().timeIntervalSince1970 * 1000) }

    static func seed(_ client: HTTPClient) throws {
        let now = nowMs()
        let events = [
            Scenario.event(article: seeded[0], reader: "r1", y: 500, timeMs: now - 60_000, engagedMs: 1000),
            Scenario.event(article: seeded[0], reader: "r2", y: 950, timeMs: now - 30_000, engagedMs: 2500),
            Scenario.event(article: seeded[1], reader: "r1", y: 100, timeMs: now - 10_000, id: "seed-1"),
        ]
        let response = try client.post("/v1/events", json: "[" + events.joined(separator: ",") + "]")
        #expect(response.status == 202, "\(response.text)")
        #expect(try response.json["accepted"] as? Int == 3)
    }
}

/// A valid event as ordered members of raw JSON, to be broken one member at a time.
struct EventJSON {
    var members: [(key: String, raw: String)] = [
        ("article", #""/bad-input""#),
        ("reader", #""reader-1""#),
        ("contentOffset", #"{"x":0,"y":100}"#),
        ("contentSize", #"{"width":400,"height":2000}"#),
        ("containerSize", #"{"width":400,"height":1000}"#),
    ]

    /// With `key` set to `raw` (replaced in place, or added at the end).
    func with(_ key: String, _ raw: String) -> EventJSON {
        var copy = self
        if let index = copy.members.firstIndex(where: { $0.key == key }) {
            copy.members[index].raw = raw
        } else {
            copy.members.append((key, raw))
        }
        return copy
    }

    func without(_ key: String) -> EventJSON {
        var copy = self
        copy.members.removeAll { $0.key == key }
        return copy
    }

    var text: String {
        "{" + members.map { "\"\($0.key)\":\($0.raw)" }.joined(separator: ",") + "}"
    }
}
