import Foundation
import ProgressStore
import Testing

@testable import EmbeddedStore

/// Section maps and attention in the embedded store's files: replayed from the journal after
/// `kill -9`, restored from the checkpoint's tables, taken out by erasure and retention.
@Suite("EmbeddedStore keeps section maps and attention")
struct EmbeddedStoreSectionsTests {
    static let day: Int32 = 20_000
    static let map = [
        Section(title: "Intro", start: 0, words: 100), Section(title: "Methods", start: 0.5, words: 300),
    ]

    /// Three readers over two days (see ``expectHandFigures(_:)``).
    static func events(article: String = "/s") -> [EventRecord] {
        func at(_ day: Int32, _ reader: String, seen: Double, attention: [UInt32], sections: [Section]? = nil)
            -> EventRecord
        {
            EventRecord(
                article: article, reader: reader, timeMs: Int64(day) * 86_400_000 + 3_600_000, progress: seen,
                seenDepth: seen, scrollable: true, engagedMs: 10_000, sections: sections, attention: attention
            )
        }
        return [
            at(
                day, "r1", seen: 0.5,
                attention: Array(repeating: 4000, count: 10) + Array(repeating: 0, count: 10),
                sections: map),
            at(day, "r2", seen: 1, attention: Array(repeating: 2000, count: 20)),
            at(
                day + 1, "r3", seen: 0.3,
                attention: Array(repeating: 1000, count: 6) + Array(repeating: 0, count: 14)),
        ]
    }

