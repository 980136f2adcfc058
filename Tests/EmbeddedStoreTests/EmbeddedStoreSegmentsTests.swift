import Foundation
import ProgressCore
import ProgressStore
import Testing

@testable import EmbeddedStore

/// Reader-days' segments in the embedded store's files: replayed from the journal after
/// `kill -9`, restored from the checkpoint's snapshots and `sources` table, from a database of
/// the previous schema, and answered from the counters of each class once an article is large.
/// Whether statistics from counters agree with a fold's: exactly, but for quantiles, up to
/// 0.001 low.
func agreeWithFold(_ a: ArticleStatistics?, _ b: ArticleStatistics?) -> Bool {
    guard let a, let b else { return a == nil && b == nil }
    var low = a
    (low.p25, low.median, low.p75) = (b.p25, b.median, b.p75)
    func near(_ x: Double, _ y: Double) -> Bool { x <= y + 1e-9 && x >= y - 0.001 - 1e-9 }
    return near(a.p25, b.p25) && near(a.median, b.median) && near(a.p75, b.p75)
        && abs(low.depthMean - b.depthMean) < 1e-9
        && {
            low.depthMean = b.depthMean
            return low == b
        }()
}

@Suite("EmbeddedStore keeps segments")
struct EmbeddedStoreSegmentsTests {
    static let day: Int32 = 20_000

    static func event(
        _ reader: String, article: String = "/g", day: Int32 = day, at ms: Int64 = 3_600_000,
        device: DeviceClass? = nil, width: DeviceClass? = .phone, source: String? = nil,
        progress: Double = 0.5
    ) -> EventRecord {
        EventRecord(
            article: article, reader: reader, timeMs: Int64(day) * 86_400_000 + ms, progress: progress,
            seenDepth: progress, scrollable: true, engagedMs: 1000, device: device, widthDevice: width,
            source: source)
    }

    /// Readers of devices and sources, a few named by a later event with an earlier time.
    static let events: [EventRecord] = [
        event("a", device: .tablet, source: "google.com"), event("b", width: .desktop),
        event("c", width: nil, source: "t.co"), event("c", at: 1000, device: .phone, source: "newsletter"),
        event("d", day: day + 1, source: "google.com"), event("d", day: day + 1, at: 100, width: .desktop),
    ]

    static func answers(_ store: EmbeddedStore) throws -> [String] {
        var answers: [String] = []
        for filter in [
            SegmentFilter(device: .phone), SegmentFilter(device: .desktop),
            SegmentFilter(source: "google.com"),
            SegmentFilter(source: "newsletter"), SegmentFilter(source: ReaderSource.direct),
        ] {
            let readers = try waitFor {
                store.readers(of: "/g", in: .allTime, segment: filter, completion: $0)
            }
            answers.append(
                "\(filter.device?.rawValue ?? "-") \(filter.source ?? "-"): "
                    + (readers ?? []).map { "\($0.reader)×\($0.events)" }.joined(separator: ","))
        }
        for by in SegmentStatistics.Dimension.allCases {
            let query = SegmentsQuery(statistics: StatisticsQuery(article: "/g", threshold: 0.9), by: by)
            let segments = try waitFor { store.segments(query, completion: $0) }
            answers.append(
                (segments?.segments ?? []).map { "\($0.name)=\($0.statistics.readers)" }.joined(
                    separator: ","))
        }
        return answers
    }

    /// a: tablet, google.com; b: desktop by width, (direct); c: phone named by an event with an
    /// earlier time, which names its source too; d: desktop by its earlier width, google.com.
    static let handAnswers = [
        "phone -: c×2", "desktop -: b×1,d×2", "- google.com: a×1,d×2", "- newsletter: c×2", "- (direct): b×1",
        "desktop=2,phone=1,tablet=1", "google.com=2,(direct)=1,newsletter=1",
    ]

    @Test("the segments of a hand-made case")
    func hand() throws {
        let store = try EmbeddedStore.open(path: ":memory:")
        defer { store.close() }
        for event in Self.events { _ = try waitFor { store.append([event], completion: $0) } }
        #expect(try Self.answers(store) == Self.handAnswers)
    }

    @Test("after kill -9 the journal's replay brings segments back, before and after a checkpoint")
    func replayAfterKill() throws {
        let folder = try TemporaryFolder()
        do {
            let store = try EmbeddedStore.open(path: folder.databasePath)
            _ = try waitFor { store.append(Array(Self.events.prefix(3)), completion: $0) }
            try store.checkpointNow()
            _ = try waitFor { store.append(Array(Self.events.dropFirst(3)), completion: $0) }
            store.abandon()  // as kill -9 does: the last events only in the journal
        }
        let reopened = try EmbeddedStore.open(path: folder.databasePath)
        defer { reopened.close() }
        #expect(try Self.answers(reopened) == Self.handAnswers)
    }

