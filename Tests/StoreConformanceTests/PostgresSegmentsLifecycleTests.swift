import Foundation
import ProgressCore
import ProgressStore
import Synchronization
import Testing

@testable import PostgresStore

/// Segments through a PostgreSQL store's life: a database of the previous schema migrating, two
/// nodes on one database, a large article's device counters as the folder moves them, erasure
/// and retention.
@Suite("PostgreSQL segments: migration, nodes, counters, erasure", .enabled(if: StoreFactory.postgres != nil))
struct PostgresSegmentsLifecycleTests {
    private let start = Int64(firstDay) * dayMs + 3_600_000
    private let databases = PostgresConnectionTests()

    private func byDevice(_ store: any ProgressStore, _ article: String) throws -> [String: Int] {
        let query = SegmentsQuery(statistics: StatisticsQuery(article: article, threshold: 0.5), by: .device)
        let answer = try store.segmentsAnswer(query)
        return Dictionary(
            uniqueKeysWithValues: (answer?.segments ?? []).map { ($0.name, $0.statistics.readers) })
    }

    @Test("a database of schema 2 migrates: its days count as (direct) on other, its log folds with segments")
    func migratesSecondSchema() throws {
        let (name, uri, admin) = try databases.database()
        defer { try? databases.drop(name, admin: admin) }
        let old = segmentEvent("/old", "before", start)
        let logged = segmentEvent("/old", "logged", start, device: .phone, source: "mail")
        do {
            let connection = try PGConnection(uri: uri, connectNow: true)
            defer { connection.close() }
            try connection.executeScript(PostgresSchema.migrations[0])
            try connection.executeScript(PostgresSchema.migrations[1])
            try connection.executeScript(
                "CREATE TABLE rp_meta (key text PRIMARY KEY, value text NOT NULL); "
                    + "INSERT INTO rp_meta VALUES ('schema_version', '2')")
            try connection.executeScript(
                """
                INSERT INTO rp_reader_days VALUES ('/old', 'before', $1, 0.5, 0.6, true, 1, 1000, $2, $2);
                INSERT INTO rp_articles VALUES ('/old', 1, 0, 1, 1000, $2, $2, 0, 0,
                    decode(repeat('00', 4004), 'hex'), decode(repeat('00', 4004), 'hex'))
                """.replacingOccurrences(of: "$1", with: String(firstDay)).replacingOccurrences(
                    of: "$2", with: String(old.timeMs)))
            try connection.execute(
                "INSERT INTO rp_log (committed_ms, payload) VALUES ($1, $2)",
                [.int(start), .bytes(EventLogCodec.encode([logged]))])
        }
        let store = try PostgresStore.open(uri: uri)
        defer { store.close() }
        #expect(try byDevice(store, "/old") == ["other": 1, "phone": 1])
        let direct = try store.segmentReaders(
            of: "/old", SegmentFilter(device: .other, source: ReaderSource.direct))
        #expect(direct?.map(\.reader) == ["before"])
        #expect(
            try store.segmentReaders(of: "/old", SegmentFilter(source: "mail"))?.map(\.reader) == ["logged"])
        let check = try PGConnection(uri: uri, connectNow: true)
        defer { check.close() }
        let version = try check.execute("SELECT value FROM rp_meta WHERE key = 'schema_version'")
        #expect(version.string(0, 0) == String(PostgresSchema.currentVersion))
    }

    @Test("two nodes: a segment sent to one is in the other's answers within a second; sources stay one set")
    func twoNodes() throws {
        let (name, uri, admin) = try databases.database()
        defer { try? databases.drop(name, admin: admin) }
        let a = try PostgresStore.open(uri: uri)
        defer { a.close() }
        let b = try PostgresStore.open(uri: uri)
        defer { b.close() }
        _ = try a.append([segmentEvent("/n", "r1", start, device: .tablet, source: "mail")])
        #expect(try holdsWithin(1) { try byDevice(b, "/n") == ["tablet": 1] })
        // Both nodes add sources at once; each name gets one id, and both read the same answer.
        let group = DispatchGroup()
        for (node, prefix) in [(a, "a"), (b, "b")] {
            DispatchQueue.global().async(group: group) {
                for round in 0..<20 {
                    let events = (0..<5).map {
                        segmentEvent(
                            "/n", "\(prefix)\(round)-\($0)", start, source: "site-\(($0 + round) % 7)")
                    }
                    _ = try? node.append(events)
                }
            }
        }
        group.wait()
        let query = SegmentsQuery(
            statistics: StatisticsQuery(article: "/n", threshold: 0.5), by: .source, limit: 50)
        let fromA = try #require(try a.segmentsAnswer(query))
        #expect(agreeSegments(fromA, try b.segmentsAnswer(query)))
        #expect(fromA.segments.map(\.name).sorted() == ["mail"] + (0..<7).map { "site-\($0)" })
        #expect(fromA.segments.map(\.statistics.readers).reduce(0, +) == 201)
        let check = try PGConnection(uri: uri, connectNow: true)
        defer { check.close() }
        let sources = try check.execute("SELECT count(*), count(DISTINCT source) FROM rp_sources")
        #expect(try sources.int64(0, 0) == 10 && sources.int64(0, 1) == 10)
    }

    /// 700 readers of `/big` on three classes and four sources over two days; some days change
    /// class or source by a later arrival with an earlier time.
    private func bigEvents() -> (first: [EventRecord], second: [EventRecord]) {
        var random = SplitMix(state: 5)
        let classes: [DeviceClass] = [.phone, .tablet, .desktop]
        let sources = [nil, "mail", "news", "social"]
        let first = (0..<700).flatMap { index -> [EventRecord] in
            let progress = Double(Int.random(in: 0...1000, using: &random)) / 1000
            let device = classes[index % 3]
            let day = segmentEvent(
                "/big", "r\(index)", start + 100, progress: progress, device: device,
                source: sources[index % 4])
            let next = segmentEvent("/big", "r\(index)", start + dayMs, progress: progress / 2, width: .phone)
            return index % 4 == 0 ? [day, next] : [day]
        }
        let second = (0..<700).filter { $0 % 5 == 0 }.map { index in
            segmentEvent(
                "/big", "r\(index)", start + 50, progress: 0.99,
                device: index % 2 == 0 ? classes[(index + 1) % 3] : nil,
                source: index % 3 == 0 ? sources[(index + 1) % 4] : nil)
        }
        return (first, second)
    }

    @Test("a large article's segment counters answer as its rows do, through folds, erasure and retention")
    func largeArticleCounters() throws {
        let (name, uri, admin) = try databases.database()
        defer { try? databases.drop(name, admin: admin) }
        let retained = Mutex(Int64(firstDay + 1) * dayMs)
        let store = try PostgresStore.open(uri: uri, options: .init(clock: { retained.withLock { $0 } }))
        var reference = PostgresSegmentsReference()
        let (first, second) = bigEvents()
        for batch in [first, second] {
            _ = try store.append(batch)
            reference.add(batch)
            _ = try store.statistics(StatisticsQuery(article: "/big", threshold: 0.5))
        }
        let check = try PGConnection(uri: uri, connectNow: true)
        defer { check.close() }
        #expect(
            try check.execute(
                "SELECT count(*) FROM rp_article_segments WHERE article = '/big' AND dimension = 0"
            ).int64(0, 0)
                == 3)
        func expectAgree(_ reference: PostgresSegmentsReference, _ store: any ProgressStore) throws {
            for metric in [ArticleStatistics.Metric.progress, .seenDepth] {
                let query = StatisticsQuery(article: "/big", metric: metric, threshold: 0.5)
                for (by, limit) in [(SegmentStatistics.Dimension.device, 10), (.source, 10), (.source, 2)] {
                    let segments = SegmentsQuery(statistics: query, by: by, limit: limit)
                    #expect(agreeSegments(try store.segmentsAnswer(segments), reference.segments(segments)))
                }
                let filters =
                    DeviceClass.allCases.map { SegmentFilter(device: $0) }
                    + ["mail", "news", "social", ReaderSource.direct, "nowhere"].map {
                        SegmentFilter(source: $0)
                    }
                for filter in filters {
                    var filtered = query
                    filtered.segment = filter
                    #expect(
                        agree(try store.statistics(filtered), reference.statistics(filtered)), "\(filter)")
                }
            }
        }
        try expectAgree(reference, store)

        _ = try waitFor { store.erase(.reader("r3"), completion: $0) }
        var erased = PostgresSegmentsReference()
        erased.add(reference.events.filter { $0.reader != "r3" })
        try expectAgree(erased, store)
        store.close()

        // Retention keeping only the second day: the phone days of every fourth reader stay.
        retained.withLock { $0 = Int64(firstDay + 1) * dayMs + 1 }
        let later = try PostgresStore.open(
            uri: uri, options: .init(retentionDays: 1, clock: { retained.withLock { $0 } }))
        defer { later.close() }
        var kept = PostgresSegmentsReference()
        kept.add(erased.events.filter { $0.day == firstDay + 1 })
        #expect(try byDevice(later, "/big") == ["phone": 175])
        try expectAgree(kept, later)

        _ = try waitFor { later.erase(.article("/big"), completion: $0) }
        #expect(try check.execute("SELECT count(*) FROM rp_article_segments").int64(0, 0) == 0)
    }
}
