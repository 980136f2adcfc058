import Foundation
import ProgressCore
import ProgressStore
import Testing

@testable import PostgresStore

/// Segments in the PostgreSQL store (docs/api.md, "Segments"): each reader-day's device class
/// and source as the folded rows keep them, filters, the segments question, the bound on sources,
/// and two nodes on one database.
@Suite("PostgreSQL segments", .enabled(if: StoreFactory.postgres != nil))
struct PostgresSegmentsTests {
    private let start = Int64(firstDay) * dayMs + 3_600_000

    /// Every filter and question over `article` agrees with `reference`.
    private func expectSame(
        _ store: any ProgressStore, _ reference: PostgresSegmentsReference, article: String,
        filters: [SegmentFilter], ranges: [DayRange] = [.allTime],
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        for days in ranges {
            for (filter, completing) in filters.flatMap({ filter in [(filter, 0.5), (filter, 0.4321)] }) {
                let query = StatisticsQuery(
                    article: article, days: days, threshold: completing,
                    minEngagedSeconds: completing == 0.5 ? 0 : 5,
                    segment: filter)
                let readers = try store.segmentReaders(of: article, in: days, filter)
                #expect(
                    readers == reference.readers(of: article, in: days, segment: filter),
                    "\(article) \(days) \(filter)", sourceLocation: sourceLocation)
                #expect(
                    agree(try store.statistics(query), reference.statistics(query)),
                    "\(article) \(days) \(filter)", sourceLocation: sourceLocation)
                for by in SegmentStatistics.Dimension.allCases {
                    for limit in [1, 2, 10] {
                        let segments = SegmentsQuery(statistics: query, by: by, limit: limit)
                        #expect(
                            agreeSegments(try store.segmentsAnswer(segments), reference.segments(segments)),
                            "\(article) \(days) \(filter) by \(by) limit \(limit)",
                            sourceLocation: sourceLocation)
                    }
                }
            }
        }
    }

    @Test("a day's device: the earliest named by time, else the earliest vertical event's width, else other")
    func deviceRules() throws {
        let place = try StoreFactory.postgres!.makePlace()
        let store = try place.open()
        defer { store.close() }
        let first: [EventRecord] = [
            segmentEvent("/d", "named", start + 10, device: .desktop),
            segmentEvent("/d", "named", start + 5, width: .phone),
            segmentEvent("/d", "derived", start + 10, width: .tablet),
            segmentEvent("/d", "horizontal", start + 1),
            segmentEvent("/d", "tie", start + 7, device: .tablet),
            segmentEvent("/d", "later", start + 9, device: .phone),
            segmentEvent("/d", "two-days", start, device: .phone),
            segmentEvent("/d", "two-days", start + dayMs, progress: 0.9, device: .desktop),
        ]
        // Folded apart from the first batch: the rows' segments meet the events that come after.
        let second: [EventRecord] = [
            segmentEvent("/d", "derived", start + 5, width: .phone),
            segmentEvent("/d", "tie", start + 7, device: .phone),
            segmentEvent("/d", "later", start + 3, device: .desktop),
        ]
        var reference = PostgresSegmentsReference()
        for batch in [first, second] {
            _ = try store.append(batch)
            reference.add(batch)
            _ = try store.statistics(StatisticsQuery(article: "/d", threshold: 0.5))
        }
        let byDevice = try #require(
            try store.segmentsAnswer(
                SegmentsQuery(statistics: StatisticsQuery(article: "/d", threshold: 0.5), by: .device)))
        let counts = Dictionary(
            uniqueKeysWithValues: byDevice.segments.map { ($0.name, $0.statistics.readers) })
        // named, later and two-days on desktop; derived and two-days on phones; tie on a tablet.
        #expect(counts == ["desktop": 3, "phone": 2, "tablet": 1, "other": 1])
        #expect(byDevice.other == nil && byDevice.segments.first?.name == "desktop")
        let phone = try store.segmentReaders(of: "/d", SegmentFilter(device: .phone))
        #expect(phone?.map(\.reader) == ["derived", "two-days"])
        #expect(phone?.last?.figures.maxProgress == 0.5, "two-days's phone day only")
        let days = [DayRange.allTime, DayRange(from: firstDay + 1), DayRange(to: firstDay)]
        try expectSame(
            store, reference, article: "/d",
            filters: [.all] + DeviceClass.allCases.map { SegmentFilter(device: $0) }, ranges: days)
    }

    @Test(
        "a day's source: the earliest named by time, (direct) without one; a source nobody came from is empty"
    )
    func sourceRules() throws {
        let place = try StoreFactory.postgres!.makePlace()
        let store = try place.open()
        defer { store.close() }
        let events: [EventRecord] = [
            segmentEvent("/s", "direct", start),
            segmentEvent("/s", "news", start + 5, source: "news.example"),
            segmentEvent("/s", "news", start + 9, source: "mail"),
            segmentEvent("/s", "moved", start + 5, source: "news.example"),
            segmentEvent("/s", "moved", start + 1, source: "mail"),
            segmentEvent("/s", "named-direct", start + 1, device: .tablet, source: ReaderSource.direct),
            segmentEvent("/s", "named-direct", start + 2, source: "news.example"),
        ]
        var reference = PostgresSegmentsReference()
        for event in events {
            _ = try store.append([event])
            reference.add([event])
        }
        let query = StatisticsQuery(article: "/s", threshold: 0.5)
        let bySource = try #require(try store.segmentsAnswer(SegmentsQuery(statistics: query, by: .source)))
        #expect(bySource.segments.map(\.name) == ["(direct)", "mail", "news.example"])
        #expect(bySource.segments.map(\.statistics.readers) == [2, 1, 1])
        let nobody = try #require(
            try store.statistics(
                StatisticsQuery(article: "/s", threshold: 0.5, segment: SegmentFilter(source: "nowhere"))))
        #expect(nobody.readers == 0 && nobody.events == 0)
        #expect(try store.segmentReaders(of: "/s", SegmentFilter(source: "nowhere")) == [])
        #expect(try store.segmentReaders(of: "/none", SegmentFilter(source: "mail")) == nil)
        let filters: [SegmentFilter] = [
            .all, SegmentFilter(source: "mail"), SegmentFilter(source: ReaderSource.direct),
            SegmentFilter(device: .tablet, source: ReaderSource.direct),
            SegmentFilter(device: .phone, source: "mail"), SegmentFilter(source: ReaderSource.other),
        ]
        try expectSame(store, reference, article: "/s", filters: filters)
    }

    @Test("past 10,000 sources a new one counts as (other); the kept ones stay themselves")
    func boundedSources() throws {
        let place = try StoreFactory.postgres!.makePlace()
        let store = try place.open()
        defer { store.close() }
        let bound = Segmenting.maximumSources
        let many = (0..<bound).map {
            segmentEvent("/many", "r\($0)", start + Int64($0), source: "site-\($0)")
        }
        _ = try store.append(many)
        let late = [
            segmentEvent("/many", "late", start, source: "late.example"),
            segmentEvent("/many", "kept", start, source: "site-7"),
        ]
        _ = try store.append(late)
        var reference = PostgresSegmentsReference()
        reference.add(many + late)
        // The fold that counts 10,000 segments anew may outlast a read's wait for it.
        #expect(
            try holdsWithin(120) {
                try store.statistics(StatisticsQuery(article: "/many", threshold: 0.5))?.readers == bound + 2
            })
        let other = try store.segmentReaders(of: "/many", SegmentFilter(source: ReaderSource.other))
        #expect(other?.map(\.reader) == ["late"])
        #expect(try store.segmentReaders(of: "/many", SegmentFilter(source: "late.example")) == [])
        #expect(
            try store.segmentReaders(of: "/many", SegmentFilter(source: "site-7"))?.map(\.reader) == [
                "kept", "r7",
            ])
        let query = SegmentsQuery(
            statistics: StatisticsQuery(article: "/many", threshold: 0.5), by: .source, limit: 50)
        let answer = try #require(try store.segmentsAnswer(query))
        #expect(answer.segments.count == 50 && answer.segments.first?.name == "site-7")
        #expect(answer.other?.statistics.readers == bound + 2 - 2 - 49)
        #expect(agreeSegments(answer, reference.segments(query)))
    }

    @Test("random events: every filter, range and question agrees with the plain computation")
    func randomAgree() throws {
        let place = try StoreFactory.postgres!.makePlace()
        let store = try place.open()
        defer { store.close() }
        var random = SplitMix(state: 41)
        let sources = [nil, "news.example", "mail", "social"]
        let events = randomEvents(count: 1500, articles: ["/x", "/y"], readers: 60, seed: 17).map { event in
            var event = event
            event.device =
                Int.random(in: 0..<3, using: &random) == 0
                ? DeviceClass.allCases.randomElement(using: &random) : nil
            event.widthDevice =
                Bool.random(using: &random) ? DeviceClass.allCases.randomElement(using: &random) : nil
            event.source = sources.randomElement(using: &random)!
            return event
        }
        var reference = PostgresSegmentsReference()
        for batch in stride(from: 0, to: events.count, by: 300) {
            let part = Array(events[batch..<min(batch + 300, events.count)])
            _ = try store.append(part)
            reference.add(part)
        }
        let filters: [SegmentFilter] =
            [
                .all, SegmentFilter(device: .phone), SegmentFilter(source: "mail"),
                SegmentFilter(source: "(direct)"),
                SegmentFilter(device: .desktop, source: "social"),
            ]
        let ranges = [DayRange.allTime, DayRange(from: firstDay + 3, to: firstDay + 6)]
        for article in ["/x", "/y"] {
            try expectSame(store, reference, article: article, filters: filters, ranges: ranges)
        }
    }

    /// `count` random events of `readers` readers on `articles`, with random segments.
    private func segmentedEvents(count: Int, articles: [String], readers: Int, seed: UInt64) -> [EventRecord]
    {
        var random = SplitMix(state: seed)
        let sources = [nil, "news.example", "mail", "social"]
        return randomEvents(count: count, articles: articles, readers: readers, seed: seed).map { event in
            var event = event
            if Int.random(in: 0..<3, using: &random) == 0 {
                event.device = DeviceClass.allCases.randomElement(using: &random)
            }
            if Bool.random(using: &random) {
                event.widthDevice = DeviceClass.allCases.randomElement(using: &random)
            }
            event.source = sources.randomElement(using: &random)!
            return event
        }
    }

    @Test("a large article: what the device counters cannot answer is tallied in SQL, and agrees")
    func largeArticleAgrees() throws {
        let place = try StoreFactory.postgres!.makePlace()
        let store = try place.open()
        defer { store.close() }
        let events = segmentedEvents(count: 3000, articles: ["/big"], readers: 800, seed: 23)
        var reference = PostgresSegmentsReference()
        for batch in stride(from: 0, to: events.count, by: 500) {
            let part = Array(events[batch..<min(batch + 500, events.count)])
            _ = try store.append(part)
            reference.add(part)
        }
        #expect(try store.statistics(StatisticsQuery(article: "/big", threshold: 0.5))?.readers ?? 0 > 512)
        let filters: [SegmentFilter] = [
            .all, SegmentFilter(device: .phone), SegmentFilter(source: "mail"),
            SegmentFilter(source: "(direct)"),
            SegmentFilter(device: .desktop, source: "social"), SegmentFilter(source: "nowhere"),
        ]
        let ranges = [DayRange.allTime, DayRange(from: firstDay + 3, to: firstDay + 6)]
        try expectSame(store, reference, article: "/big", filters: filters, ranges: ranges)
    }
}