    @Test("after kill -9 with no checkpoint at all, the journal alone brings segments and sources back")
    func journalOnly() throws {
        let folder = try TemporaryFolder()
        do {
            let store = try EmbeddedStore.open(path: folder.databasePath)
            for event in Self.events { _ = try waitFor { store.append([event], completion: $0) } }
            store.abandon()
        }
        let state = try SQLiteConnection(filename: folder.databasePath, busyTimeoutMs: 1_000)
        #expect(try state.integer("SELECT count(*) FROM sources") == 0)
        state.close()
        let reopened = try EmbeddedStore.open(path: folder.databasePath)
        defer { reopened.close() }
        #expect(try Self.answers(reopened) == Self.handAnswers)
    }

    @Test("a checkpoint saves the sources; a restart from it alone answers the same")
    func checkpointAndRestart() throws {
        let folder = try TemporaryFolder()
        do {
            let store = try EmbeddedStore.open(path: folder.databasePath)
            _ = try waitFor { store.append(Self.events, completion: $0) }
            try store.checkpointNow()
            store.abandon()
        }
        let state = try SQLiteConnection(filename: folder.databasePath, busyTimeoutMs: 1_000)
        #expect(try state.integer("SELECT count(*) FROM sources") == 3)
        state.close()
        let reopened = try EmbeddedStore.open(path: folder.databasePath)
        defer { reopened.close() }
        #expect(try Self.answers(reopened) == Self.handAnswers)
        // A source new after the restart gets an id of its own, not one the saved days hold.
        _ = try waitFor { reopened.append([Self.event("e", source: "bing.com")], completion: $0) }
        let bing = try waitFor {
            reopened.readers(
                of: "/g", in: .allTime, segment: SegmentFilter(source: "bing.com"), completion: $0)
        }
        #expect(bing?.map(\.reader) == ["e"])
        #expect(try Self.answers(reopened)[2] == "- google.com: a×1,d×2")
    }

    @Test("a database of schema version 2 opens: its reader-days are of device other, from (direct)")
    func migratesVersionTwo() throws {
        let folder = try TemporaryFolder()
        do {
            let store = try EmbeddedStore.open(path: folder.databasePath)
            _ = try waitFor { store.append(Self.events, completion: $0) }
            store.close()
        }
        // Back to what the previous release wrote: snapshots of format 1, no sources table.
        do {
            let state = try SQLiteConnection(filename: folder.databasePath, busyTimeoutMs: 1_000)
            let row = try state.cached("SELECT data FROM snapshots WHERE name = '/g'")
            #expect(try row.step())
            let old = Self.formatOne(Array(row.blob(0)))
            row.reset()
            let update = try state.cached("UPDATE snapshots SET data = ?1 WHERE name = '/g'")
            try update.bind(1, blob: old)
            try update.run()
            update.reset()
            try state.execute("DROP TABLE sources; PRAGMA user_version = 2")
            state.close()
        }
        let store = try EmbeddedStore.open(path: folder.databasePath)
        defer { store.close() }
        let all = try waitFor { store.readers(of: "/g", in: .allTime, completion: $0) }
        let other = try waitFor {
            store.readers(
                of: "/g", in: .allTime, segment: SegmentFilter(device: .other, source: ReaderSource.direct),
                completion: $0)
        }
        #expect(other == all && all?.count == 4)
        // A later event names the day's segment.
        _ = try waitFor { store.append([Self.event("a", device: .tablet, source: "t.co")], completion: $0) }
        let tablet = try waitFor {
            store.readers(of: "/g", in: .allTime, segment: SegmentFilter(device: .tablet), completion: $0)
        }
        #expect(tablet?.map(\.reader) == ["a"])
        let state = try SQLiteConnection(filename: folder.databasePath, busyTimeoutMs: 1_000)
        defer { state.close() }
        #expect(try state.integer("PRAGMA user_version") == Schema.currentVersion)
    }

    /// `bytes` (a format-2 snapshot) as format 1 wrote it: without its segments.
    static func formatOne(_ bytes: [UInt8]) -> [UInt8] {
        let decoded = try! bytes.withUnsafeBytes { try ArticleCodec.decode($0) }.index
        let segmentBytes = (decoded.readerCount + decoded.otherDays.count) * ArticleCodec.segmentSize
        let histogramBytes = decoded.counters.histograms == nil ? 0 : 2 * DepthHistogram.binCount * 8
        let end = bytes.count - 8 - histogramBytes
        var body = Array(bytes[..<(end - segmentBytes)]) + bytes[end..<(bytes.count - 8)]
        body[0] = 1
        let checksum = body.withUnsafeBytes { XXH64.hash($0) }
        withUnsafeBytes(of: checksum.littleEndian) { body.append(contentsOf: $0) }
        return body
    }

