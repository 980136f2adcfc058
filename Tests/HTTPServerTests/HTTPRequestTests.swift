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

    @Test("the fields read back in order, and can be replaced")
    func fieldsRoundTrip() {
        var request = request
        #expect(request.headers.map(\.name) == ["Content-Type", "X-Twice", "x-twice"])
        #expect(request.headers.map(\.value) == ["text/plain", "first", "second"])
        request.headers = [(name: "Origin", value: "https://ü.example")]
        #expect(request.header("origin") == "https://ü.example")
        #expect(request.header("Content-Type") == nil)
        request.remoteAddress = "::1"
        #expect(request.remoteAddress == "::1")
    }

    @Test("only letters fold case: a name differing in a non-letter by 0x20 is another name")
    func foldsLettersOnly() {
        let request = HTTPRequest(method: "GET", path: "/", headers: [(name: "X-A", value: "dash")])
        #expect(request.header("x-a") == "dash")
        #expect(request.header("X\rA") == nil)  // "-" is 0x2D, "\r" is 0x0D
    }

    @Test("a missing header is nil, even when a prefix matches")
    func missing() {
        #expect(request.header("Content") == nil)
        #expect(request.header("Content-Type-X") == nil)
    }
}
