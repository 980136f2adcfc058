import Foundation
import ProgressCore
import ProgressStore
import Testing

@testable import PostgresStore

/// What a page of the PostgreSQL listing costs in the number of articles (docs/performance.md):
/// for each count, the day rows made in SQL (1 to 9 readers an article over 120 days), then a
/// page of 50 in every sort over the last 7, 30 and 90 days and all time, timed, with the first
/// listing of each range (which counts it whole) apart, a page after an event, and the first
/// listing of each range moved a day on. A measurement more than a check, so it runs only when
/// `READING_PROGRESS_LISTING_SCALE` names the counts:
///
///     READING_PROGRESS_LISTING_SCALE=1000,200000 swift test --filter PostgresListingScale
@Suite(
    "PostgreSQL listing at scale",
    .enabled(
        if: StoreFactory.postgres != nil
            && ProcessInfo.processInfo.environment["READING_PROGRESS_LISTING_SCALE"] != nil))
struct PostgresListingScaleTests {
    private let counts = (ProcessInfo.processInfo.environment["READING_PROGRESS_LISTING_SCALE"] ?? "")
        .split(separator: ",").compactMap { Int($0) }
    private let databases = PostgresConnectionTests()
    /// The last day with events: the ranges end there.
    private let lastDay = firstDay + 119

    private func make(_ articles: Int, _ connection: PGConnection) throws {
        try connection.executeScript(
            """
            INSERT INTO rp_reader_days (article, reader, day, max_progress, max_seen, scrollable, events,
                engaged_ms, first_ms, last_ms)
            SELECT '/a/' || a, 'reader-' || r, g.day, g.p, g.p, (a + r) % 17 <> 0, 1 + r % 3, 1000, g.t, g.t + 1000
            FROM generate_series(0, \(articles - 1)) AS a, generate_series(0, a % 9) AS r,
                LATERAL (SELECT \(firstDay) + (a * 37 + r * 53) % 120 AS day,
                    ((a * 13 + r * 7) % 1001)::float8 / 1000 AS p,
                    (\(firstDay) + (a * 37 + r * 53) % 120)::int8 * 86400000 + (a * 1000 + r) % 86400000 AS t) AS g;
            INSERT INTO rp_articles (article, readers, unscrollable, events, engaged_ms, first_ms, last_ms,
                progress_units, seen_units, progress_bins, seen_bins)
            SELECT article, count(*), 0, sum(events), 0, min(first_ms), max(last_ms), 0, 0, '', ''
            FROM rp_reader_days GROUP BY article;
            ANALYZE;
            """)
    }

    /// Milliseconds `body` takes: the median of `runs`.
    private func median(_ runs: Int, _ body: () throws -> Void) rethrows -> Double {
        var times: [Double] = []
        for _ in 0..<runs { times.append(try milliseconds(body)) }
        return times.sorted()[runs / 2]
    }

    private func milliseconds(_ body: () throws -> Void) rethrows -> Double {
        let started = Date()
        try body()
        return Date().timeIntervalSince(started) * 1000
    }

    /// One count's database, its store and a connection of its own.
    private struct Place {
        var articles: Int
        var name: String
        var admin: String
        var store: PostgresStore
        var direct: PGConnection
    }

    private var ranges: [(String, DayRange)] {
        [
            ("7 days", DayRange(from: lastDay - 6, to: lastDay)),
            ("30 days", DayRange(from: lastDay - 29, to: lastDay)),
            ("90 days", DayRange(from: lastDay - 89, to: lastDay)), ("all time", .allTime),
        ]
    }

    private func place(_ articles: Int) throws -> Place {
        let (name, uri, admin) = try databases.database()
        let connection = try PGConnection(uri: uri, connectNow: true)
        try PostgresSchema.migrate(connection)
        try make(articles, connection)
        let store = try PostgresStore.open(
            uri: uri, options: .init(clock: { [lastDay] in Int64(lastDay) * dayMs + 3_600_000 }))
        return Place(articles: articles, name: name, admin: admin, store: store, direct: connection)
    }

