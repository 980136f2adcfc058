import ProgressStore
import Testing

@Suite("UTC days, FNV-1a")
struct UTCDayTests {
    @Test(
        "the day of a time, before 1970 too, and clamped far out",
        arguments: [
            (0, 0), (86_399_999, 0), (86_400_000, 1), (-1, -1), (-86_400_000, -1), (-86_400_001, -2),
            (20_787 * 86_400_000 + 8 * 3_600_000, 20_787), (.max, .max), (.min, .min),
        ] as [(Int64, Int32)])
    func day(ms: Int64, day: Int32) {
        #expect(UTCDay.of(ms: ms) == day)
    }

    @Test("a day starts on its first millisecond", arguments: [-2, -1, 0, 1, 20_787] as [Int32])
    func start(day: Int32) {
        #expect(UTCDay.of(ms: UTCDay.start(of: day)) == day)
        #expect(UTCDay.of(ms: UTCDay.start(of: day) - 1) == day - 1)
    }

    /// The reference vectors of the FNV authors' test suite.
    @Test(
        "FNV-1a 64 of the reference strings",
        arguments: [("", "cbf29ce484222325"), ("a", "af63dc4c8601ec8c"), ("foobar", "85944171f73967e8")])
    func fnv(text: String, hex: String) {
        #expect(FNV1a.hex(text.utf8) == hex)
        #expect(FNV1a.hash(text.utf8) == UInt64(hex, radix: 16))
    }
}
