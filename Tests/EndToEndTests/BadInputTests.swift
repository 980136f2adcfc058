import Foundation
import Testing

/// SPEC §6 against the running server: every malformed body is answered with a JSON 4xx that
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

/// One malformed request body and the error it must get.
struct BadBody: Sendable {
    var name: String
    var body: [UInt8]
    /// `nil`: no Content-Type header at all.
    var contentType: String? = "application/json"
    var status = 400
    var code: String
    /// The field the error must name; `nil`: the error must name none.
    var field: String?
    var routes: Set<String> = ["/v1/events", "/v1/progress"]

    func send(to route: String, port: UInt16) throws -> HTTPClient.Response {
        let connection = try Connection(port: port, receiveTimeoutSeconds: 10)
        return try connection.exchange(
            method: "POST", target: route, headers: contentType.map { [("Content-Type", $0)] } ?? [],
            body: body)
    }

    /// Only where ingest answers: identity fields and batches mean nothing to /v1/progress.
    static let eventsOnly: Set<String> = ["/v1/events"]

    static func json(_ name: String, _ text: String, field: String? = nil) -> BadBody {
        BadBody(name: name, body: Array(text.utf8), code: "invalid_json", field: field)
    }

    static func invalid(
        _ name: String, _ event: EventJSON, field: String?,
        routes: Set<String> = ["/v1/events", "/v1/progress"]
    ) -> BadBody {
        BadBody(name: name, body: Array(event.text.utf8), code: "invalid_event", field: field, routes: routes)
    }