    private func report(_ label: String, _ places: [Place], _ ms: [Double], unit: String = "a page") {
        let figures = zip(places, ms).map { "\(String(format: "%.2f", $1)) ms at \($0.articles)" }
        let ratio = (ms.last ?? 0) / (ms.first ?? 1)
        print(
            "listing, \(label): \(figures.joined(separator: ", ")) (\(unit)): \(String(format: "%.2f", ratio))×"
        )
    }

    @Test("a page of the listing over a range, timed at each count of articles")
    func timed() throws {
        let places = try counts.map { try place($0) }
        defer {
            for place in places {
                place.store.close()
                place.direct.close()
                try? databases.drop(place.name, admin: place.admin)
            }
        }
        for (label, days) in ranges {
            // What a page cost before ranges were kept: every article's line tallied at once.
            let tallied = try places.map { place in
                try median(3) {
                    try place.direct.execute(
                        """
                        SELECT a.article, t.* FROM rp_articles AS a LEFT JOIN (
                            SELECT article, count(*), sum(events)::int8, count(*) FILTER (WHERE scrollable),
                                count(*) FILTER (WHERE scrollable AND progress >= 0.9), max(last_ms)
                            FROM (SELECT article, reader, max(max_progress) AS progress,
                                    bool_or(scrollable) AS scrollable, sum(events) AS events, max(last_ms) AS last_ms
                                FROM rp_reader_days WHERE day BETWEEN $1 AND $2 GROUP BY article, reader) AS r
                            GROUP BY article) AS t ON t.article = a.article
                        """, [.int(Int64(days.from ?? Int32.min)), .int(Int64(days.to ?? Int32.max))])
                }
            }
            report("\(label), every line tallied in one query", places, tallied, unit: "median of 3")
            let first = try places.map { place in
                try milliseconds {
                    let page = try place.store.listing(ListingQuery(days: days, threshold: 0.9))
                    #expect(page.rows.count == 50 && page.hasMore)
                }
            }
            report("\(label), first listing (the range counted)", places, first, unit: "once")
        }
        // What autovacuum does after the counts' inserts, done now rather than amid the timed pages.
        for place in places { try place.direct.executeScript("VACUUM ANALYZE") }
        // The two counts in turn, so that the machine's load falls on both alike.
        for (label, days) in ranges {
            for order in ListingOrder.allCases {
                let query = ListingQuery(days: days, order: order, threshold: 0.9)
                var times = places.map { _ in [Double]() }
                for _ in 0..<61 {
                    for (index, place) in places.enumerated() {
                        times[index].append(try milliseconds { _ = try place.store.listing(query) })
                    }
                }
                report("\(label), sort=\(order)", places, times.map { $0.sorted()[30] }, unit: "median of 61")
                report("\(label), sort=\(order)", places, times.map { $0.min()! }, unit: "fastest of 61")
            }
            // An event on one article before each page: the page folds it and recounts that article.
            var times = places.map { _ in [Double]() }
            for reader in 1...21 {
                for (index, place) in places.enumerated() {
                    _ = try place.store.append([
                        EventRecord(
                            article: "/a/\(reader * 7919 % place.articles)", reader: "new-\(label)-\(reader)",
                            timeMs: Int64(lastDay) * dayMs + Int64(reader), progress: 0.5, seenDepth: 0.5,
                            scrollable: true, engagedMs: 1000)
                    ])
                    times[index].append(
                        try milliseconds {
                            _ = try place.store.listing(ListingQuery(days: days, threshold: 0.9))
                        })
                }
            }
            report(
                "\(label), sort=readers after an event", places, times.map { $0.sorted()[10] },
                unit: "median of 21")
        }
        // The next day: each relative range moves by a day, recounting the articles of two days.
        for (label, days) in ranges where days != .allTime {
            let next = DayRange(from: days.from! + 1, to: days.to! + 1)
            let moved = try places.map { place in
                try milliseconds { _ = try place.store.listing(ListingQuery(days: next, threshold: 0.9)) }
            }
            report("\(label), first listing a day later (the range moved)", places, moved, unit: "once")
        }
    }
}
