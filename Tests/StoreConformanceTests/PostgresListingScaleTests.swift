import Foundation
import ProgressCore
import ProgressStore
import Testing

@testable import PostgresStore

/// What a page of the PostgreSQL listing costs in the number of articles (docs/performance.md):
/// for each count, the day rows made in SQL (1 to 9 readers an article over 120 days), then a
/// page of 50 in every sort over the last 7, 30 and 90 days and all time, timed, with the first
/// listing of each range (which counts it whole) apart, and a page after an event. A measurement
/// more than a check, so it runs only when `READING_PROGRESS_LISTING_SCALE` names the counts:
///
///     READING_PROGRESS_LISTING_SCALE=1000,200000 swift test -c release --filter PostgresListingScale
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
    private func median(_ runs: Int = 31, _ body: () throws -> Void) rethrows -> Double {
        var times: [Double] = []
        for _ in 0..<runs {
            let started = Date()
            try body()
            times.append(Date().timeIntervalSince(started) * 1000)
        }
        return times.sorted()[runs / 2]
    }

    private struct Figures {
        var firstMs: [String: Double] = [:]
        var pageMs: [String: Double] = [:]
    }

    private func measure(_ articles: Int) throws -> Figures {
        let (name, uri, admin) = try databases.database()
        defer { try? databases.drop(name, admin: admin) }
        do {
            let connection = try PGConnection(uri: uri, connectNow: true)
            defer { connection.close() }
            try PostgresSchema.migrate(connection)
            try make(articles, connection)
        }
        let store = try PostgresStore.open(
            uri: uri, options: .init(clock: { [lastDay] in Int64(lastDay) * dayMs + 3_600_000 }))
        defer { store.close() }
        var figures = Figures()
        let ranges: [(String, DayRange)] = [
            ("7 days", DayRange(from: lastDay - 6, to: lastDay)),
            ("30 days", DayRange(from: lastDay - 29, to: lastDay)),
            ("90 days", DayRange(from: lastDay - 89, to: lastDay)), ("all time", .allTime),
        ]
        for (label, days) in ranges {
            let started = Date()
            let first = try store.listing(ListingQuery(days: days, threshold: 0.9))
            figures.firstMs[label] = Date().timeIntervalSince(started) * 1000
            #expect(first.rows.count == 50 && first.hasMore)
            for order in ListingOrder.allCases {
                let query = ListingQuery(days: days, order: order, threshold: 0.9)
                figures.pageMs["\(label), \(order)"] = try median { _ = try store.listing(query) }
            }
            // An event on one article before each page: the page recounts that article.
            var times: [Double] = []
            for reader in 1...15 {
                _ = try store.append([
                    EventRecord(
                        article: "/a/\(reader * 7919 % articles)", reader: "new-\(reader)",
                        timeMs: Int64(lastDay) * dayMs + Int64(reader), progress: 0.5, seenDepth: 0.5,
                        scrollable: true, engagedMs: 1000)
                ])
                let started = Date()
                _ = try store.listing(ListingQuery(days: days, threshold: 0.9))
                times.append(Date().timeIntervalSince(started) * 1000)
            }
            figures.pageMs["\(label), readers, after an event"] = times.sorted()[times.count / 2]
        }
        return figures
    }

    @Test("a page of the listing over a range, timed at each count of articles")
    func timed() throws {
        let measured = try counts.map { try measure($0) }
        guard let few = measured.first, let fewCount = counts.first else { return }
        for (count, figures) in zip(counts, measured) {
            for (label, ms) in figures.firstMs.sorted(by: { $0.key < $1.key }) {
                print(
                    "listing at \(count) articles: first listing of \(label) \(String(format: "%.1f", ms)) ms"
                )
            }
            for (label, ms) in figures.pageMs.sorted(by: { $0.key < $1.key }) {
                let ratio = ms / (few.pageMs[label] ?? ms)
                print(
                    "listing at \(count) articles: \(label): median \(String(format: "%.2f", ms)) ms, "
                        + "\(String(format: "%.2f", ratio))× the page at \(fewCount)")
            }
        }
    }
}
