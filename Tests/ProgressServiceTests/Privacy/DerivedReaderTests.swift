import HTTPServer
import ProgressStore
import Testing

@testable import ProgressService

@Suite("Derived reader ids")
struct DerivedReaderTests {
    static let salt = DailySalt(day: 20_000, bytes: (0..<16).map { UInt8($0) })
    static let otherSalt = DailySalt(day: 20_001, bytes: (0..<16).map { UInt8(100 + $0) })

    static func id(
        salt: DailySalt = salt, address: String? = "203.0.113.9", agent: String? = "Agent/1.0",
        origin: String? = "https://example.com"
    ) -> String {
        var headers: [(name: String, value: String)] = []
        if let agent { headers.append(("User-Agent", agent)) }
        if let origin { headers.append(("Origin", origin)) }
        let request = HTTPRequest(method: "POST", path: "/v1/events", headers: headers)
        return DerivedReaders.readerID(
            salt: salt, address: address.flatMap { IPAddress($0) }, request: request)
    }

    @Test("U+007F, then the 16 bytes in base64url: 23 bytes that no client's id can be")
    func shape() throws {
        let id = Self.id()
        let bytes = Array(id.utf8)
        #expect(bytes.count == DerivedReaders.idBytes)
        #expect(bytes.first == 0x7F)
        let alphabet = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)
        #expect(bytes.dropFirst().allSatisfy(alphabet.contains))
        // The decoder refuses such an id from a client.
        let event =
            #"{"article":"/a","reader":"\u007f\#(id.dropFirst())","contentOffset":{"x":0,"y":0},"contentSize":{"width":1,"height":1},"containerSize":{"width":1,"height":1}}"#
        #expect(throws: APIError.self) {
            try EventBatch.decode(Array(event.utf8), format: .json, using: EventDecoder())
        }
    }

    @Test("the encoding is base64url of the hash's bytes, first word then second, little-endian")
    func encoding() {
        // 00 01 02 … 0f in base64url.
        let encoded = DerivedReaders.encode(0x0706_0504_0302_0100, 0x0F0E_0D0C_0B0A_0908)
        #expect(encoded == "\u{7F}AAECAwQFBgcICQoLDA0ODw")
        #expect(DerivedReaders.encode(.max, .max) == "\u{7F}" + String(repeating: "_", count: 21) + "w")
    }

    @Test("the same address, agent and site under the same salt: the same id; any of them other: another")
    func inputs() {
        let base = Self.id()
        #expect(Self.id() == base)
        let others = [
            Self.id(address: "203.0.113.10"), Self.id(address: "2001:db8::1"), Self.id(address: nil),
            Self.id(agent: "Agent/1.1"), Self.id(agent: nil), Self.id(agent: ""),
            Self.id(origin: "https://example.org"), Self.id(origin: nil), Self.id(salt: Self.otherSalt),
        ]
        for other in others { #expect(other != base) }
        // Absent and empty are alike: both are nothing to hash.
        #expect(Self.id(agent: nil) == Self.id(agent: ""))
        #expect(Set(others).count == others.count - 1)
    }

    @Test("only the Origin's host counts, in any case; no host is no site")
    func originHost() {
        let base = Self.id()
        for same in [
            "https://example.com:8443", "http://EXAMPLE.com", "https://Example.COM/", "https://example.com?x",
        ] {
            #expect(Self.id(origin: same) == base, "\(same)")
        }
        #expect(Self.id(origin: "null") == Self.id(origin: nil))
        #expect(Self.id(origin: "example.com") == Self.id(origin: nil))
        #expect(Self.id(origin: "https://[2001:db8::1]:443") == Self.id(origin: "https://[2001:DB8::1]"))
        #expect(Self.id(origin: "https://[2001:db8::1]") != Self.id(origin: "https://[2001:db8::2]"))
    }

    @Test("each field is preceded by its length, so moving bytes from one field to the next changes the id")
    func lengths() {
        #expect(Self.id(agent: "ab", origin: "https://c") != Self.id(agent: "a", origin: "https://bc"))
        #expect(Self.id(agent: "", origin: "https://a") != Self.id(agent: "a", origin: nil))
    }

    @Test("an IPv4 peer seen over IPv6 (mapped) is the same client as over IPv4")
    func mapped() {
        #expect(Self.id(address: "::ffff:203.0.113.9") == Self.id())
    }
}

@Suite("The retention window of event times")
struct TimeWindowTests {
    static let dayMs: Int64 = 86_400_000
    static let now = 20_000 * dayMs + 3_600_000

    @Test("with N days kept, the first kept day is today − N + 1; before it is invalid_event on time")
    func window() throws {
        let window = TimeWindow(nowMs: Self.now, retentionDays: 3)
        try window.check(Self.now)
        try window.check(19_998 * Self.dayMs)
        #expect {
            try window.check(19_998 * Self.dayMs - 1)
        } throws: { error in
            let error = error as? APIError
            return error?.code == "invalid_event" && error?.field == "time"
                && error?.message.contains("2024-10-02") == true
        }
        let today = TimeWindow(nowMs: Self.now, retentionDays: 1)
        try today.check(20_000 * Self.dayMs)
        #expect(throws: APIError.self) { try today.check(20_000 * Self.dayMs - 1) }
    }

    @Test("0 keeps every day the 30-day limit lets in")
    func keepEverything() throws {
        let window = TimeWindow(nowMs: Self.now, retentionDays: 0)
        try window.check(Self.now - 29 * Self.dayMs)
        #expect(throws: APIError.self) { try window.check(Self.now - 31 * Self.dayMs) }
    }
}
