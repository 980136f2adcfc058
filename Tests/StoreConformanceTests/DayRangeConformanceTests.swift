import EmbeddedStore
import Foundation
import ProgressStore
import Testing

@testable import PostgresStore

/// Ranges of one day on an article large enough for a store to keep counters by day (the
/// embedded store does past 65,536 readers, PostgreSQL past 512, both here past 16,384:
/// ``options``, ``postgresOptions``): the same as the plain computation before and after the
/// article crosses that size, as records of a day move, and through erasure, a restart and
/// retention.
@Suite("Store conformance: one-day ranges of a large article")
struct DayRangeConformanceTests {
    static let readers = 24_000
    /// The embedded store's options: counters by day past 16,384 readers, so that 24,000 cross.
    static let options = {
        var options = EmbeddedStore.Options()
        options.dayCountersFrom = 16_384
        return options
    }()
    /// PostgreSQL's: counters by day past 16,384 readers too.
    static let postgresOptions = {
        var options = PostgresStore.Options()
        options.dayCountersFrom = 16_384
        return options
    }()
    static let stores =
        [StoreFactory.embeddedFile(options), StoreFactory.embeddedMemory(options)]
        + (StoreFactory.postgres(postgresOptions).map { [$0] } ?? [])
    /// D1–D3 hold 8,000 readers each; D0 (one in seven, then 4,286) and D4 (one in ten) a few
    /// thousand, D5 fifty.
    static let days = (0..<6).map { firstDay + Int32($0) }

    static let ranges: [DayRange] =
        days.map { DayRange(from: $0, to: $0) } + [
            DayRange(from: days[5], to: days[5] + 10), DayRange(from: days[0] - 10, to: days[0]),
            DayRange(from: days[5] + 1), DayRange(to: days[0] - 1), DayRange(from: days[1], to: days[2]),
            .allTime,
        ]

    /// Every reader's events, by reader; then, once the article is large, more events on the
    /// first readers' days, so that records made before it was move after.
    static func events(seed: UInt64) -> (readers: [EventRecord], later: [EventRecord]) {
        var random = SplitMix(state: seed)
        func event(_ reader: Int, on day: Int32) -> EventRecord {
            let scrollable = Int.random(in: 0..<10, using: &random) > 0
            let onGrid = Bool.random(using: &random)
            let progress =
                !scrollable
                ? 0
                : onGrid
                    ? Double(Int.random(in: 0...1000, using: &random)) / 1000
                    : Double.random(in: 0...1, using: &random)
            return EventRecord(
                article: "/big", reader: "r\(reader)",
                timeMs: Int64(day) * dayMs + Int64.random(in: 0..<dayMs, using: &random), progress: progress,
                seenDepth: scrollable ? min(1, progress + Double.random(in: 0...0.2, using: &random)) : 1,
                scrollable: scrollable, engagedMs: Int64.random(in: 0...20_000, using: &random))
        }
        var readers: [EventRecord] = []
        for reader in 0..<Self.readers {
            let main = days[1 + reader % 3]
            readers.append(event(reader, on: main))
            if reader % 5 == 0 { readers.append(event(reader, on: main)) }
            if reader % 7 == 0 { readers.append(event(reader, on: days[0])) }
            if reader % 10 == 0 { readers.append(event(reader, on: days[4])) }
            if reader % 480 == 0 { readers.append(event(reader, on: days[5])) }
            if reader % 100 == 0 {
                readers.append(
                    EventRecord(
                        article: "/small", reader: "r\(reader)", timeMs: Int64(main) * dayMs, progress: 0.95,
                        seenDepth: 0.95, scrollable: true, engagedMs: 0))
            }
        }
        var later: [EventRecord] = []
        for reader in 0..<2_000 {
            later.append(event(reader, on: days[1 + reader % 3]))
            if reader % 10 == 0 { later.append(event(reader, on: days[4])) }
            // D0 passes 4,096 reader-days here, where a store may start its histograms.
            if reader % 2 == 0 { later.append(event(reader, on: days[0])) }
        }
        return (readers, later)
    }

