import Foundation
import ProgressStore
import Synchronization
import Testing

@testable import PostgresStore

/// The PostgreSQL listing's kept ranges (``ListingRanges``) through what changes them: folds,
/// erasures, retention, two nodes folding and listing at once, more ranges than are kept, and
/// a database of schema 3 migrating. Every page is held to the plain computation.
@Suite("PostgreSQL listing: kept ranges", .enabled(if: StoreFactory.postgres != nil))
struct PostgresListingRangesTests {
    private let databases = PostgresConnectionTests()
    private static let articles = (0..<24).map { "/r/\($0 % 5)/article-\($0)" } + ["/r/ü", "/s"]
    private static let ranges = [
        DayRange(from: firstDay + 2, to: firstDay + 5), DayRange(from: firstDay + 8), .allTime,
    ]

    /// Every page of every order over `ranges`, 7 rows a page, against `reference`.
    private func expectListings(
        _ store: any ProgressStore, _ reference: Reference, ranges: [DayRange] = Self.ranges,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        for days in ranges {
            let rows = reference.rows(in: days, threshold: 0.9)
            for order in ListingOrder.allCases {
                var page = ListingQuery(days: days, order: order, threshold: 0.9, limit: 7)
                while true {
                    let actual = try store.listing(page)
                    let expected = reference.listing(page, of: rows)
                    #expect(agree(actual, expected), "\(page)", sourceLocation: sourceLocation)
                    guard agree(actual, expected), actual.hasMore else { break }
                    page.offset += actual.rows.count
                }
            }
        }
    }

    private func count(_ table: String, _ uri: String) throws -> Int64 {
        let connection = try PGConnection(uri: uri, connectNow: true)
        defer { connection.close() }
        return try connection.execute("SELECT count(*) FROM \(table)").int64(0, 0)
    }

    @Test("kept ranges follow folds, both erasures and retention")
    func follows() throws {
        let (name, uri, admin) = try databases.database()
        defer { try? databases.drop(name, admin: admin) }
        let now = Mutex(Int64(firstDay + 9) * dayMs)
        let store = try PostgresStore.open(uri: uri, options: .init(clock: { now.withLock { $0 } }))
        var reference = Reference()
        for round in 0..<4 {
            let events = randomEvents(
                count: 150, articles: Array(Self.articles.prefix(8 + 6 * round)), readers: 12,
                seed: 40 + UInt64(round))
            _ = try store.append(events)
            reference.add(events)
            try expectListings(store, reference)
        }
        _ = try waitFor { store.erase(.reader("reader-3"), completion: $0) }
        _ = try waitFor { store.erase(.article("/r/1/article-6"), completion: $0) }
        var erased = Reference()
        erased.add(reference.events.filter { $0.reader != "reader-3" && $0.article != "/r/1/article-6" })
        try expectListings(store, erased)
        // Every range has recounted past the erasures: the erased article's id is nowhere.
        #expect(try count("rp_articles_gone", uri) == 0)
        #expect(
            try count("rp_listing_rows WHERE article = '/r/1/article-6'", uri) == 0)
        store.close()

