import ProgressStore
import Testing

@testable import EmbeddedStore

@Suite("Day records: 16-bit event counts and the values held aside")
struct DayRecordTests {
    static let day: Int32 = 20_000

    /// `events` events at one moment of `day`.
    static func figures(on day: Int32 = day, events: Int64 = 1) -> ReaderFigures {
        let time = Int64(day) * 86_400_000 + 1_000
        return ReaderFigures(
            maxProgress: 0.5, maxSeenDepth: 0.6, scrollable: true, events: events, engagedMs: 100,
            firstMs: time, lastMs: time)
    }

    @Test("the table agrees with a dictionary through inserts, updates and removals")
    func wideValuesModel() {
        var table = WideValues()
        var model: [Int32: Int64] = [:]
        var random = SplitMix(state: 11)
        for step in 0..<20_000 {
            // Few keys, densely packed and with runs, so that probe runs form and removals shift them.
            let key = Int32.random(in: 0..<300, using: &random)
            switch Int.random(in: 0..<3, using: &random) {
            case 0:
                #expect(
                    table.updateValue(Int64(step), forKey: key) == model.updateValue(Int64(step), forKey: key)
                )
            case 1:
                table[key] = nil
                model[key] = nil
            default:
                #expect(table[key] == model[key])
            }
        }
        #expect(table.count == model.count)
        for key in Int32(0)..<300 { #expect(table[key] == model[key]) }
        #expect(Dictionary(uniqueKeysWithValues: table.entries.map { ($0.key, $0.value) }) == model)
    }

    @Test(
        "day and event count share a word without disturbing each other",
        arguments: [
            DayRecord.days.lowerBound, -1, 0, 20_000, DayRecord.days.upperBound,
        ])
    func packing(day: Int32) {
        var record = DayRecord(
            day: day, engaged: 7, bits: DayRecord.scrollableBit | DayRecord.otherDaysBit | 3 << 27 | 2,
            maxProgress: 1, maxSeenDepth: 1)
        for events: UInt64 in [0, 1, 254, 255, 256, 0x1234, 0xFFFE, DayRecord.wideEvents] {
            record.narrowEvents = events
            #expect(record.narrowEvents == events)
            #expect(record.day == day)
            #expect(record.scrollable && record.hasOtherDays)
            #expect(record.firstOffset == 2 && record.lastOffset == 3)
        }
    }

    @Test("a reader past 254 events keeps the count in the record; past 16 bits it goes aside")
    func countsStayInTheRecord() throws {
        var article = ArticleIndex(name: "/a")
        _ = article.fold(reader: "many", day: Self.day, Self.figures())
        for _ in 1..<300 { _ = article.fold(reader: "many", day: Self.day, Self.figures()) }
        #expect(article.firstDays.records[0].narrowEvents == 300)
        #expect(article.firstDays.wideEvents.count == 0)
        #expect(article.firstDays.figures(at: 0).events == 300)

        _ = article.fold(reader: "many", day: Self.day, Self.figures(events: 70_000))
        #expect(article.firstDays.records[0].narrowEvents == DayRecord.wideEvents)
        #expect(article.firstDays.wideEvents[0] == 70_300)
        _ = article.fold(reader: "many", day: Self.day, Self.figures())
        #expect(article.firstDays.figures(at: 0).events == 70_301)
        #expect(article.firstDays.wideEvents.count == 1)
    }

    @Test("a snapshot writes counts from 255 as wide values, and reading puts them back in the record")
    func snapshotRoundTrip() throws {
        var article = ArticleIndex(name: "/a")
        // Counts either side of 8 and of 16 bits, on first days and on other days.
        for (slot, events) in [1, 254, 255, 300, 65_534, 65_535, 1 << 40].enumerated() {
            let reader = "r\(slot)"
            _ = article.fold(reader: reader, day: Self.day, Self.figures(events: Int64(events)))
            _ = article.fold(
                reader: reader, day: Self.day + 1, Self.figures(on: Self.day + 1, events: Int64(events)))
        }
        let bytes = ArticleCodec.encode(article, mark: 9)
        // Format 1 has 8 bits for a count: from 255 on, the count is among the wide values.
        let layout = article.wideValues
        #expect(layout.filter { $0.column == 0 }.map(\.value) == [255, 300, 65_534, 65_535, 1 << 40])
        #expect(layout.filter { $0.column == 2 }.map(\.value) == [255, 300, 65_534, 65_535, 1 << 40])

        let decoded = try bytes.withUnsafeBytes { try ArticleCodec.decode($0) }.index
        for days in [\ArticleIndex.firstDays, \ArticleIndex.otherDays] {
            let (before, after) = (article[keyPath: days], decoded[keyPath: days])
            #expect(after.count == before.count)
            for record in 0..<before.count {
                #expect(after.records[record] == before.records[record])
                #expect(after.figures(at: record) == before.figures(at: record))
            }
            // Only the counts that outgrow 16 bits are held aside, after a restart as before.
            #expect(after.wideEvents.count == 2)
            #expect(before.wideEvents.count == 2)
        }
        #expect(ArticleCodec.encode(decoded, mark: 9) == bytes)
    }

    @Test("a value given twice for one count is refused, even when the first went aside")
    func duplicateWideValue() throws {
        var article = ArticleIndex(name: "/d")
        for reader in ["r0", "r1"] {
            _ = article.fold(reader: reader, day: Self.day, Self.figures(events: 70_000))
        }
        var bytes = ArticleCodec.encode(article, mark: 1)
        // Two readers, no histograms: the wide values (column, record, value) come just before
        // the two readers' segments and the checksum. Turn r1's into a second, smaller value for r0.
        let second = bytes.count - 8 - 2 * ArticleCodec.segmentSize - 13
        #expect(bytes[second] == 0 && bytes[second + 1] == 1)
        bytes[second + 1] = 0
        withUnsafeBytes(of: Int64(300).littleEndian) {
            bytes.replaceSubrange(second + 5..<second + 13, with: $0)
        }
        let checksum = bytes.withUnsafeBytes {
            XXH64.hash(UnsafeRawBufferPointer(rebasing: $0[..<(bytes.count - 8)]))
        }
        withUnsafeBytes(of: checksum.littleEndian) {
            bytes.replaceSubrange(bytes.count - 8..<bytes.count, with: $0)
        }
        #expect(throws: StoreError.self) { try bytes.withUnsafeBytes { try ArticleCodec.decode($0) } }
    }

}