    /// Statistics of several kinds and the listing over every range, as `reference` has them.
    static func expectSame(
        _ store: any ProgressStore, _ reference: Reference, _ when: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        for days in ranges {
            let folded = reference.readers(of: "/big", in: days)
            for metric in ArticleStatistics.Metric.allCases {
                for (threshold, minEngaged) in [(0.9, 0.0), (0.5, 0.0), (0.3335, 0.0), (0.9, 5.0)] {
                    let query = StatisticsQuery(
                        article: "/big", days: days, metric: metric, threshold: threshold,
                        minEngagedSeconds: minEngaged)
                    let got = try store.statistics(query)
                    let want = folded.map { ArticleStatistics.compute(readers: $0, query: query) }
                    #expect(
                        agree(got, want),
                        "\(when), \(query): \(String(describing: got)) vs \(String(describing: want))",
                        sourceLocation: sourceLocation)
                }
            }
            for threshold in [0.9, 0.3335] {
                let query = ListingQuery(days: days, order: .article, threshold: threshold, limit: 10)
                let got = try store.listing(query)
                #expect(
                    agree(got, reference.listing(query)), "\(when), \(query): \(got)",
                    sourceLocation: sourceLocation)
            }
        }
    }

    /// Appends `events` 2,000 at a time, to the store and the reference.
    static func append(_ events: [EventRecord], to store: any ProgressStore, _ reference: inout Reference)
        throws
    {
        for start in stride(from: 0, to: events.count, by: 2_000) {
            let batch = Array(events[start..<min(start + 2_000, events.count)])
            #expect(try store.append(batch).counted == batch.count)
            reference.add(batch)
        }
    }

    @Test(
        "one-day ranges equal the plain computation as the article grows and after erasure",
        arguments: stores)
    func growingAndErased(factory: StoreFactory) throws {
        let place = try factory.makePlace()
        let store = try place.open()
        defer { store.close() }
        var reference = Reference()
        let (readers, later) = Self.events(seed: 81)
        let small = readers.firstIndex { $0.reader == "r12000" }!
        try Self.append(Array(readers[..<small]), to: store, &reference)
        try Self.expectSame(store, reference, "below the threshold")
        try Self.append(Array(readers[small...]), to: store, &reference)
        try Self.expectSame(store, reference, "past it")
        try Self.append(later, to: store, &reference)
        try Self.expectSame(store, reference, "with records moved")

        for reader in ["r3", "r7", "r70"] { _ = try waitFor { store.erase(.reader(reader), completion: $0) } }
        var erased = Reference()
        erased.add(reference.events.filter { !["r3", "r7", "r70"].contains($0.reader) })
        try Self.expectSame(store, erased, "after erasure")
    }

    @Test("one-day ranges of the embedded file store hold through a restart and retention")
    func restartAndRetention() throws {
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("DayRange-\(UUID().uuidString)", isDirectory: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("store.sqlite3").path
        var reference = Reference()
        let (readers, later) = Self.events(seed: 82)
        do {
            let store = try EmbeddedStore.open(path: path, options: Self.options)
            try Self.append(readers + later, to: store, &reference)
            _ = try waitFor { store.erase(.reader("r14"), completion: $0) }
            store.close()
        }
        var erased = Reference()
        erased.add(reference.events.filter { $0.reader != "r14" })
        do {
            let store = try EmbeddedStore.open(path: path, options: Self.options)
            defer { store.close() }
            try Self.expectSame(store, erased, "after a restart")
        }
        // Five days kept on D5: D0 goes.
        let now = Int64(Self.days[5]) * dayMs + dayMs / 2
        var retention = Self.options
        retention.retentionDays = 5
        retention.clock = { now }
        let store = try EmbeddedStore.open(path: path, options: retention)
        defer { store.close() }
        var kept = Reference()
        kept.add(erased.events.filter { $0.day >= Self.days[1] })
        try Self.expectSame(store, kept, "after retention")
    }
}
