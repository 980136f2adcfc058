import ProgressStore
import Testing

@testable import EmbeddedStore

@Suite("Recent ids: 64-bit digests in an open-addressing table")
struct RecentIDTableTests {
    @Test("the table agrees with a set through inserts, fills and removals")
    func model() {
        let table = RecentIDTable()
        var model: Set<UInt64> = []
        var random = SplitMix(state: 5)
        // Digests whose low bits crowd into few home slots, so that long probe runs form, wrap
        // around the end and shift back on removal; the high bits alone tell some apart.
        func digest(_ key: UInt64) -> IDDigest { IDDigest(nonZero: key % 97 + 1 + key << 32) }
        for _ in 0..<30_000 {
            let key = UInt64.random(in: 0..<400, using: &random)
            switch Int.random(in: 0..<4, using: &random) {
            case 0:
                #expect(table.insert(digest(key)) == model.insert(key).inserted)
            case 1:
                table.reserveOne()
                let slot = table.slot(for: digest(key))
                #expect(slot.holds == model.contains(key))
                if !slot.holds {
                    table.fill(slot.index, digest(key))
                    model.insert(key)
                }
            case 2:
                table.remove(digest(key))
                model.remove(key)
            default:
                #expect(table.contains(digest(key)) == model.contains(key))
            }
        }
        #expect(table.count == model.count)
        for key in UInt64(0)..<400 { #expect(table.contains(digest(key)) == model.contains(key)) }
    }

    @Test("it grows past 75% full and keeps everything")
    func growth() {
        let table = RecentIDTable()
        #expect(!table.contains(IDDigest(nonZero: 1)))
        for key in UInt64(1)...10_000 { table.insert(IDDigest(nonZero: key &* 0x9E37_79B9)) }
        #expect(table.count == 10_000)
        #expect(table.count * 4 <= table.capacity * 3)
        #expect(table.capacity == 16_384)
        for key in UInt64(1)...10_000 { #expect(table.contains(IDDigest(nonZero: key &* 0x9E37_79B9))) }
        #expect(!table.contains(IDDigest(nonZero: 1)))
        #expect(!table.insert(IDDigest(nonZero: 0x9E37_79B9)))
        #expect(table.count == 10_000)
    }

    @Test("10 million ids take at most 16 bytes each")
    func tenMillion() {
        let table = RecentIDTable()
        // SplitMix's outputs are distinct, as its states are.
        var random = SplitMix(state: 9)
        for _ in 0..<10_000_000 { table.insert(IDDigest(nonZero: random.next())) }
        #expect(table.count == 10_000_000)
        #expect(table.bytes <= table.count * 16, "\(table.bytes) bytes")
        #expect(table.bytes == 8 << 24)
        random = SplitMix(state: 9)
        for _ in 0..<1_000 { #expect(table.contains(IDDigest(nonZero: random.next()))) }
    }

    @Test(
        "an event's key keeps its format and its digest is the key's, whatever its strings",
        arguments: [
            ("/a", "r1", "e1"), ("/blog/how-to-read", "reader-0123456789", "0001"),
            ("/é", "e\u{301}", "ü"),
            (String(repeating: "a", count: 256), String(repeating: "b", count: 128), "c"),
            // Longer than HTTP allows: only the library API takes such strings.
            (String(repeating: "x", count: 900), String(repeating: "y", count: 200), "z"),
        ])
    func digestOfEvent(article: String, reader: String, id: String) throws {
        let record = event(article, reader, id: id)
        let key = try #require(record.deduplicationKey)
        // The format saved ids and journal replays depend on, spelled out.
        #expect(key == "\(article.utf8.count):\(article)\(reader.utf8.count):\(reader)\(id)")
        let digest = try #require(record.withDeduplicationKey { IDDigest(of: $0) })
        #expect(digest == IDDigest(of: ExactKey(key)))
        // Salted, another digest for every salt.
        let salted = (0..<100).map { digest.salted(by: UInt64($0)) }
        #expect(salted[0] == digest && Set(salted).count == 100)
        #expect(event(article, reader).withDeduplicationKey { _ in true } == nil)
        // The lengths keep apart triples whose concatenations agree.
        let shifted = event(article + "1", reader, id: id)
        #expect(shifted.withDeduplicationKey { IDDigest(of: $0) } != digest)
    }
}

@Suite("Id key lists: the writer's ids for the next checkpoint, and a saved chunk's blob")
struct IDKeyListTests {
    static let keys: [(key: ExactKey, seenMs: Int64)] = (0..<50).map {
        (ExactKey("\($0 % 7):key-\($0)-é" + String(repeating: "x", count: $0)), Int64($0 * 10))
    }

    static func entries(_ list: IDKeyList) -> [(String, Int64)] {
        var entries: [(String, Int64)] = []
        list.forEachKey { key, seenMs in entries.append((String(decoding: key, as: UTF8.self), seenMs)) }
        return entries
    }

    @Test("keys come back in order, also through blobs split at any size")
    func roundTrip() throws {
        let list = IDKeyList(Self.keys)
        let expected = Self.keys.map { ($0.key.string, $0.seenMs) }
        #expect(list.count == 50 && list.newestMs == 490 && list.firstSeenMs == 0)
        #expect(Self.entries(list).elementsEqual(expected) { $0 == $1 })
        for maxBytes in [1, 100, 1_000, 1 << 20] {
            var blobs: [(data: [UInt8], newestMs: Int64)] = []
            list.forEachBlob(maxBytes: maxBytes) { blobs.append(($0, $1)) }
            var joined = IDKeyList()
            for (data, newestMs) in blobs {
                let part = try data.withUnsafeBytes { try IDKeyList(blob: $0) }
                #expect(part.newestMs == newestMs)
                #expect(maxBytes < 100 || part.count == 1 || data.count <= maxBytes + 1)
                joined.append(contentsOf: part)
            }
            #expect(Self.entries(joined).elementsEqual(expected) { $0 == $1 })
        }
    }

    @Test("truncating to a mark and keeping the young ones")
    func truncateAndAge() {
        var list = IDKeyList(Array(Self.keys[..<10]))
        let mark = list.mark
        list.append(contentsOf: IDKeyList(Array(Self.keys[10...])))
        list.truncate(to: mark)
        #expect(list.count == 10 && list.newestMs == 90)
        #expect(Self.entries(list).map(\.1) == (0..<10).map { Int64($0 * 10) })
        let young = list.seen(after: 45)
        #expect(Self.entries(young).map(\.1) == [50, 60, 70, 80, 90])
        #expect(list.seen(after: 90).isEmpty)
    }

    @Test(
        "a blob that is not one is refused",
        arguments: [
            [], [2], [1, 0, 0], [1] + [UInt8](repeating: 0, count: 12),
            [1] + [UInt8](repeating: 0, count: 8) + [9, 0, 0, 0, 65],
        ]
    )
    func damaged(blob: [UInt8]) {
        #expect(throws: StoreError.self) { try blob.withUnsafeBytes { try IDKeyList(blob: $0) } }
    }
}