    static func table(nowMs: Int64) -> [BadBody] {
        let valid = EventJSON()
        let digits5000 = "1" + String(repeating: "0", count: 4999)
        let manyKeys = (0..<90_000).map { "\"k\($0)\":0" }.joined(separator: ",")
        var table: [BadBody] = [
            // Not a JSON document at all.
            json("empty body", ""),
            json("only white space", " \r\n\t "),
            json("plain text", "hello"),
            json("XML", "<event article=\"/a\"/>"),
            json("form encoding", "article=%2Fa&reader=r1"),
            json("an unterminated object", #"{"article":"/bad-input""#),
            json("a bare key", #"{article:"/bad-input"}"#),
            json("single quotes", "{'article':'/bad-input'}"),
            json("a trailing comma", #"{"article":"/bad-input",}"#),
            json("trailing garbage", valid.text + " x"),
            json("two objects", valid.text + valid.text),
            json("an object and a comma", valid.text + ","),
            json("a duplicate key", valid.with("reader", #""r2","reader":"r3""#).text),
            json("a raw tab in a string", valid.with("reader", "\"a\tb\"").text),
            json("a raw newline in a string", valid.with("reader", "\"a\nb\"").text),
            json("an unknown escape", valid.with("reader", #""a\qb""#).text),
            json("a short \\u escape", valid.with("reader", #""\u12""#).text),
            json("a lone high surrogate escape", valid.with("reader", #""\ud800""#).text),
            json("a lone low surrogate escape", valid.with("reader", #""\udc00""#).text),
            json("a high surrogate and a letter", valid.with("reader", #""\ud800\u0041""#).text),
            json("two high surrogates", valid.with("reader", #""\ud800\ud800""#).text),
            // Numbers.
            json("1e999", valid.with("engagedMs", "1e999").text),
            json("-1e999", valid.with("contentOffset", #"{"x":0,"y":-1e999}"#).text),
            json("NaN", valid.with("contentOffset", #"{"x":0,"y":NaN}"#).text),
            json("Infinity", valid.with("contentOffset", #"{"x":0,"y":Infinity}"#).text),
            json("-Infinity", valid.with("contentOffset", #"{"x":0,"y":-Infinity}"#).text),
            json("a leading zero", valid.with("engagedMs", "0123").text),
            json("a negative leading zero", valid.with("contentOffset", #"{"x":0,"y":-01}"#).text),
            json("a leading plus", valid.with("engagedMs", "+1").text),
            json("a leading dot", valid.with("contentOffset", #"{"x":0,"y":.5}"#).text),
            json("a trailing dot", valid.with("contentOffset", #"{"x":0,"y":1.}"#).text),
            json("a hex number", valid.with("engagedMs", "0x10").text),
            json("a 5,000-digit integer", valid.with("engagedMs", digits5000).text),
            json(
                "a 5,000-digit fraction", valid.with("contentOffset", "{\"x\":0,\"y\":0.\(digits5000)}").text),
            // Nesting: 100,000 levels must be refused, not recursed into.
            json("100,000 open arrays", String(repeating: "[", count: 100_000)),
            json(
                "100,000 nested arrays, closed",
                String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)),
            json("100,000 nested objects", String(repeating: #"{"a":"#, count: 100_000)),
            json(
                "deep nesting inside an event",
                valid.with("step", String(repeating: "[", count: 100_000)).text),
            // A quadratic duplicate-key check would spend minutes on this (10¹⁰ comparisons).
            json("90,000 distinct keys, then a repeat", "{\(manyKeys),\"k7\":1}"),
            // Neither an object nor an array.
            BadBody(name: "a string", body: Array(#""event""#.utf8), code: "invalid_event"),
            BadBody(name: "a number", body: Array("42".utf8), code: "invalid_event"),
            BadBody(name: "true", body: Array("true".utf8), code: "invalid_event"),
            BadBody(name: "null", body: Array("null".utf8), code: "invalid_event"),
            BadBody(name: "an empty array", body: Array("[]".utf8), code: "invalid_event"),
            BadBody(
                name: "an array of non-objects", body: Array(#"[1,"a",null]"#.utf8), code: "invalid_event"),
        ]

        // Bytes that are not UTF-8, inside a string and outside one.
        let invalidUTF8: [(String, [UInt8])] = [
            ("a stray continuation byte", [0x80]),
            ("0xFF", [0xFF]),
            ("an overlong '/'", [0xC0, 0xAF]),
            ("a truncated sequence", [0xE2, 0x82]),
            ("a UTF-8 encoded surrogate", [0xED, 0xA0, 0x80]),
            ("a code point above U+10FFFF", [0xF4, 0x90, 0x80, 0x80]),
        ]
        for (name, bytes) in invalidUTF8 {
            let prefix = Array(#"{"article":"/bad-input","reader":"a"#.utf8)
            let suffix = Array(valid.without("article").without("reader").text.dropFirst().utf8)
            table.append(
                BadBody(
                    name: "\(name) in a string", body: prefix + bytes + Array("\",".utf8) + suffix,
                    code: "invalid_json"))
            table.append(BadBody(name: "\(name) outside a string", body: bytes, code: "invalid_json"))
        }

        // Wrong types, missing fields, limits and every range rule of SPEC §4.
        let dayMs: Int64 = 86_400_000
        table += [
            invalid("article is a number", valid.with("article", "1"), field: "article", routes: eventsOnly),
            invalid(
                "article is an array", valid.with("article", #"["/a"]"#), field: "article", routes: eventsOnly
            ),
            invalid("reader is a boolean", valid.with("reader", "true"), field: "reader", routes: eventsOnly),
            invalid("axis is a number", valid.with("axis", "1"), field: "axis"),
            invalid("axis is unknown", valid.with("axis", #""diagonal""#), field: "axis"),
            invalid(
                "contentOffset is a string", valid.with("contentOffset", #""0,0""#), field: "contentOffset"),
            invalid(
                "contentOffset.y is a string", valid.with("contentOffset", #"{"x":0,"y":"100"}"#),
                field: "contentOffset.y"),
            invalid(
                "contentOffset.x is a boolean", valid.with("contentOffset", #"{"x":false,"y":1}"#),
                field: "contentOffset.x"),
            invalid("contentSize is an array", valid.with("contentSize", "[400,2000]"), field: "contentSize"),
            invalid(
                "contentSize.width is a string", valid.with("contentSize", #"{"width":"400","height":2000}"#),
                field: "contentSize.width"),
            invalid(
                "containerSize.height is an object",
                valid.with("containerSize", #"{"width":400,"height":{}}"#), field: "containerSize.height"),
            invalid("contentInsets is a number", valid.with("contentInsets", "0"), field: "contentInsets"),
            invalid(
                "contentInsets.top is a string", valid.with("contentInsets", #"{"top":"0"}"#),
                field: "contentInsets.top"),
            invalid("region is an array", valid.with("region", "[0,100]"), field: "region"),
            invalid("step is a string", valid.with("step", #""1/3""#), field: "step"),
            invalid(
                "step.index is a fraction", valid.with("step", #"{"index":0.5,"total":3}"#),
                field: "step.index"),
            invalid(
                "step.total is a string", valid.with("step", #"{"index":0,"total":"3"}"#), field: "step.total"
            ),
            invalid(
                "indicator.trackLength is a string",
                valid.with("indicator", #"{"trackLength":"90","thumbLength":40}"#),
                field: "indicator.trackLength"),
            invalid("engagedMs is a string", valid.with("engagedMs", #""5""#), field: "engagedMs"),
            invalid("engagedMs is a fraction", valid.with("engagedMs", "1.5"), field: "engagedMs"),
            invalid("time is a boolean", valid.with("time", "true"), field: "time"),
            invalid("time is a fraction", valid.with("time", "\(nowMs).5"), field: "time"),
            invalid("time is not a date", valid.with("time", #""yesterday""#), field: "time"),
            invalid("time is February 30", valid.with("time", #""2026-02-30T00:00:00Z""#), field: "time"),
            invalid("time has no zone", valid.with("time", #""2026-02-01T00:00:00""#), field: "time"),
            invalid("id is a number", valid.with("id", "7"), field: "id"),

            invalid("article is missing", valid.without("article"), field: "article", routes: eventsOnly),
            invalid("article is null", valid.with("article", "null"), field: "article", routes: eventsOnly),
            invalid("reader is missing", valid.without("reader"), field: "reader", routes: eventsOnly),
            invalid("contentOffset is missing", valid.without("contentOffset"), field: "contentOffset"),
            invalid("contentSize is missing", valid.without("contentSize"), field: "contentSize"),
            invalid("containerSize is missing", valid.without("containerSize"), field: "containerSize"),
            invalid(
                "contentOffset.x is missing", valid.with("contentOffset", #"{"y":100}"#),
                field: "contentOffset.x"),
            invalid(
                "contentSize.height is missing", valid.with("contentSize", #"{"width":400}"#),
                field: "contentSize.height"),
            invalid("region.end is missing", valid.with("region", #"{"start":0}"#), field: "region.end"),
            invalid("step.total is missing", valid.with("step", #"{"index":0}"#), field: "step.total"),
            invalid(
                "indicator.thumbLength is missing", valid.with("indicator", #"{"trackLength":90}"#),
                field: "indicator.thumbLength"),

            invalid("article is empty", valid.with("article", #""""#), field: "article", routes: eventsOnly),
            invalid(
                "article is 257 bytes", valid.with("article", "\"/\(String(repeating: "a", count: 256))\""),
                field: "article", routes: eventsOnly),
            invalid(
                "article is 258 bytes in 129 characters",
                valid.with("article", "\"\(String(repeating: "é", count: 129))\""), field: "article",
                routes: eventsOnly),
            invalid("reader is empty", valid.with("reader", #""""#), field: "reader", routes: eventsOnly),
            invalid(
                "reader is 129 bytes", valid.with("reader", "\"\(String(repeating: "r", count: 129))\""),
                field: "reader", routes: eventsOnly),
            invalid("id is empty", valid.with("id", #""""#), field: "id"),
            invalid(
                "id is 65 bytes", valid.with("id", "\"\(String(repeating: "i", count: 65))\""), field: "id"),
            invalid(
                "article holds an escaped NUL", valid.with("article", #""/a\u0000b""#), field: "article",
                routes: eventsOnly),
            invalid(
                "article holds an escaped newline", valid.with("article", #""/a\nb""#), field: "article",
                routes: eventsOnly),
            invalid(
                "reader holds DEL", valid.with("reader", #""r\u007f""#), field: "reader", routes: eventsOnly),
            invalid(
                "reader holds a tab", valid.with("reader", #""r\tr""#), field: "reader", routes: eventsOnly),
            invalid("id holds a C1 control", valid.with("id", #""x\u0085""#), field: "id"),

            invalid(
                "time more than 5 minutes ahead", valid.with("time", "\(nowMs + 5 * 60_000 + 60_000)"),
                field: "time"),
            invalid(
                "time more than 5 minutes ahead, as RFC 3339",
                valid.with("time", Scenario.quote(Scenario.rfc3339(nowMs + 3_600_000))), field: "time"),
            invalid(
                "time more than 30 days old", valid.with("time", "\(nowMs - 30 * dayMs - 60_000)"),
                field: "time"),
            invalid("time in 1970", valid.with("time", "0"), field: "time"),
            invalid("time before 1970", valid.with("time", "-86400000"), field: "time"),
            invalid("time in the year 9999", valid.with("time", #""9999-12-31T23:59:59Z""#), field: "time"),
            invalid("engagedMs is negative", valid.with("engagedMs", "-1"), field: "engagedMs"),
            invalid("engagedMs is over a day", valid.with("engagedMs", "86400001"), field: "engagedMs"),
            invalid("engagedMs is 1e300", valid.with("engagedMs", "1e300"), field: "engagedMs"),
            invalid(
                "region.start is negative", valid.with("region", #"{"start":-1,"end":100}"#),
                field: "region.start"),
            invalid(
                "region.end is past the content", valid.with("region", #"{"start":0,"end":2001}"#),
                field: "region.end"),
            invalid("region is empty", valid.with("region", #"{"start":100,"end":100}"#), field: "region"),
            invalid("region is reversed", valid.with("region", #"{"start":500,"end":100}"#), field: "region"),
            invalid(
                "step.index is negative", valid.with("step", #"{"index":-1,"total":3}"#), field: "step.index"),
            invalid("step.total is zero", valid.with("step", #"{"index":0,"total":0}"#), field: "step.total"),
            invalid(
                "step.index is past Int32", valid.with("step", #"{"index":4294967296,"total":3}"#),
                field: "step.index"),
            invalid(
                "indicator.trackLength is zero",
                valid.with("indicator", #"{"trackLength":0,"thumbLength":0}"#),
                field: "indicator.trackLength"),
            invalid(
                "indicator.trackLength is negative",
                valid.with("indicator", #"{"trackLength":-90,"thumbLength":0}"#),
                field: "indicator.trackLength"),
            invalid(
                "indicator.thumbLength is longer than the track",
                valid.with("indicator", #"{"trackLength":90,"thumbLength":91}"#),
                field: "indicator.thumbLength"),
            invalid(
                "indicator.thumbLength is negative",
                valid.with("indicator", #"{"trackLength":90,"thumbLength":-1}"#),
                field: "indicator.thumbLength"),
        ]
        for (size, other) in [("contentSize", "2000"), ("containerSize", "1000")] {
            table.append(
                invalid(
                    "\(size).width is negative", valid.with(size, "{\"width\":-1,\"height\":\(other)}"),
                    field: "\(size).width"))
            table.append(
                invalid(
                    "\(size).height is negative", valid.with(size, "{\"width\":400,\"height\":-0.5}"),
                    field: "\(size).height"))
        }
        for edge in ["top", "leading", "bottom", "trailing"] {
            table.append(
                invalid(
                    "contentInsets.\(edge) is negative", valid.with("contentInsets", "{\"\(edge)\":-1}"),
                    field: "contentInsets.\(edge)"))
        }

        // Media types.
        for type in [
            "application/xml", "text/html", "multipart/form-data; boundary=x",
            "application/x-www-form-urlencoded",
            "application/json; charset=iso-8859-1", "text/plain; charset=utf-16",
        ] {
            table.append(
                BadBody(
                    name: "Content-Type \(type)", body: Array(valid.text.utf8), contentType: type,
                    status: 415,
                    code: "unsupported_media_type"))
        }
        table.append(
            BadBody(
                name: "no Content-Type", body: Array(valid.text.utf8), contentType: nil, status: 415,
                code: "unsupported_media_type"))
        table.append(
            BadBody(
                name: "NDJSON on /v1/progress", body: Array(valid.text.utf8),
                contentType: "application/x-ndjson",
                status: 415, code: "unsupported_media_type", routes: ["/v1/progress"]))

        // Batches.
        let validEvent = valid.text
        table += [
            BadBody(
                name: "a batch of 1001 valid events",
                body: Array(
                    ("[" + Array(repeating: validEvent, count: 1001).joined(separator: ",") + "]").utf8),
                status: 413, code: "batch_too_large", routes: eventsOnly),
            BadBody(
                name: "1001 valid NDJSON lines",
                body: Array(Array(repeating: validEvent, count: 1001).joined(separator: "\n").utf8),
                contentType: "application/x-ndjson", status: 413, code: "batch_too_large", routes: eventsOnly),
            BadBody(
                name: "a batch in which no event is valid",
                body: Array("[\(valid.without("reader").text),\(valid.with("engagedMs", "-1").text)]".utf8),
                code: "invalid_event", routes: eventsOnly),
            BadBody(
                name: "a batch whose one event is invalid",
                body: Array("[\(valid.with("engagedMs", "-1").text)]".utf8), code: "invalid_event",
                field: "[0].engagedMs", routes: eventsOnly),
            BadBody(
                name: "NDJSON whose every line is broken",
                body: Array("{\n\(valid.with("axis", "1").text)\n".utf8), contentType: "application/x-ndjson",
                code: "invalid_event", routes: eventsOnly),
            BadBody(
                name: "an event batch on /v1/progress", body: Array("[\(validEvent)]".utf8),
                code: "invalid_event",
                routes: ["/v1/progress"]),
        ]
        return table
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
