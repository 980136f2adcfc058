import Foundation
import ProgressStore
import Synchronization
import Testing

@testable import EmbeddedStore

/// A random index's contents: articles on both sides of the histogram threshold and of a
/// 4096-slot chunk, readers with one to four days, unscrollable readers, an empty id and a
/// 200-byte one, ids that differ only in normalization, and stored rows whose event counts
/// and engaged times outgrow their record's narrow fields, on first days and later ones.
struct RandomIndexLoad {
    /// Pairs, not a dictionary: the two spellings of "/é" would be one key of one.
    static let sizes: [(article: String, readers: Int)] = [
        ("/big", 900), ("/edge", 505), ("/small", 40), ("/chunky", 4_095), ("/\u{e9}", 6), ("/e\u{301}", 5),
        ("/üñíçødé", 12),
    ]
    static let articles = sizes.map(\.article)
    static let baseDay: Int64 = 20_000

    var rows: [(article: String, reader: String, day: Int32, figures: ReaderFigures)] = []
    var events: [EventRecord] = []

    init(seed: UInt64) {
        var random = SplitMix(state: seed)
        for (article, readers) in Self.sizes {
            for reader in 0..<readers {
                let id = Self.readerID(reader, &random)
                for _ in 0..<Int.random(in: 1...(reader % 3 == 0 ? 4 : 1), using: &random) {
                    events.append(Self.event(article, id, &random))
                }
                if reader % 97 == 5 {
                    rows.append(Self.wideRow(article, id, &random))
                }
                if reader % 97 == 50 {
                    // Restored first, the day before makes the wide row a later day.
                    var earlier = Self.wideRow(article, id, &random)
                    earlier.day = Int32(Self.baseDay - 1)
                    earlier.figures.firstMs = (Self.baseDay - 1) * 86_400_000
                    earlier.figures.lastMs = earlier.figures.firstMs
                    earlier.figures.events = 1
                    earlier.figures.engagedMs = 5
                    rows.append(earlier)
                    rows.append(Self.wideRow(article, id, &random))
                }
            }
        }
        events.shuffle(using: &random)
    }

    /// Events for readers old and new of every article, new days and old.
    static func more(seed: UInt64, count: Int) -> [EventRecord] {
        var random = SplitMix(state: seed ^ 0xFEED)
        return (0..<count).map { _ in
            let (article, readers) = sizes.randomElement(using: &random)!
            let reader = Int.random(in: 0..<(readers + 20), using: &random)
            return event(article, readerID(reader, &random), &random)
        }
    }

    static func readerID(_ reader: Int, _ random: inout SplitMix) -> String {
        switch reader {
        case 0: ""
        case 1: String(repeating: "long-", count: 40)
        default: "reader-\(reader)"
        }
    }

    static func event(_ article: String, _ reader: String, _ random: inout SplitMix) -> EventRecord {
        let day = baseDay + .random(in: 0...9, using: &random)
        let dayMs: Int64 = 86_400_000
        return EventRecord(
            article: article, reader: reader, timeMs: day * dayMs + .random(in: 0..<dayMs, using: &random),
            progress: depth(&random), seenDepth: depth(&random),
            scrollable: reader.utf8.count % 7 != 3 && Int.random(in: 0..<20, using: &random) > 0,
            engagedMs: .random(in: 0...9_000, using: &random))
    }

    /// A stored row with an event count past 8 bits and engaged time past 32 bits.
    static func wideRow(_ article: String, _ reader: String, _ random: inout SplitMix) -> (
        article: String, reader: String, day: Int32, figures: ReaderFigures
    ) {
        let day = baseDay + .random(in: 0...9, using: &random)
        let start = day * 86_400_000
        let figures = ReaderFigures(
            maxProgress: depth(&random), maxSeenDepth: depth(&random), scrollable: true,
            events: .random(in: 255...100_000, using: &random),
            engagedMs: .random(in: 1 << 32...1 << 40, using: &random), firstMs: start + 10, lastMs: start + 20
        )
        return (article, reader, Int32(day), figures)
    }

    /// Depths on bin edges as often as between them.
    static func depth(_ random: inout SplitMix) -> Double {
        switch Int.random(in: 0..<4, using: &random) {
        case 0: Double(Int.random(in: 0...1000, using: &random)) / 1000
        case 1: [0, 1, 0.9, 0.29].randomElement(using: &random)!
        default: Double.random(in: 0..<1, using: &random)
        }
    }