        // Retention keeping the last two days: articles left without readers leave the listing.
        now.withLock { $0 = Int64(firstDay + 9) * dayMs + 1 }
        let later = try PostgresStore.open(
            uri: uri, options: .init(retentionDays: 2, clock: { now.withLock { $0 } }))
        defer { later.close() }
        var kept = Reference()
        kept.add(erased.events.filter { $0.day >= firstDay + 8 })
        try expectListings(later, kept)
        #expect(try count("rp_articles_gone", uri) == 0)
    }

    @Test("two nodes folding, erasing and listing the same ranges at once answer as one store")
    func twoNodes() throws {
        let (name, uri, admin) = try databases.database()
        defer { try? databases.drop(name, admin: admin) }
        let a = try PostgresStore.open(uri: uri)
        defer { a.close() }
        let b = try PostgresStore.open(uri: uri)
        defer { b.close() }
        // Readers and articles of their own, erased while the nodes fold and list.
        let doomed = randomEvents(count: 200, articles: Self.articles, readers: 6, seed: 3).map { event in
            var event = event
            event.reader = "doomed-" + event.reader
            return event
        }
        let doomedArticles = (0..<6).map { "/doomed/\($0)" }
        let alone = randomEvents(count: 60, articles: doomedArticles, readers: 10, seed: 4)
        _ = try a.append(doomed + alone)
        for days in Self.ranges { _ = try b.listing(ListingQuery(days: days, threshold: 0.9)) }
        let rounds = (0..<16).map { round in
            randomEvents(count: 30, articles: Self.articles, readers: 20, seed: 700 + UInt64(round))
        }
        let failures = Mutex<[String]>([])
        let group = DispatchGroup()
        for (index, node) in [a, b].enumerated() {
            DispatchQueue.global().async(group: group) {
                for round in stride(from: index, to: rounds.count, by: 2) {
                    do {
                        _ = try node.append(rounds[round])
                        for days in Self.ranges {
                            _ = try node.listing(ListingQuery(days: days, order: .recent, threshold: 0.9))
                        }
                    } catch {
                        failures.withLock { $0.append("\(error)") }
                    }
                }
            }
        }
        DispatchQueue.global().async(group: group) {
            for index in 0..<6 {
                do {
                    let node = index % 2 == 0 ? a : b
                    _ = try waitFor { node.erase(.reader("doomed-reader-\(index)"), completion: $0) }
                    _ = try waitFor { node.erase(.article(doomedArticles[index]), completion: $0) }
                } catch {
                    failures.withLock { $0.append("\(error)") }
                }
            }
        }
        group.wait()
        #expect(failures.withLock { $0 } == [])
        var reference = Reference()
        reference.add(rounds.flatMap { $0 })
        try expectListings(a, reference)
        try expectListings(b, reference)
        #expect(try count("rp_articles_gone", uri) == 0)
    }

    @Test(
        "past the kept number, the least recently listed range goes; a range of as many days moves; both stay exact"
    )
    func boundedRanges() throws {
        let (name, uri, admin) = try databases.database()
        defer { try? databases.drop(name, admin: admin) }
        let now = Mutex(Int64(firstDay) * dayMs)
        let store = try PostgresStore.open(uri: uri, options: .init(clock: { now.withLock { $0 } }))
        defer { store.close() }
        var reference = Reference()
        let events = randomEvents(count: 300, articles: Self.articles, readers: 15, seed: 9)
        _ = try store.append(events)
        reference.add(events)
        // Of as many lengths as the bound and three more: the first three go.
        let lengths = (0..<(ListingRanges.keptRanges + 3)).map {
            DayRange(from: firstDay, to: firstDay + Int32($0))
        }
        for days in lengths {
            now.withLock { $0 += ListingRanges.useResolutionMs }
            try expectListings(store, reference, ranges: [days])
        }
        #expect(try count("rp_listing_ranges", uri) == Int64(ListingRanges.keptRanges))
        // Five days moving by one, as "the last 5 days" does each day: one range moves along.
        let moving = (1...5).map { DayRange(from: firstDay + Int32($0), to: firstDay + 4 + Int32($0)) }
        for (index, days) in moving.enumerated() {
            now.withLock { $0 += ListingRanges.useResolutionMs }
            let more = randomEvents(count: 20, articles: Self.articles, readers: 15, seed: 20 + UInt64(index))
            _ = try store.append(more)
            reference.add(more)
            try expectListings(store, reference, ranges: [days])
        }
        #expect(try count("rp_listing_ranges", uri) == Int64(ListingRanges.keptRanges))
        #expect(try count("rp_listing_ranges WHERE day_to - day_from = 4", uri) == 1)
        let more = randomEvents(count: 50, articles: Self.articles + ["/new"], readers: 15, seed: 10)
        _ = try store.append(more)
        reference.add(more)
        try expectListings(store, reference, ranges: lengths + moving)
        #expect(try count("rp_listing_ranges", uri) == Int64(ListingRanges.keptRanges))
    }

    @Test("two nodes listing ranges of as many days at once, each moving the other's, answer exactly")
    func movingRanges() throws {
        let (name, uri, admin) = try databases.database()
        defer { try? databases.drop(name, admin: admin) }
        let a = try PostgresStore.open(uri: uri)
        defer { a.close() }
        let b = try PostgresStore.open(uri: uri)
        defer { b.close() }
        var reference = Reference()
        let events = randomEvents(count: 400, articles: Self.articles, readers: 15, seed: 31)
        _ = try a.append(events)
        reference.add(events)
        let pairs = [
            (a, DayRange(from: firstDay + 1, to: firstDay + 5)),
            (b, DayRange(from: firstDay + 2, to: firstDay + 6)),
        ]
        let expected = pairs.map { _, days in
            ListingOrder.allCases.map {
                reference.listing(ListingQuery(days: days, order: $0, threshold: 0.9))
            }
        }
        let failures = Mutex<[String]>([])
        let group = DispatchGroup()
        for (index, (node, days)) in pairs.enumerated() {
            DispatchQueue.global().async(group: group) {
                for round in 0..<24 {
                    let order = ListingOrder.allCases[round % 4]
                    do {
                        let page = try node.listing(ListingQuery(days: days, order: order, threshold: 0.9))
                        if !agree(page, expected[index][round % 4]) {
                            failures.withLock { $0.append("\(days) \(order): \(page)") }
                        }
                    } catch {
                        failures.withLock { $0.append("\(error)") }
                    }
                }
            }
        }
        group.wait()
        #expect(failures.withLock { $0 } == [])
    }

    @Test("a database of schema 3 migrates: its articles are listed over a range")
    func migratesThirdSchema() throws {
        let (name, uri, admin) = try databases.database()
        defer { try? databases.drop(name, admin: admin) }
        do {
            let connection = try PGConnection(uri: uri, connectNow: true)
            defer { connection.close() }
            for step in 0..<3 { try connection.executeScript(PostgresSchema.migrations[step]) }
            // Two articles as schema 3 holds them (their counters are not what the listing reads).
            try connection.executeScript(
                """
                CREATE TABLE rp_meta (key text PRIMARY KEY, value text NOT NULL);
                INSERT INTO rp_meta VALUES ('schema_version', '3');
                INSERT INTO rp_reader_days (article, reader, day, max_progress, max_seen, scrollable, events,
                    engaged_ms, first_ms, last_ms)
                VALUES ('/old', 'r1', \(firstDay), 0.95, 1, true, 2, 100, 10, 20),
                    ('/old', 'r2', \(firstDay + 1), 0.5, 0.6, true, 1, 100, \(dayMs * Int64(firstDay + 1)),
                        \(dayMs * Int64(firstDay + 1) + 5)),
                    ('/older', 'r1', \(firstDay), 0.2, 0.3, false, 1, 0, 30, 40);
                INSERT INTO rp_articles SELECT article, count(*), 0, sum(events), 0, min(first_ms), max(last_ms),
                    0, 0, '', '' FROM rp_reader_days GROUP BY article;
                """)
        }
        let store = try PostgresStore.open(uri: uri)
        defer { store.close() }
        let page = try store.listing(ListingQuery(days: DayRange(from: firstDay + 1), threshold: 0.9))
        #expect(
            page
                == ListingPage(
                    rows: [
                        ArticleListing(
                            article: "/old", readers: 1, events: 1, completionRate: 0, meanDepth: 0.5,
                            lastEventMs: dayMs * Int64(firstDay + 1) + 5),
                        ArticleListing(
                            article: "/older", readers: 0, events: 0, completionRate: 0, meanDepth: 0,
                            lastEventMs: nil),
                    ], hasMore: false))
        #expect(
            try count(
                "rp_meta WHERE key = 'schema_version' AND value = '\(PostgresSchema.currentVersion)'", uri)
                == 1)
    }
}
