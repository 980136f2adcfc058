import Foundation
import ProgressCore
import ProgressStore
import Testing

@testable import PostgresStore

/// What segment questions cost on one article of many readers (docs/performance.md): the day rows
/// made in SQL, the counters from them as the folder would keep them, then each question timed
/// against the unfiltered statistics. A measurement more than a check, so it runs only when
/// `READING_PROGRESS_SEGMENTS_SCALE` names the number of readers:
///
///     READING_PROGRESS_SEGMENTS_SCALE=1000000 swift test --filter PostgresSegmentsScale
@Suite(
    "PostgreSQL segments at scale",
    .enabled(
        if: StoreFactory.postgres != nil
            && ProcessInfo.processInfo.environment["READING_PROGRESS_SEGMENTS_SCALE"] != nil))
struct PostgresSegmentsScaleTests {
    private let readers =
        Int(ProcessInfo.processInfo.environment["READING_PROGRESS_SEGMENTS_SCALE"] ?? "") ?? 0
    private let databases = PostgresConnectionTests()

    /// `readers` readers of `/big` over a week: half on phones, a third on desktops (named or
    /// by width), 40 % from no source and the rest from 100 sources, the first ones most.
    private func make(_ connection: PGConnection) throws {
        try connection.executeScript(
            """
            INSERT INTO rp_sources SELECT 2 + i, 'site-' || i FROM generate_series(0, 99) AS i;
            INSERT INTO rp_reader_days (article, reader, day, max_progress, max_seen, scrollable, events,
                engaged_ms, first_ms, last_ms, device, device_ms, width_device, width_ms, source, source_ms)
            SELECT '/big', 'reader-' || i, \(firstDay) + i % 7, p, least(1, p + 0.1), i % 20 <> 0, 1 + i % 3,
                1000 * (i % 30), t, t + 1000,
                CASE WHEN i % 3 = 0 THEN (i / 3) % 4 END, t, CASE WHEN i % 2 = 0 THEN 0 ELSE (i / 2) % 3 END, t,
                CASE WHEN i % 5 >= 2 THEN 2 + floor(100 * power(random(), 2))::int END, t
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
    }

    /// The median of five runs of `body` and the first (cold) one, in ms.
    private func time(_ body: () throws -> Void) rethrows -> (median: Double, first: Double) {
        var runs: [Double] = []
        for _ in 0..<5 {
            let started = Date()
            try body()
            runs.append(Date().timeIntervalSince(started) * 1000)
        }
        return (runs.sorted()[2], runs[0])
    }

    @Test("segment questions on one article of many readers, timed against its unfiltered statistics")
    func timed() throws {
        let (name, uri, admin) = try databases.database()
        defer { try? databases.drop(name, admin: admin) }
        do {
            let connection = try PGConnection(uri: uri, connectNow: true)
            defer { connection.close() }
            try PostgresSchema.migrate(connection)
            try make(connection)
        }
        let store = try PostgresStore.open(uri: uri)
        defer { store.close() }
        let query = StatisticsQuery(article: "/big", threshold: 0.9)
        var phone = query
        phone.segment = SegmentFilter(device: .phone)
        var site = query
        site.segment = SegmentFilter(source: "site-0")
        var direct = query
        direct.segment = SegmentFilter(source: ReaderSource.direct)
        let all = try #require(try store.statistics(query))
        #expect(all.readers == readers)
        let byDevice = try #require(try store.segmentsAnswer(SegmentsQuery(statistics: query, by: .device)))
        #expect(byDevice.segments.map(\.statistics.readers).reduce(0, +) == readers)
        #expect(byDevice.segments.first { $0.name == "phone" }?.statistics == (try store.statistics(phone)))
        let bySource = try #require(try store.segmentsAnswer(SegmentsQuery(statistics: query, by: .source)))
        #expect(bySource.segments.count == 10 && bySource.other != nil)
        #expect(bySource.segments.first?.name == ReaderSource.direct)

        let unfiltered = try time { _ = try store.statistics(query) }
        let figures: [(String, (median: Double, first: Double))] = [
            ("stats", unfiltered),
            ("stats device=phone", try time { _ = try store.statistics(phone) }),
            (
                "segments by=device",
                try time { _ = try store.segmentsAnswer(SegmentsQuery(statistics: query, by: .device)) }
            ),
            ("stats source=site-0", try time { _ = try store.statistics(site) }),
            ("stats source=(direct)", try time { _ = try store.statistics(direct) }),
            (
                "segments by=source",
                try time { _ = try store.segmentsAnswer(SegmentsQuery(statistics: query, by: .source)) }
            ),
        ]
        for (name, figure) in figures {
            print(
                "segments at \(readers) readers: \(name): median \(String(format: "%.1f", figure.median)) ms, "
                    + "first \(String(format: "%.1f", figure.first)) ms, "
                    + "\(String(format: "%.2f", figure.median / unfiltered.median))× the unfiltered stats")
        }
    }
}
