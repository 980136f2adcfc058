import ProgressCore
import ProgressStore
import Testing

/// Segments by device class and source (docs/api.md, "Segments"), the same from every store.
@Suite("Store conformance: segments")
struct SegmentsConformanceTests {
    static let filters: [SegmentFilter] = [
        SegmentFilter(device: .phone), SegmentFilter(device: .desktop), SegmentFilter(device: .other),
        SegmentFilter(source: "google.com"), SegmentFilter(source: ReaderSource.direct),
        SegmentFilter(source: "nobody.example"), SegmentFilter(device: .tablet, source: "newsletter"),
    ]

    /// Statistics under every filter, and segments by device and by source (a small limit and a
    /// large one, under no filter and one), for every range, as `reference` computes them.
    static func expectSameSegments(
        _ store: any ProgressStore, _ reference: Reference, articles: [String], bound: Int = 10_000,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        for article in articles {
            for days in StatisticsConformanceTests.ranges {
                for filter in filters {
                    for (metric, threshold, minEngaged) in [
                        (ArticleStatistics.Metric.progress, 0.9, 0.0), (.seenDepth, 0.5, 3.0),
                    ] {
                        let query = StatisticsQuery(
                            article: article, days: days, metric: metric, threshold: threshold,
                            minEngagedSeconds: minEngaged, segment: filter)
                        let got = try store.statistics(query)
                        let want = reference.statistics(query, bound: bound)
                        #expect(
                            agree(got, want),
                            "\(query): \(String(describing: got)) vs \(String(describing: want))",
                            sourceLocation: sourceLocation)
                    }
                    let sections = StatisticsQuery(
                        article: article, days: days, threshold: 0.9, segment: filter)
                    let got = try store.sections(sections)
                    #expect(
                        got.map {
                            SectionsConformanceTests.near(
                                $0, reference.segmentSections(sections, bound: bound))
                        }
                            ?? (reference.segmentSections(sections, bound: bound) == nil),
                        "\(sections): \(String(describing: got))", sourceLocation: sourceLocation)
                    #expect(
                        try store.readers(of: article, in: days, segment: filter)
                            == reference.readers(of: article, in: days, segment: filter, bound: bound),
                        "\(article) \(days) \(filter)", sourceLocation: sourceLocation)
                }
                for filter in [SegmentFilter.all, SegmentFilter(device: .phone)] {
                    for (by, limit) in [(SegmentStatistics.Dimension.device, 1), (.source, 3), (.source, 50)]
                    {
                        let query = SegmentsQuery(
                            statistics: StatisticsQuery(
                                article: article, days: days, threshold: 0.9, segment: filter),
                            by: by, limit: limit)
                        let got = try store.segments(query)
                        let want = reference.segments(query, bound: bound)
                        #expect(
                            agree(got, want),
                            "\(query): \(String(describing: got)) vs \(String(describing: want))",
                            sourceLocation: sourceLocation)
                    }
                }
            }
        }
    }

    @Test(
        "devices named, from widths, horizontal alone, and named later by time", arguments: StoreFactory.all)
    func devices(factory: StoreFactory) throws {
        let place = try factory.makePlace()
        let store = try place.open()
        defer { store.close() }
        let noon = Int64(firstDay) * dayMs + dayMs / 2
        func event(_ reader: String, at ms: Int64, device: DeviceClass? = nil, width: DeviceClass? = nil)
            -> EventRecord
        {
            EventRecord(
                article: "/d", reader: reader, timeMs: ms, progress: 0.5, seenDepth: 0.5, scrollable: true,
                engagedMs: 1000, device: device, widthDevice: width)
        }
        let events = [
            event("named", at: noon, device: .tablet, width: .phone),
            event("width", at: noon, width: .desktop), event("width", at: noon + 1, width: .phone),
            event("horizontal", at: noon),
            // Named by a later event: the name beats the earlier width.
            event("late-name", at: noon, width: .phone), event("late-name", at: noon + 5, device: .desktop),
            // Named twice: the earlier time wins, whichever came first.
            event("earlier-later", at: noon + 10, device: .phone),
            event("earlier-later", at: noon + 1, device: .tablet),
            event("later-earlier", at: noon + 1, device: .tablet),
            event("later-earlier", at: noon + 10, device: .phone),
            // On a tie the earlier arrival stays.
            event("tie", at: noon, device: .desktop), event("tie", at: noon, device: .phone),
        ]
        for event in events { _ = try store.append([event]) }
        func readers(_ device: DeviceClass) throws -> [String]? {
            try store.readers(of: "/d", in: .allTime, segment: SegmentFilter(device: device))?.map(\.reader)
        }
        #expect(try readers(.phone) == [])
        #expect(try readers(.tablet) == ["earlier-later", "later-earlier", "named"])
        #expect(try readers(.desktop) == ["late-name", "tie", "width"])
        #expect(try readers(.other) == ["horizontal"])
        let late = try #require(
            try store.readers(of: "/d", in: .allTime, segment: SegmentFilter(device: .desktop)))
        #expect(late.first?.events == 2)
        var reference = Reference()
        reference.add(events)
        try Self.expectSameSegments(store, reference, articles: ["/d"])
    }

    @Test(
        "sources: (direct) without one, the earliest by time, a reader on two days",
        arguments: StoreFactory.all)
    func sources(factory: StoreFactory) throws {
        let place = try factory.makePlace()
        let store = try place.open()
        defer { store.close() }
        let start = Int64(firstDay) * dayMs
        func event(_ reader: String, day: Int64, at ms: Int64, source: String?, device: DeviceClass = .phone)
            -> EventRecord
        {
            EventRecord(
                article: "/s", reader: reader, timeMs: start + day * dayMs + ms, progress: 0.5,
                seenDepth: 0.6,
                scrollable: true, engagedMs: 1000, device: device, source: source)
        }
        let events = [
            event("plain", day: 0, at: 0, source: nil),
            event("late", day: 0, at: 500, source: "t.co"),
            event("late", day: 0, at: 100, source: "google.com"),
            event("late", day: 0, at: 50, source: nil),
            event("two", day: 0, at: 0, source: "google.com", device: .desktop),
            event("two", day: 3, at: 0, source: "newsletter", device: .phone),
        ]
        _ = try store.append(events)
        func readers(_ filter: SegmentFilter, _ days: DayRange = .allTime) throws -> [String]? {
            try store.readers(of: "/s", in: days, segment: filter)?.map(\.reader)
        }
        #expect(try readers(SegmentFilter(source: ReaderSource.direct)) == ["plain"])
        #expect(try readers(SegmentFilter(source: "google.com")) == ["late", "two"])
        #expect(try readers(SegmentFilter(source: "t.co")) == [])
        #expect(try readers(SegmentFilter(device: .phone, source: "google.com")) == ["late"])
        #expect(try readers(SegmentFilter(device: .phone), DayRange(from: firstDay + 1)) == ["two"])
        #expect(try store.readers(of: "/none", in: .allTime, segment: SegmentFilter(source: "t.co")) == nil)
        let two = try #require(
            try store.readers(of: "/s", in: .allTime, segment: SegmentFilter(source: "newsletter")))
        #expect(two.map(\.events) == [1])
        var reference = Reference()
        reference.add(events)
        try Self.expectSameSegments(store, reference, articles: ["/s"])
    }

    @Test("random devices and sources, small and past the counters' threshold", arguments: StoreFactory.all)
    func random(factory: StoreFactory) throws {
        let place = try factory.makePlace()
        let store = try place.open()
        defer { store.close() }
        var reference = Reference()
        var events =
            eventsWithSegments(count: 1_500, articles: ["/a", "/ä"], readers: 60, seed: 51)
            + eventsWithSegments(count: 3_000, articles: ["/big"], readers: 900, seed: 52)
        // One class a reader on the large one, named on every event, so its days never change
        // class: the counters by class answer.
        events += randomEvents(count: 2_000, articles: ["/steady"], readers: 700, seed: 53).map { event in
            var event = event
            let number = Int(event.reader.dropFirst("reader-".count))!
            event.device = DeviceClass.allCases[number % 4]
            event.source = number % 3 == 0 ? "google.com" : nil
            return event
        }
        for batch in stride(from: 0, to: events.count, by: 250) {
            let slice = Array(events[batch..<min(batch + 250, events.count)])
            _ = try store.append(slice)
            reference.add(slice)
        }
        try Self.expectSameSegments(store, reference, articles: ["/a", "/ä", "/big", "/steady"])
    }

    @Test("10,000 sources are kept; the next new one counts as (other)", arguments: StoreFactory.all)
    func bound(factory: StoreFactory) throws {
        let place = try factory.makePlace()
        let store = try place.open()
        defer { store.close() }
        let time = Int64(firstDay) * dayMs
        let events = (0..<10_003).map { number in
            EventRecord(
                article: number < 10_000 ? "/fill" : "/past", reader: "r\(number)",
                timeMs: time + Int64(number),
                progress: 0.5, seenDepth: 0.5, scrollable: true, engagedMs: 0,
                source: number == 10_002 ? "s0" : "s\(number)")
        }
        for batch in stride(from: 0, to: events.count, by: 1000) {
            _ = try store.append(Array(events[batch..<min(batch + 1000, events.count)]))
        }
        let query = SegmentsQuery(
            statistics: StatisticsQuery(article: "/past", threshold: 0.9), by: .source, limit: 5)
        let segments = try #require(try store.segments(query))
        #expect(segments.segments.map(\.name) == [ReaderSource.other, "s0"])
        #expect(segments.segments.map(\.statistics.readers) == [2, 1])
        #expect(try store.readers(of: "/past", in: .allTime, segment: SegmentFilter(source: "s10000")) == [])
    }

    @Test("erasing a reader takes its segments out", arguments: StoreFactory.all)
    func erasure(factory: StoreFactory) throws {
        let place = try factory.makePlace()
        let store = try place.open()
        defer { store.close() }
        let events = eventsWithSegments(count: 1_200, articles: ["/e", "/f"], readers: 40, seed: 61)
        _ = try store.append(events)
        _ = try waitFor { store.erase(.reader("reader-3"), completion: $0) }
        _ = try waitFor { store.erase(.article("/f"), completion: $0) }
        var reference = Reference()
        reference.add(events.filter { $0.reader != "reader-3" && $0.article != "/f" })
        try Self.expectSameSegments(store, reference, articles: ["/e", "/f"])
    }

    @Test("segments survive a restart", arguments: StoreFactory.lasting)
    func restart(factory: StoreFactory) throws {
        let place = try factory.makePlace()
        let events = eventsWithSegments(count: 2_000, articles: ["/r", "/big"], readers: 700, seed: 71)
        do {
            let store = try place.open()
            _ = try store.append(events)
            store.close()
        }
        var reference = Reference()
        reference.add(events)
        let store = try place.open()
        defer { store.close() }
        try Self.expectSameSegments(store, reference, articles: ["/r", "/big"])
    }
}

/// Whether two segment answers agree: the same segments in the same order, each as ``agree``.
func agree(_ a: SegmentStatistics?, _ b: SegmentStatistics?) -> Bool {
    guard let a, let b else { return a == nil && b == nil }
    return a.segments.count == b.segments.count
        && zip(a.segments, b.segments).allSatisfy {
            sameBytes($0.name, $1.name) && agree($0.statistics, $1.statistics)
        }
        && (a.other == nil) == (b.other == nil) && sameBytes(a.other?.name ?? "", b.other?.name ?? "")
        && agree(a.other?.statistics, b.other?.statistics)
}

extension ProgressStore {
    func readers(of article: String, in days: DayRange, segment: SegmentFilter) throws(StoreError)
        -> [ReaderSummary]?
    {
        try waitFor { readers(of: article, in: days, segment: segment, completion: $0) }
    }

    func segments(_ query: SegmentsQuery) throws(StoreError) -> SegmentStatistics? {
        try waitFor { segments(query, completion: $0) }
    }
}
