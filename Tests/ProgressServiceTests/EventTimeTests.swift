import Testing

@testable import ProgressService

@Suite("Event times")
struct EventTimeTests {
    // 2026-11-30T08:00:00Z = 20_787 days × 86_400_000 + 8 h.
    static let morning: Int64 = 20_787 * 86_400_000 + 8 * 3_600_000

    static let examples: [(String, Int64)] = [
        ("2026-11-30T08:00:00Z", morning),
        ("2026-11-30t08:00:00z", morning),
        ("2026-11-30 08:00:00Z", morning),
        ("2026-11-30T08:00:00.250Z", morning + 250),
        ("2026-11-30T08:00:00.1Z", morning + 100),
        ("2026-11-30T08:00:00.123456Z", morning + 123),
        ("2026-11-30T09:30:00+01:30", morning),
        ("2026-11-30T06:00:00-02:00", morning),
        ("1970-01-01T00:00:00Z", Int64(0)),
        ("2024-02-29T00:00:00Z", 19_782 * 86_400_000),
    ]

    @Test("parses RFC 3339", arguments: examples)
    func parses(text: String, expected: Int64) {
        #expect(EventTime.parseRFC3339(text) == expected)
    }

    @Test(
        "rejects what is not RFC 3339",
        arguments: [
            "2026-11-30", "2026-11-30T08:00:00", "2026-13-01T00:00:00Z", "2026-02-29T00:00:00Z",
            "2026-11-31T00:00:00Z", "2026-11-30T24:00:00Z", "2026-11-30T08:00:00.Z",
            "2026-11-30T08:00:00+0100",
            "2026-11-30T08:00:00Zjunk", "yesterday", "2026-11-30T08:60:00Z",
        ])
    func rejects(text: String) {
        #expect(EventTime.parseRFC3339(text) == nil)
    }

    @Test("formats UTC with milliseconds only when present")
    func formats() {
        #expect(EventTime.format(Self.morning) == "2026-11-30T08:00:00Z")
        #expect(EventTime.format(Self.morning + 5) == "2026-11-30T08:00:00.005Z")
        #expect(EventTime.format(0) == "1970-01-01T00:00:00Z")
        #expect(EventTime.format(-1) == "1969-12-31T23:59:59.999Z")
    }

    @Test("query dates")
    func days() {
        #expect(EventTime.parseDay("2026-11-30") == 20_787)
        #expect(EventTime.parseDay("1970-01-01") == 0)
        #expect(EventTime.parseDay("2026-1-30") == nil)
        #expect(EventTime.parseDay("2026-02-30") == nil)
    }

    @Test("keeps times within 5 minutes ahead and 30 days behind")
    func window() throws {
        let now = Self.morning
        try EventTime.check(now + 300_000, nowMs: now)
        try EventTime.check(now - 30 * 86_400_000, nowMs: now)
        #expect(throws: APIError.self) { try EventTime.check(now + 300_001, nowMs: now) }
        #expect(throws: APIError.self) { try EventTime.check(now - 30 * 86_400_000 - 1, nowMs: now) }
    }
}
