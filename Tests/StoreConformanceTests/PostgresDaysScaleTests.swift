import Foundation
import ProgressCore
import ProgressStore
import Testing

@testable import PostgresStore

/// What a range of one day costs on one article of many readers (docs/performance.md): the day
/// rows made in SQL, the counters from them as the folder would keep them (all time, segments
/// and days, the last timed), then the statistics
/// and the listing line over one day timed, the first (cold) run and the median of five. A
/// measurement more than a check, so it runs only when `READING_PROGRESS_DAYS_SCALE` names the
/// number of readers:
///
///     READING_PROGRESS_DAYS_SCALE=1000000 swift test --filter PostgresDaysScale
@Suite(
    "PostgreSQL one-day ranges at scale",
    .enabled(
        if: StoreFactory.postgres != nil
            && ProcessInfo.processInfo.environment["READING_PROGRESS_DAYS_SCALE"] != nil))
struct PostgresDaysScaleTests {
    private let readers =
        Int(ProcessInfo.processInfo.environment["READING_PROGRESS_DAYS_SCALE"] ?? "") ?? 0
    private let databases = PostgresConnectionTests()

    /// `readers` readers of `/big` over a week, a seventh of them each day.
    private func make(_ connection: PGConnection) throws {
        try connection.executeScript(
            """
            INSERT INTO rp_reader_days (article, reader, day, max_progress, max_seen, scrollable, events,
                engaged_ms, first_ms, last_ms)
            SELECT '/big', 'reader-' || i, \(firstDay) + i % 7, p, least(1, p + 0.1), i % 20 <> 0, 1 + i % 3,
                1000 * (i % 30), t, t + 1000
            FROM (SELECT i, round(random() * 1000)::float8 / 1000 AS p,
                    (\(firstDay) + i % 7)::int8 * 86400000 + i % 86400000 AS t
                FROM generate_series(0, \(readers - 1)) AS i) AS g;
            INSERT INTO rp_articles VALUES ('/big', 0, 0, 0, 0, 0, 0, 0, 0, '', '');
            ANALYZE;
            """)
        var counters = ArticleCounters(keepsHistograms: true)
        for figures in try PostgresStore.readers(of: "/big", in: .allTime, on: connection) ?? [] {
            counters.move(from: nil, to: figures.figures)
        }
        try Folding.save([ExactKey("/big"): counters], on: connection)
        try Segmenting.countSegments(of: [ExactKey("/big")], on: connection)
        // What the fold that takes an article past the bound does, once.
        let started = Date()
        try DayCounting.count([ExactKey("/big")], on: connection)
        print(
            "one day at \(readers) readers: counting the days from the rows: "
                + "\(String(format: "%.0f", Date().timeIntervalSince(started) * 1000)) ms")
    }

    /// The first (cold) run of `body` and the median of five, in ms.
    private func time(_ body: () throws -> Void) rethrows -> (first: Double, median: Double) {
        var runs: [Double] = []
        for _ in 0..<5 {
            let started = Date()
            try body()
            runs.append(Date().timeIntervalSince(started) * 1000)
        }
        return (runs[0], runs.sorted()[2])
    }

    @Test("one-day statistics and listing lines on one article of many readers, timed")
    func timed() throws {
        let (name, uri, admin) = try databases.database()
        defer { try? databases.drop(name, admin: admin) }
        do {
            let connection = try PGConnection(uri: uri, connectNow: true)
            defer { connection.close() }
            try PostgresSchema.migrate(connection)
            try make(connection)
        }
        var store = try PostgresStore.open(uri: uri)
        defer { store.close() }
        let day = firstDay + 3
        let oneDay = DayRange(from: day, to: day)
        let query = StatisticsQuery(article: "/big", days: oneDay, threshold: 0.9)
        var seen = query
        seen.metric = .seenDepth
        let started = Date()
        let answer = try #require(try store.statistics(query))
        let cold = Date().timeIntervalSince(started) * 1000
        #expect(answer.readers == (readers + 6 - 3) / 7)
        var figures: [(String, (first: Double, median: Double))] = [
            ("stats days=D", (cold, try time { _ = try store.statistics(query) }.median)),
            ("stats days=D metric=seenDepth", try time { _ = try store.statistics(seen) }),
        ]
        // The first listing of the range counts every article's line; one event of `/big` then
        // has its line recounted at the next.
        let listing = ListingQuery(days: oneDay, threshold: 0.9)
        let first = Date()
        #expect(try store.listing(listing).rows.first?.readers == answer.readers)
        let counted = Date().timeIntervalSince(first) * 1000
        figures.append(("listing days=D, first", (counted, counted)))
        var event = 0
        figures.append(
            (
                "listing days=D after an event",
                try time {
                    event += 1
                    let record = EventRecord(
                        article: "/big", reader: "new-\(event)", timeMs: Int64(day) * dayMs + 5,
                        progress: 0.5,
                        seenDepth: 0.5, scrollable: true, engagedMs: 0)
                    #expect(try store.append([record]).counted == 1)
                    _ = try store.listing(listing)
                }
            ))
        // What the counters by day cost the fold: batches of 1,000 events of the article on the
        // day, half by its readers, folded and read back, with and (the table emptied, a store
        // that never counts days) without them.
        func folds(_ label: String) throws -> (first: Double, median: Double) {
            try time {
                event += 1
                let batch = (0..<1_000).map { (i: Int) -> EventRecord in
                    // Readers of the day are those with i % 7 == 3.
                    let known: Int = 7 * (event * 500 + i) + 3
                    let reader = i % 2 == 0 ? "reader-\(known)" : "\(label)-\(event)-\(i)"
                    return EventRecord(
                        article: "/big", reader: reader, timeMs: Int64(day) * dayMs + Int64(i),
                        progress: Double(i) / 1000, seenDepth: 0.7, scrollable: true, engagedMs: 100)
                }
                #expect(try store.append(batch).counted == batch.count)
                _ = try store.statistics(StatisticsQuery(article: "/big", threshold: 0.9))
            }
        }
        figures.append(("a batch of 1,000 events folded, with counters by day", try folds("with")))
        store.close()
        do {
            let connection = try PGConnection(uri: uri, connectNow: true)
            defer { connection.close() }
            try connection.execute("DELETE FROM rp_article_days")
        }
        var never = PostgresStore.Options()
        never.dayCountersFrom = .max
        store = try PostgresStore.open(uri: uri, options: never)
        figures.append(("a batch of 1,000 events folded, without", try folds("without")))
        for (name, figure) in figures {
            print(
                "one day at \(readers) readers: \(name): first \(String(format: "%.1f", figure.first)) ms, "
                    + "median \(String(format: "%.1f", figure.median)) ms")
        }
    }
}