    /// An index holding the rows, then the events in commits of up to 50.
    func index() -> MemoryIndex {
        let index = MemoryIndex()
        index.restore(rows)
        var random = SplitMix(state: UInt64(events.count))
        var start = 0
        while start < events.count {
            let end = min(events.count, start + .random(in: 1...50, using: &random))
            index.apply(Array(events[start..<end]))
            start = end
        }
        return index
    }
}

extension MemoryIndex {
    /// Every article encoded, decoded and inserted into a new index.
    func roundTripped() throws -> MemoryIndex {
        let restored = MemoryIndex()
        for (article, _) in articleVersions() {
            let encoded = try #require(encodeArticle(article))
            try encoded.bytes.withUnsafeBytes { try restored.restoreArticle($0) }
        }
        return restored
    }
}

/// Every answer the two indices give about `articles` is the same, to the bit.
func expectSameAnswers(
    _ got: MemoryIndex, _ want: MemoryIndex, articles: [String],
    sourceLocation: SourceLocation = #_sourceLocation
) throws {
    let day = Int32(RandomIndexLoad.baseDay)
    let ranges = [
        DayRange.allTime, DayRange(from: day + 2, to: day + 5), DayRange(to: day + 3),
        DayRange(from: day + 7),
        DayRange(from: day + 5, to: day + 2),
    ]
    #expect(got.pairCount == want.pairCount, sourceLocation: sourceLocation)
    #expect(
        Set(got.articleVersions().map { "\($0.article.utf8.map(\.self)) \($0.version)" })
            == Set(want.articleVersions().map { "\($0.article.utf8.map(\.self)) \($0.version)" }),
        sourceLocation: sourceLocation)
    for article in articles {
        #expect(
            got.version(of: article) == want.version(of: article), "\(article)",
            sourceLocation: sourceLocation)
        for days in ranges {
            #expect(
                got.readers(of: article, in: days) == want.readers(of: article, in: days),
                "\(article) \(days)",
                sourceLocation: sourceLocation)
            for metric in [ArticleStatistics.Metric.progress, .seenDepth] {
                for threshold in [0.9, 0.5, 0.29, 0.1234] {
                    for minimum in [0, 2.5] {
                        let answers = try [got, want].map {
                            try $0.statistics(
                                of: article, in: days, metric: metric, threshold: threshold,
                                minEngagedSeconds: minimum)
                        }
                        #expect(
                            answers[0] == answers[1], "\(article) \(days) \(metric) \(threshold) \(minimum)",
                            sourceLocation: sourceLocation)
                    }
                }
            }
        }
    }
    for days in ranges {
        for threshold in [0.9, 0.1234] {
            #expect(
                got.listing(in: days, threshold: threshold) == want.listing(in: days, threshold: threshold),
                sourceLocation: sourceLocation)
        }
    }
}