    /// The figures of ``events(article:)`` over all time, worked out by hand: depths 0.5, 1 and
    /// 0.3; Intro holds bands 0–9 (6 × 7 s + 4 × 6 s = 66 s), Methods bands 10–19 (10 × 2 s).
    static func expectHandFigures(
        _ parts: SectionStatistics?, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        guard let parts else {
            Issue.record("no sections", sourceLocation: sourceLocation)
            return
        }
        let close = { (a: Double?, b: Double) in a.map { abs($0 - b) < 1e-12 } ?? false }
        #expect(close(parts.attention?[0], 7.0 / 3), sourceLocation: sourceLocation)
        #expect(close(parts.attention?[19], 2.0 / 3), sourceLocation: sourceLocation)
        #expect(parts.sections.map(\.title) == ["Intro", "Methods"], sourceLocation: sourceLocation)
        guard parts.sections.count == 2 else { return }
        let (intro, methods) = (parts.sections[0], parts.sections[1])
        #expect(close(intro.reached, 1) && close(methods.reached, 2.0 / 3), sourceLocation: sourceLocation)
        #expect(
            close(intro.stoppedWithin, 1.0 / 3) && close(methods.stoppedWithin, 1.0 / 3),
            sourceLocation: sourceLocation)
        #expect(close(intro.seconds, 22) && close(methods.seconds, 10), sourceLocation: sourceLocation)
        #expect(
            close(intro.wordsPerMinute, 100 / (22.0 / 60)) && close(methods.wordsPerMinute, 1800),
            sourceLocation: sourceLocation)
    }

    static func sections(_ store: EmbeddedStore, _ article: String = "/s", days: DayRange = .allTime) throws
        -> SectionStatistics?
    {
        let outcome = Locked<Result<SectionStatistics?, StoreError>?>(nil)
        let done = DispatchSemaphore(value: 0)
        store.sections(StatisticsQuery(article: article, days: days, threshold: 0.9)) { result in
            outcome.withLock { $0 = result }
            done.signal()
        }
        guard done.wait(timeout: .now() + 60) == .success, let result = outcome.current else {
            throw StoreError.configuration("no answer within 60 s")
        }
        return try result.get()
    }

    /// The rows of `table` (`section_maps` or `attention_days`) for `article`, read by a
    /// connection of the test's own.
    static func savedRows(_ table: String, _ article: String, at path: String) throws -> Int64 {
        let state = try SQLiteConnection(filename: path, busyTimeoutMs: 1_000)
        defer { state.close() }
        let rows = try state.cached("SELECT count(*) FROM \(table) WHERE name = ?1")
        defer { rows.reset() }
        try rows.bind(1, article)
        _ = try rows.step()
        return rows.int64(0)
    }

    @Test("the figures of a hand-computed case, over all time and over a day")
    func handFigures() throws {
        let store = try EmbeddedStore.open(path: ":memory:")
        defer { store.close() }
        try Self.append(store, Self.events())
        Self.expectHandFigures(try Self.sections(store))
        let second = try #require(
            try Self.sections(store, days: DayRange(from: Self.day + 1, to: Self.day + 1)))
        #expect(second.attention?[0] == 1 && second.attention?[6] == 0)
        #expect(second.sections.map(\.reached) == [1, 0] && second.sections[1].seconds == nil)
    }

    @Test("after kill -9 the journal's replay brings back maps and attention, before and after a checkpoint")
    func replayAfterKill() throws {
        let folder = try TemporaryFolder()
        let events = Self.events()
        do {
            let store = try EmbeddedStore.open(path: folder.databasePath)
            try Self.append(store, [events[0]])
            try store.checkpointNow()
            try Self.append(store, Array(events[1...]))
            store.abandon()  // as kill -9 does: the last two events only in the journal
        }
        let reopened = try EmbeddedStore.open(path: folder.databasePath)
        defer { reopened.close() }
        Self.expectHandFigures(try Self.sections(reopened))
    }

    @Test("a checkpoint saves maps and attention in their tables, and a restart reads them back")
    func checkpointAndRestart() throws {
        let folder = try TemporaryFolder()
        let before: SectionStatistics?
        let version: UInt64?
        do {
            let store = try EmbeddedStore.open(path: folder.databasePath)
            try Self.append(store, Self.events())
            try store.checkpointNow()
            before = try Self.sections(store)
            version = store.version(of: "/s")
            store.abandon()  // nothing left in the journal: the tables alone answer
        }
        #expect(try Self.savedRows("section_maps", "/s", at: folder.databasePath) == 1)
        #expect(try Self.savedRows("attention_days", "/s", at: folder.databasePath) == 1)
        let reopened = try EmbeddedStore.open(path: folder.databasePath)
        defer { reopened.close() }
        #expect(try Self.sections(reopened) == before)
        #expect(reopened.version(of: "/s") == version)
        Self.expectHandFigures(try Self.sections(reopened))
    }

    @Test("a map alone moves the article's version")
    func versionMoves() throws {
        let store = try EmbeddedStore.open(path: ":memory:")
        defer { store.close() }
        try Self.append(store, Self.events())
        let version = store.version(of: "/s")
        var again = Self.events()[0]
        again.sections = [Section(title: "Other", start: 0)]
        again.attention = nil
        try Self.append(store, [again])
        #expect(store.version(of: "/s") != version)
        #expect(try Self.sections(store)?.sections.map(\.title) == ["Other"])
    }

    @Test("erasing an article deletes its rows at the next checkpoint; erasing a reader keeps attention")
    func erasure() throws {
        let folder = try TemporaryFolder()
        let store = try EmbeddedStore.open(path: folder.databasePath)
        defer { store.close() }
        try Self.append(store, Self.events() + Self.events(article: "/gone"))
        try store.checkpointNow()
        #expect(try Self.savedRows("attention_days", "/gone", at: folder.databasePath) == 1)
        _ = try waitFor { store.erase(.article("/gone"), completion: $0) }
        _ = try waitFor { store.erase(.reader("r1"), completion: $0) }
        try store.checkpointNow()
        #expect(try Self.sections(store, "/gone") == nil)
        #expect(try Self.savedRows("section_maps", "/gone", at: folder.databasePath) == 0)
        #expect(try Self.savedRows("attention_days", "/gone", at: folder.databasePath) == 0)
        let kept = try #require(try Self.sections(store))
        // r1's attention stays in the sum, now over two readers.
        #expect(kept.attention?[0] == 7.0 / 2)
        #expect(kept.sections.map(\.title) == ["Intro", "Methods"])
    }

    @Test("retention drops the attention of expired days; an article of expired days only goes with its map")
    func retention() throws {
        let folder = try TemporaryFolder()
        do {
            let store = try EmbeddedStore.open(path: folder.databasePath)
            try Self.append(store, Self.events() + [Self.events(article: "/old")[0]])
            store.close()
        }
        let now = Int64(Self.day + 1) * 86_400_000 + 7_200_000
        let reopened = try EmbeddedStore.open(
            path: folder.databasePath, options: EmbeddedStore.Options(retentionDays: 1, clock: { now }))
        defer { reopened.close() }
        #expect(try Self.sections(reopened, "/old") == nil)
        let kept = try #require(try Self.sections(reopened))
        #expect(kept.attention?[0] == 1 && kept.attention?[19] == 0)
        #expect(kept.sections.map(\.title) == ["Intro", "Methods"])
        try reopened.checkpointNow()
        #expect(try Self.savedRows("section_maps", "/old", at: folder.databasePath) == 0)
        #expect(try Self.savedRows("attention_days", "/old", at: folder.databasePath) == 0)
    }

    @Test("a database of schema version 1 gains the tables of version 2")
    func migratesVersionOne() throws {
        let folder = try TemporaryFolder()
        try FileManager.default.createDirectory(
            atPath: (folder.databasePath as NSString).deletingLastPathComponent,
            withIntermediateDirectories: true)
        do {
            let state = try SQLiteConnection(filename: folder.databasePath, busyTimeoutMs: 1_000)
            try Schema.migrate(state, with: Array(Schema.migrations.prefix(1)))
            state.close()
        }
        let store = try EmbeddedStore.open(path: folder.databasePath)
        try Self.append(store, Self.events())
        try store.checkpointNow()
        store.close()
        #expect(try Self.savedRows("section_maps", "/s", at: folder.databasePath) == 1)
    }

    /// Appends `events`, waiting for the acknowledgement.
    static func append(_ store: EmbeddedStore, _ events: [EventRecord]) throws {
        _ = try waitFor { store.append(events, completion: $0) }
    }
}
