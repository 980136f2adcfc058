import Foundation
import Testing

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
        syntax() + fields(nowMs: nowMs) + mediaTypesAndBatches()
    }

    /// Bodies that are not JSON, or not UTF-8, or not the shape of an event or a batch.
    static func syntax() -> [BadBody] {
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
        return table
    }
}