    @Test("retention takes expired reader-days out with their segments; the days kept keep theirs")
    func retention() throws {
        let folder = try TemporaryFolder()
        do {
            let store = try EmbeddedStore.open(path: folder.databasePath)
            _ = try waitFor { store.append(Self.events, completion: $0) }
            store.close()
        }
        let now = Int64(Self.day + 1) * 86_400_000 + 7_200_000
        let store = try EmbeddedStore.open(
            path: folder.databasePath, options: EmbeddedStore.Options(retentionDays: 1, clock: { now }))
        defer { store.close() }
        let answers = try Self.answers(store)
        #expect(
            answers[...4] == [
                "phone -: ", "desktop -: d×2", "- google.com: d×2", "- newsletter: ", "- (direct): ",
            ])
        #expect(answers[5...] == ["desktop=1", "google.com=1"])
    }

    @Test("past the bound a new source counts as (other), after a restart too")
    func bound() throws {
        let folder = try TemporaryFolder()
        var options = EmbeddedStore.Options()
        options.sourceBound = 3
        let sources = ["s1", "s2", "s3", "s4", "s1"]
        do {
            let store = try EmbeddedStore.open(path: folder.databasePath, options: options)
            for (number, source) in sources.enumerated() {
                _ = try waitFor { store.append([Self.event("r\(number)", source: source)], completion: $0) }
            }
            try store.checkpointNow()
            store.close()
        }
        let store = try EmbeddedStore.open(path: folder.databasePath, options: options)
        defer { store.close() }
        _ = try waitFor { store.append([Self.event("r9", source: "s5")], completion: $0) }
        let query = SegmentsQuery(
            statistics: StatisticsQuery(article: "/g", threshold: 0.9), by: .source, limit: 10)
        let segments = try #require(try waitFor { store.segments(query, completion: $0) })
        #expect(
            segments.segments.map { "\($0.name)=\($0.statistics.readers)" } == [
                "(other)=2", "s1=2", "s2=1", "s3=1",
            ])
    }

    @Test("past 16,384 readers, device statistics and segments come from the counters and agree with a fold")
    func counters() throws {
        let index = MemoryIndex()
        let devices: [DeviceClass] = [.phone, .tablet, .desktop]
        index.apply(
            (0..<CounterPolicy.embedded.segmentCountersFrom + 2_000).map { number in
                Self.event("r\(number)", width: devices[number % 3], progress: Double(number % 1000) / 1000)
            })
        let query = SegmentsQuery(statistics: StatisticsQuery(article: "/g", threshold: 0.5), by: .device)
        guard case .answered = try index.segments(query) else {
            Issue.record("the segments were folded")
            return
        }
        // One reader's day changes class: its class's counters take it out and in again, and
        // the class it left finds its times by a scan.
        index.apply([Self.event("r1", at: 1_000, device: .phone, progress: 0.9)])
        let article = try #require(index.state.read { $0.article(named: "/g") })
        for device in DeviceClass.allCases {
            let query = StatisticsQuery(article: "/g", threshold: 0.5, segment: SegmentFilter(device: device))
            if device != .tablet, case .fold = try index.statistics(query) {
                Issue.record("\(device) was folded")
            }
            let match = index.state.read { $0.match(query.segment) }
            let folded = ArticleStatistics.compute(
                readers: article.figures(in: .allTime, matching: match), query: query)
            #expect(agreeWithFold(try index.statisticsNow(query), folded), "\(device)")
        }
        let answered = try index.segmentsNow(query)
        let groups = article.figuresBySegment(in: .allTime, matching: .all, by: .device)
        let folded = SegmentStatistics.compute(
            figures: Dictionary(
                uniqueKeysWithValues: groups.map {
                    (ExactKey(DeviceClass.numbered($0.key).rawValue), $0.value)
                }),
            by: .device, limit: 10, query: query.statistics)
        #expect(answered?.segments.map(\.name) == ["phone", "desktop", "tablet"])
        #expect(answered?.segments.count == folded.segments.count)
        for (a, b) in zip(answered?.segments ?? [], folded.segments) {
            #expect(a.name == b.name && agreeWithFold(a.statistics, b.statistics), "\(a.name)")
        }
    }
}
