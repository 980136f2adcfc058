import HTTPServer
import Testing

@testable import ProgressService

@Suite("Request support: paths, queries, tokens, CORS, cursors")
struct SupportTests {
    @Test("an article id round-trips through one percent-encoded segment")
    func articlePaths() {
        #expect(
            Route(path: "/v1/articles/%2Fblog%2F2026%2Fhow-to-read/stats")
                == .stats(rawArticle: "%2Fblog%2F2026%2Fhow-to-read"))
        #expect(percentDecode("%2Fblog%2F2026%2Fhow%20to%2Bread+x") == "/blog/2026/how to+read+x")
        #expect(percentDecode("caf%C3%A9") == "café")
        #expect(percentDecode("%zz") == nil)
        #expect(percentDecode("%C3") == nil)
        #expect(Route(path: "/v1/articles//stats") == nil)
        #expect(Route(path: "/v1/nothing") == nil)
    }

    @Test("queries decode, and a name given twice is refused")
    func queries() throws {
        let query = try QueryParameters("metric=seenDepth&threshold=0.5&from=2026-11-01&x=a+b%21")
        #expect(query["metric"] == "seenDepth")
        #expect(try query.number("threshold", in: 0...1) == 0.5)
        #expect(query["x"] == "a b!")
        #expect(throws: APIError.self) { try QueryParameters("a=1&a=2") }
        #expect(throws: APIError.self) { try QueryParameters("threshold=1.5").number("threshold", in: 0...1) }
        #expect(throws: APIError.self) { try QueryParameters("threshold=nan").number("threshold", in: 0...1) }
        #expect(throws: APIError.self) {
            try QueryParameters("threshold=0x1p-1").number("threshold", in: 0...1)
        }
        #expect(throws: APIError.self) { try QueryParameters("from=2026-11-02&to=2026-11-01").dayRange() }
        #expect(throws: APIError.self) { try QueryParameters("limit=0").integer("limit", in: 1...1000) }
    }

    @Test("bearer tokens")
    func tokens() {
        let token = BearerToken("s3cret")
        #expect(token.accepts(authorization: "Bearer s3cret"))
        #expect(token.accepts(authorization: "bearer s3cret"))
        #expect(!token.accepts(authorization: "Bearer s3cre"))
        #expect(!token.accepts(authorization: "Bearer s3cret!"))
        #expect(!token.accepts(authorization: "Basic s3cret"))
        #expect(!token.accepts(authorization: nil))
    }

    @Test("CORS echoes allowed origins only")
    func cors() {
        let policy = CORSPolicy(allowedOrigins: ["https://a.example", " https://b.example"])
        let allowed = policy.headers(for: "https://b.example")
        #expect(
            allowed.contains { $0.name == "Access-Control-Allow-Origin" && $0.value == "https://b.example" })
        #expect(allowed.contains { $0.name == "Access-Control-Allow-Credentials" && $0.value == "true" })
        #expect(allowed.contains { $0.name == "Vary" && $0.value == "Origin" })
        #expect(
            !policy.headers(for: "https://evil.example").contains { $0.name == "Access-Control-Allow-Origin" }
        )
        let any = CORSPolicy(allowedOrigins: ["*"])
        #expect(any.headers(for: "https://x.example").contains { $0.value == "https://x.example" })
    }

    @Test("cursors are bound to their query")
    func cursors() throws {
        let context = PageCursor.Context(order: "readers", from: nil, to: 20_000)
        let cursor = PageCursor.make(offset: 50, context: context)
        #expect(try PageCursor.offset(from: cursor, context: context) == 50)
        let other = PageCursor.Context(order: "recent", from: nil, to: 20_000)
        #expect(throws: APIError.self) { try PageCursor.offset(from: cursor, context: other) }
        #expect(throws: APIError.self) {
            try PageCursor.offset(from: "51" + cursor.dropFirst(2), context: context)
        }
        #expect(throws: APIError.self) { try PageCursor.offset(from: "garbage", context: context) }
    }

    @Test("content types")
    func contentTypes() {
        #expect(BodyFormat(contentType: "application/json") == .json)
        #expect(BodyFormat(contentType: "Application/JSON; charset=UTF-8") == .json)
        #expect(BodyFormat(contentType: "text/plain;charset=utf-8") == .json)
        #expect(BodyFormat(contentType: "application/x-ndjson") == .ndjson)
        #expect(BodyFormat(contentType: "application/json; charset=latin1") == nil)
        #expect(BodyFormat(contentType: "application/x-www-form-urlencoded") == nil)
        #expect(BodyFormat(contentType: nil) == nil)
    }

    @Test(
        "a request's content type reads as its header field's text does, on the fast path or off it",
        arguments: [
            "application/json", "application/json; charset=utf-8", "text/plain;charset=UTF-8",
            "application/x-ndjson", "Application/JSON", "application/json;charset=utf-8",
            "text/plain", "application/jsonl", "application/json; charset=latin1", "application/jsox",
            "image/png", "", "application/x-ndjsom", "text/plain;charset=UTF-9",
        ])
    func contentTypeOfRequest(value: String) {
        let request = HTTPRequest(method: "POST", path: "/v1/events", headers: [("content-type", value)])
        #expect(BodyFormat(of: request) == BodyFormat(contentType: value))
    }

    @Test("a request without a content type has no format")
    func noContentType() {
        #expect(BodyFormat(of: HTTPRequest(method: "POST", path: "/v1/events")) == nil)
    }
}
