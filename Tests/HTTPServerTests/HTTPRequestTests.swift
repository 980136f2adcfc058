import HTTPServer
import Testing

@Suite("HTTPRequest without sockets")
struct HTTPRequestTests {
    let request = HTTPRequest(
        method: "POST", path: "/v1/events",
        headers: [
            (name: "Content-Type", value: "text/plain"),
            (name: "X-Twice", value: "first"),
            (name: "x-twice", value: "second"),
        ])

    @Test("header lookup ignores case", arguments: ["content-type", "CONTENT-TYPE", "Content-Type"])
    func caseInsensitive(name: String) {
        #expect(request.header(name) == "text/plain")
    }

    @Test("header lookup returns the first match")
    func firstMatch() {
        #expect(request.header("X-TWICE") == "first")
    }

    @Test("a missing header is nil, even when a prefix matches")
    func missing() {
        #expect(request.header("Content") == nil)
        #expect(request.header("Content-Type-X") == nil)
    }
}
