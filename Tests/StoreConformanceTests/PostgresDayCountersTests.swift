import Foundation
import ProgressStore
import Synchronization
import Testing

@testable import PostgresStore

/// PostgreSQL's counters by day (``DayCounting``) through what changes them — folds that move
/// day rows, erasure of readers and articles, retention — and a database of schema 4 migrating:
/// `rp_article_days` always as a recount from the rows has it, and one-day ranges as the plain
/// computation has them.
@Suite("PostgreSQL counters by day", .enabled(if: StoreFactory.postgres != nil))
struct PostgresDayCountersTests {
    private let databases = PostgresConnectionTests()
    private static let days = (0..<4).map { firstDay + Int32($0) }

    /// `/a`: 1,800 readers over three days (600 a day, past 512: the counters answer) and a few
    /// on the fourth, some twice a day; `/b`: 100 readers on one day; `/c`: 10.
    private static func events(seed: UInt64) -> [EventRecord] {
        var random = SplitMix(state: seed)
        func event(_ article: String, _ reader: Int, on day: Int32) -> EventRecord {
            let scrollable = Int.random(in: 0..<10, using: &random) > 0
            let progress = scrollable ? Double(Int.random(in: 0...1000, using: &random)) / 1000 : 0
            return EventRecord(
                article: article, reader: "r\(reader)",
                timeMs: Int64(day) * dayMs + Int64.random(in: 0..<dayMs, using: &random), progress: progress,
                seenDepth: scrollable ? min(1, progress + 0.1) : 1, scrollable: scrollable,
                engagedMs: Int64.random(in: 0...20_000, using: &random))
        }
        var events: [EventRecord] = []
        for reader in 0..<1_800 {
            events.append(event("/a", reader, on: days[reader % 3]))
            if reader % 4 == 0 { events.append(event("/a", reader, on: days[reader % 3])) }
            if reader % 50 == 0 { events.append(event("/a", reader, on: days[3])) }
            if reader < 100 { events.append(event("/b", reader, on: days[1])) }
            if reader < 10 { events.append(event("/c", reader, on: days[2])) }
        }
        return events
    }

    private static func options(now: Int64 = Int64(firstDay + 3) * dayMs, retentionDays: Int = 0)
        -> PostgresStore.Options
    {
        var options = PostgresStore.Options(retentionDays: retentionDays, clock: { now })
        options.dayCountersFrom = 90
        return options
    }

    /// `rp_article_days` as text, and as a recount of its articles from their rows has it.
    private func heldAndRecounted(_ uri: String) throws -> (held: [String], recounted: [String]) {
        let connection = try PGConnection(uri: uri, connectNow: true)
        defer { connection.close() }
        func rows() throws(StoreError) -> [String] {
            let rows = try connection.execute(
                "SELECT a::text FROM rp_article_days AS a ORDER BY article, day")
            return (0..<rows.rowCount).map { rows.string($0, 0) }
        }
        let held = try rows()
        var recounted: [String] = []
        try? connection.transaction { () throws(StoreError) in
            let kept = try connection.execute("SELECT DISTINCT article FROM rp_article_days")
            try DayCounting.count(
                Set((0..<kept.rowCount).map { ExactKey(kept.string($0, 0)) }), on: connection)
            recounted = try rows()
            // Rolled back: the recount is only to compare with.
            throw StoreError.closed
        }
        return (held, recounted)
    }

