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

    @Test("an event without sections, attention or source has no parts, its devices in the fixed part")
    func plainLayout() throws {
        var named = Self.plain
        named.device = .desktop
        named.widthDevice = .tablet
        let bytes = EventLogCodec.encode([named])
        // layout, article, reader, time, progress, seen, flags, devices, engaged, id
        #expect(bytes.count == 1 + (2 + 2) + (2 + 1) + 8 * 3 + 1 + 1 + 8 + (2 + 3))
        #expect(bytes[0] == 3)
        #expect(bytes[1 + 4 + 3 + 24] == 3)  // scrollable | has id
        #expect(bytes[1 + 4 + 3 + 24 + 1] == 3 | 2 << 4)  // desktop, tablet
        #expect(try EventLogCodec.decode(bytes) == [named])
    }

    /// An entry of layout 1, as earlier builds wrote it: the devices byte among the parts,
    /// after the sections, with flag 16.
    static func layoutOne(devices: UInt8?, parts: Bool) -> [UInt8] {
        func string(_ text: String) -> [UInt8] {
            let utf8 = Array(text.utf8)
            return [UInt8(utf8.count & 0xFF), UInt8(utf8.count >> 8)] + utf8
        }
        func word(_ value: UInt64) -> [UInt8] { (0..<8).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) } }
        func word32(_ value: UInt32) -> [UInt8] {
            (0..<4).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
        }
        var flags: UInt8 = 1 | 2
        if parts { flags |= 4 | 8 | 32 }
        if devices != nil { flags |= 16 }
        var bytes: [UInt8] = [1] + string("/a") + string("r") + word(UInt64(1_796_025_600_000))
        bytes += word((0.5).bitPattern) + word((0.75).bitPattern) + [flags] + word(1200) + string("e-1")
        if parts {
            for band in 0..<20 { bytes += word32(UInt32(band * 45)) }
            bytes += [2] + string("Intro") + word((0.0).bitPattern) + word32(12)
            bytes += string("B") + word((0.5).bitPattern) + word32(UInt32(bitPattern: -1))
        }
        if let devices { bytes.append(devices) }
        if parts { bytes += string("news") }
        return bytes
    }

    @Test("entries of layout 1, with and without parts and devices, still read", arguments: [false, true])
    func layoutOneReads(parts: Bool) throws {
        var expected = Self.plain
        #expect(
            try EventLogCodec.decode(Self.layoutOne(devices: nil, parts: parts)) == [partsOf(expected, parts)]
        )
        expected.device = .tablet
        expected.widthDevice = .phone
        let decoded = try EventLogCodec.decode(Self.layoutOne(devices: 2 | 1 << 4, parts: parts))
        #expect(decoded == [partsOf(expected, parts)])
        // And it reads back the same after a write of this build's layout.
        #expect(try EventLogCodec.decode(EventLogCodec.encode(decoded)) == decoded)
    }

    private func partsOf(_ event: EventRecord, _ parts: Bool) -> EventRecord {
        guard parts else { return event }
        var event = event
        event.attention = (0..<20).map { UInt32($0 * 45) }
        event.sections = [Section(title: "Intro", start: 0, words: 12), Section(title: "B", start: 0.5)]
        event.source = "news"
        return event
    }

    @Test("flag 16 in an entry of this build's layout is refused")
    func devicesFlagRefused() {
        var bytes = EventLogCodec.encode([Self.plain])
        bytes[1 + 4 + 3 + 24] |= 16
        #expect(throws: StoreError.self) { try EventLogCodec.decode(bytes) }
    }

    @Test("an event's parts are its values: setting them changes only that copy, and nil removes them")
    func partsValues() {
        var copy = Self.full
        copy.source = "mail"
        #expect(Self.full.source == "news")
        #expect(copy.source == "mail" && copy.sections == Self.full.sections && copy != Self.full)
        copy.sections = nil
        copy.attention = nil
        copy.source = nil
        #expect(copy.parts == nil)
        copy.source = "news"
        #expect(copy.source == "news" && copy.attention == nil)
    }

    @Test("a damaged parts byte is refused, not read as something else")
    func damaged() {
        var bytes = EventLogCodec.encode([Self.full])
        bytes.removeLast(3)
        #expect(throws: StoreError.self) { try EventLogCodec.decode(bytes) }
    }
}