@Suite("MemoryIndex article snapshots")
struct MemoryIndexSnapshotTests {
    @Test(
        "a restored index answers every question as the original did, and after more events too",
        arguments: 1...4)
    func roundTrip(seed: UInt64) throws {
        let load = RandomIndexLoad(seed: seed)
        let original = load.index()
        let restored = try original.roundTripped()
        let articles = RandomIndexLoad.articles + ["/missing"]
        try expectSameAnswers(restored, original, articles: articles)
        // Encoding the restored index gives the same bytes: nothing was lost or reordered.
        for (article, _) in original.articleVersions() {
            #expect(
                restored.encodeArticle(article)?.bytes == original.encodeArticle(article)?.bytes, "\(article)"
            )
        }
        // New readers (past the chunk and the histogram threshold), new days, old days.
        for batch in stride(from: 0, to: 3_000, by: 100) {
            let more = RandomIndexLoad.more(seed: seed &+ UInt64(batch), count: 100)
            original.apply(more)
            restored.apply(more)
        }
        try expectSameAnswers(restored, original, articles: articles)
    }

    @Test("versions: kept through a snapshot, moved by every later fold; unknown articles give nil")
    func versions() throws {
        let index = MemoryIndex()
        #expect(index.articleVersions().isEmpty)
        #expect(index.encodeArticle("/a") == nil)
        index.apply([event("/a", "r1"), event("/a", "r2"), event("/b", "r1")])
        let encoded = try #require(index.encodeArticle("/a"))
        #expect(encoded.version == index.version(of: "/a"))
        let decoded = try encoded.bytes.withUnsafeBytes { try MemoryIndex.decodeArticle($0) }
        #expect(decoded.article == "/a" && decoded.version == encoded.version && decoded.readerCount == 2)
        let restored = MemoryIndex()
        try restored.insert([decoded])
        #expect(restored.version(of: "/a") == encoded.version)
        #expect(restored.articleVersions().map(\.article) == ["/a"])
        restored.apply([event("/a", "r1")])
        #expect(try #require(restored.version(of: "/a")) > encoded.version)
    }

    @Test("a snapshot carries the mark of the last commit applied before it")
    func marks() throws {
        let index = MemoryIndex()
        #expect(index.mark == 0)
        index.apply([event("/a", "r1")], mark: 7)
        index.apply([event("/a", "r2")])
        #expect(index.mark == 7)
        let encoded = try #require(index.encodeArticle("/a"))
        #expect(encoded.mark == 7)
        let decoded = try encoded.bytes.withUnsafeBytes { try MemoryIndex.decodeArticle($0) }
        #expect(decoded.mark == 7)
    }

    @Test("an article already held, or given twice, is refused and nothing is inserted")
    func conflicts() throws {
        let index = MemoryIndex()
        index.apply([event("/a", "r1"), event("/b", "r1"), event("/b", "r2")])
        let decode = { (article: String) in
            try index.encodeArticle(article)!.bytes.withUnsafeBytes { try MemoryIndex.decodeArticle($0) }
        }
        let target = MemoryIndex()
        try target.insert([decode("/a")])
        #expect(throws: StoreError.self) { try target.insert([decode("/b"), decode("/a")]) }
        #expect(throws: StoreError.self) { try MemoryIndex().insert([decode("/b"), decode("/b")]) }
        #expect(target.articleVersions().map(\.article) == ["/a"])
        #expect(target.pairCount == 1)
    }

    @Test("articles decode on several threads at once and insert into one index")
    func parallelRestore() throws {
        let original = RandomIndexLoad(seed: 9).index()
        let blobs = original.articleVersions().map { original.encodeArticle($0.article)!.bytes }
        let restored = MemoryIndex()
        let failures = Atomic(0)
        DispatchQueue.concurrentPerform(iterations: 3) { thread in
            for blob in blobs.enumerated() where blob.offset % 3 == thread {
                do { try blob.element.withUnsafeBytes { try restored.restoreArticle($0) } } catch {
                    failures.add(1, ordering: .relaxed)
                }
            }
        }
        #expect(failures.load(ordering: .relaxed) == 0)
        try expectSameAnswers(restored, original, articles: RandomIndexLoad.articles)
    }

    @Test("snapshots taken while the writer applies are each one whole commit, stamped with its mark")
    func encodeWhileApplying() throws {
        let index = MemoryIndex()
        let done = Atomic(false)
        let inconsistent = Atomic(0)
        let taken = Atomic(0)
        let finished = DispatchSemaphore(value: 0)
        let reader = Thread {
            defer { finished.signal() }
            while !done.load(ordering: .acquiring) {
                guard let encoded = index.encodeArticle("/c") else { continue }
                taken.add(1, ordering: .relaxed)
                // Commit k adds ten readers with one event each and has mark k.
                let decoded = try? encoded.bytes.withUnsafeBytes { try MemoryIndex.decodeArticle($0) }
                if decoded?.readerCount != 10 * Int(encoded.mark)
                    || encoded.version != 10 * UInt64(encoded.mark)
                {
                    inconsistent.add(1, ordering: .relaxed)
                }
            }
        }
        reader.start()
        for commit in 1...400 {
            index.apply((0..<10).map { event("/c", "r\(commit)-\($0)") }, mark: Int64(commit))
            // Once the reader has something to take, it has taken one before the rest apply.
            if commit == 1 { #expect(eventually { taken.load(ordering: .relaxed) > 0 }) }
        }
        done.store(true, ordering: .releasing)
        #expect(finished.wait(timeout: .now() + 60) == .success)
        #expect(taken.load(ordering: .relaxed) > 0)
        #expect(inconsistent.load(ordering: .relaxed) == 0)
    }
}