    /// One-day (and a two-day) statistics of several kinds and listings, against `reference`.
    private func expectSame(
        _ store: any ProgressStore, _ reference: Reference, _ when: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let ranges =
            Self.days.map { DayRange(from: $0, to: $0) } + [DayRange(from: Self.days[0], to: Self.days[1])]
        for days in ranges {
            for article in ["/a", "/b", "/c"] {
                for metric in ArticleStatistics.Metric.allCases {
                    for (threshold, minEngaged) in [(0.9, 0.0), (0.3335, 0.0), (0.5, 5.0)] {
                        let query = StatisticsQuery(
                            article: article, days: days, metric: metric, threshold: threshold,
                            minEngagedSeconds: minEngaged)
                        let (got, want) = (try store.statistics(query), reference.statistics(query))
                        #expect(agree(got, want), "\(when), \(query)", sourceLocation: sourceLocation)
                    }
                }
            }
            for threshold in [0.9, 0.3335] {
                let query = ListingQuery(days: days, order: .article, threshold: threshold)
                #expect(
                    agree(try store.listing(query), reference.listing(query)), "\(when), \(query)",
                    sourceLocation: sourceLocation)
            }
        }
    }

    @Test("the counters by day hold a recount's figures through folds, erasure and retention")
    func throughTheirLife() throws {
        let (name, uri, admin) = try databases.database()
        defer { try? databases.drop(name, admin: admin) }
        var reference = Reference()
        let events = Self.events(seed: 91)
        do {
            let store = try PostgresStore.open(uri: uri, options: Self.options())
            defer { store.close() }
            for start in stride(from: 0, to: events.count, by: 300) {
                let batch = Array(events[start..<min(start + 300, events.count)])
                #expect(try store.append(batch).counted == batch.count)
                reference.add(batch)
            }
            // Later events on days the readers have rows on already: the rows move.
            let later = Self.events(seed: 92).filter { $0.article != "/c" }.prefix(600).map { event in
                var moved = event
                moved.reader = "r\(Int(event.reader.dropFirst())! % 300)"
                return moved
            }
            #expect(try store.append(Array(later)).counted == later.count)
            reference.add(Array(later))
            try expectSame(store, reference, "folded")
            let (held, recounted) = try heldAndRecounted(uri)
            #expect(Set(held.map { $0.split(separator: ",")[0] }) == ["(/a", "(/b"])
            #expect(held == recounted)

            for erasure in [Erasure.reader("r4"), .reader("r150"), .article("/b")] {
                _ = try waitFor { store.erase(erasure, completion: $0) }
                reference.erase(erasure)
            }
            try expectSame(store, reference, "erased")
            let erased = try heldAndRecounted(uri)
            #expect(!erased.held.contains { $0.hasPrefix("(/b,") })
            #expect(erased.held == erased.recounted)
        }
        // Two days kept on the fourth: the first two go, the others' counters stay as they were.
        let store = try PostgresStore.open(uri: uri, options: Self.options(retentionDays: 2))
        defer { store.close() }
        var kept = Reference()
        kept.add(reference.events.filter { $0.day >= Self.days[2] })
        try expectSame(store, kept, "after retention")
        let (held, recounted) = try heldAndRecounted(uri)
        #expect(held.count == 2 && held == recounted)
    }

    @Test("a database of schema 4 migrates: a large article gets counters by day at its next fold")
    func migratesFourthSchema() throws {
        let (name, uri, admin) = try databases.database()
        defer { try? databases.drop(name, admin: admin) }
        var reference = Reference()
        let events = Self.events(seed: 93)
        do {
            // Folded as schema 4 folds (no counters by day), then the table schema 5 adds taken out.
            var never = Self.options()
            never.dayCountersFrom = .max
            let store = try PostgresStore.open(uri: uri, options: never)
            #expect(try store.append(events).counted == events.count)
            reference.add(events)
            store.close()
            let connection = try PGConnection(uri: uri, connectNow: true)
            defer { connection.close() }
            #expect(try connection.execute("SELECT 1 FROM rp_article_days").rowCount == 0)
            try connection.executeScript(
                "DROP TABLE rp_article_days; UPDATE rp_meta SET value = '4' WHERE key = 'schema_version'")
        }
        let store = try PostgresStore.open(uri: uri, options: Self.options())
        defer { store.close() }
        try expectSame(store, reference, "migrated")
        let more = [
            EventRecord(
                article: "/a", reader: "r1", timeMs: Int64(Self.days[1]) * dayMs + 7, progress: 1,
                seenDepth: 1,
                scrollable: true, engagedMs: 10)
        ]
        #expect(try store.append(more).counted == 1)
        reference.add(more)
        try expectSame(store, reference, "folded after migrating")
        let (held, recounted) = try heldAndRecounted(uri)
        #expect(held.count == 4 && held == recounted)
        let connection = try PGConnection(uri: uri, connectNow: true)
        defer { connection.close() }
        let version = try connection.execute("SELECT value FROM rp_meta WHERE key = 'schema_version'")
        #expect(version.string(0, 0) == "5")
    }
}
