import ProgressStore
import Testing

@Suite("The journal's encoding of events, with and without their parts")
struct EventLogCodecTests {
    static let plain = EventRecord(
        article: "/a", reader: "r", timeMs: 1_796_025_600_000, progress: 0.5, seenDepth: 0.75,
        scrollable: true,
        engagedMs: 1200, eventID: "e-1")

    static let full = EventRecord(
        article: "/é", reader: "r2", timeMs: -5, progress: 0, seenDepth: 1, scrollable: false, engagedMs: 900,
        sections: [Section(title: "Intro 🧪", start: 0, words: 12), Section(title: "B", start: 0.5)],
        attention: (0..<20).map { UInt32($0 * 45) }, device: .tablet, widthDevice: .phone, source: "news")

    @Test("every part reads back as it was written")
    func roundTrip() throws {
        let events = [
            Self.plain, Self.full,
            EventRecord(
                article: "/h", reader: "r", timeMs: 0, progress: 0, seenDepth: 0, scrollable: true,
                engagedMs: 0,
                sections: [], widthDevice: nil, source: nil),
        ]
        #expect(try EventLogCodec.decode(EventLogCodec.encode(events)) == events)
        var named = Self.plain
        named.device = .other
        #expect(try EventLogCodec.decode(EventLogCodec.encode([named])) == [named])
    }

    @Test("an event without parts is written as before they existed")
    func plainLayout() {
        let bytes = EventLogCodec.encode([Self.plain])
        // version, article, reader, time, progress, seen, flags, engaged, id
        #expect(bytes.count == 1 + (2 + 2) + (2 + 1) + 8 * 3 + 1 + 8 + (2 + 3))
        #expect(bytes[1 + 4 + 3 + 24] == 3)  // scrollable | has id
    }

    @Test("a damaged parts byte is refused, not read as something else")
    func damaged() {
        var bytes = EventLogCodec.encode([Self.full])
        bytes.removeLast(3)
        #expect(throws: StoreError.self) { try EventLogCodec.decode(bytes) }
    }
}
