import ProgressStore
import Testing

/// What every store answers for the same events: the suite runs against each kind of store.
@Suite("Store conformance: appends, readers and statistics")
struct StatisticsConformanceTests {
    static let articles = ["/a", "/b/long-article", "/c", "/ä", "/big"]

    @Test("an article that never had an event is unknown to every read", arguments: StoreFactory.all)
    func unknownArticle(factory: StoreFactory) throws {
        let place = try factory.makePlace()
        let store = try place.open()
        defer { store.close() }
        #expect(try store.readers(of: "/nothing") == nil)
        #expect(try store.statistics(StatisticsQuery(article: "/nothing", threshold: 0.9)) == nil)
        #expect(try store.listing(ListingQuery(threshold: 0.9)) == ListingPage(rows: [], hasMore: false))
    }

    @Test(
        "every figure of every article, query and range equals the plain computation",
        arguments: StoreFactory.all)
    func figures(factory: StoreFactory) throws {
        let place = try factory.makePlace()
        let store = try place.open()
        defer { store.close() }
        var reference = Reference()
        // "/big" passes the 512 readers from which a store may answer from histograms.
        let events =
            randomEvents(count: 3_000, articles: Self.articles, readers: 60, seed: 1)
            + randomEvents(count: 2_500, articles: ["/big"], readers: 900, seed: 2)
        for batch in stride(from: 0, to: events.count, by: 250) {
            let slice = Array(events[batch..<min(batch + 250, events.count)])
            #expect(try store.append(slice) == AppendResult(counted: slice.count, duplicates: 0))
            reference.add(slice)
        }
        try expectSameFigures(store, reference)
    }

    @Test("readers come folded over the range, in the byte order of their ids", arguments: StoreFactory.all)
    func readers(factory: StoreFactory) throws {
        let place = try factory.makePlace()
        let store = try place.open()
        defer { store.close() }
        var reference = Reference()
        let events = randomEvents(count: 800, articles: ["/a", "/b"], readers: 40, seed: 3)
        _ = try store.append(events)
        reference.add(events)
        for days in Self.ranges {
            for article in ["/a", "/b"] {
                #expect(try store.readers(of: article, in: days) == reference.readers(of: article, in: days))
            }
        }
    }

    @Test(
        "unscrollable readers are counted whatever the metric, and at depth 1 for seenDepth",
        arguments: StoreFactory.all)
    func unscrollable(factory: StoreFactory) throws {
        let place = try factory.makePlace()
        let store = try place.open()
        defer { store.close() }
        let time = Int64(firstDay) * dayMs
        _ = try store.append([
            EventRecord(
                article: "/u", reader: "scrolls", timeMs: time, progress: 0.5, seenDepth: 0.6,
                scrollable: true,
                engagedMs: 0),
            EventRecord(
                article: "/u", reader: "cannot", timeMs: time, progress: 0, seenDepth: 1, scrollable: false,
                engagedMs: 0),
        ])
        let progress = try #require(try store.statistics(StatisticsQuery(article: "/u", threshold: 0.9)))
        #expect(progress.unscrollableReaders == 1)
        #expect(progress.counted == 1)
        #expect(progress.depthMean == 0.5)
        let seen = try #require(
            try store.statistics(StatisticsQuery(article: "/u", metric: .seenDepth, threshold: 0.9)))
        #expect(seen.unscrollableReaders == 1)
        #expect(seen.counted == 2)
        #expect(seen.completed == 1)
        #expect(abs(seen.depthMean - 0.8) < 1e-12)
    }

    @Test("a repeated id counts once for its article and reader, and no other", arguments: StoreFactory.all)
    func duplicates(factory: StoreFactory) throws {
        let place = try factory.makePlace()
        let store = try place.open()
        defer { store.close() }
        let time = Int64(firstDay) * dayMs
        func event(_ reader: String, _ id: String?, article: String = "/d") -> EventRecord {
            EventRecord(
                article: article, reader: reader, timeMs: time, progress: 0.4, seenDepth: 0.5,
                scrollable: true,
                engagedMs: 1_000, eventID: id)
        }
        #expect(
            try store.append([event("r1", "e1"), event("r1", "e1")])
                == AppendResult(counted: 1, duplicates: 1))
        #expect(try store.append([event("r1", "e1")]) == AppendResult(counted: 0, duplicates: 1))
        // The same id from another reader, or on another article, is another event.
        #expect(
            try store.append([event("r2", "e1"), event("r1", "e1", article: "/e")])
                == AppendResult(counted: 2, duplicates: 0))
        #expect(
            try store.append([event("r1", nil), event("r1", nil)]) == AppendResult(counted: 2, duplicates: 0))
        let stats = try #require(try store.statistics(StatisticsQuery(article: "/d", threshold: 0.9)))
        #expect(stats.events == 4)
        #expect(stats.engagedSecondsTotal == 4)
    }

    @Test("an answer's version moves when its article changes", arguments: StoreFactory.all)
    func versions(factory: StoreFactory) throws {
        let place = try factory.makePlace()
        let store = try place.open()
        defer { store.close() }
        let events = randomEvents(count: 10, articles: ["/v"], readers: 3, seed: 4)
        _ = try store.append(events)
        let before = store.version(of: "/v")
        _ = try store.append(randomEvents(count: 1, articles: ["/v"], readers: 3, seed: 5))
        if let before { #expect(store.version(of: "/v") != before) }
    }

    @Test("what a store held is there when it is opened again", arguments: StoreFactory.lasting)
    func reopened(factory: StoreFactory) throws {
        let place = try factory.makePlace()
        var reference = Reference()
        let first = try place.open()
        let events = randomEvents(count: 1_500, articles: Self.articles, readers: 50, seed: 6)
        _ = try first.append(events)
        reference.add(events)
        first.close()
        let second = try place.open()
        defer { second.close() }
        try expectSameFigures(second, reference)
        // An id counted before the close is still a repeat after it.
        let time = Int64(firstDay) * dayMs
        let once = EventRecord(
            article: "/a", reader: "r", timeMs: time, progress: 0.1, seenDepth: 0.1, scrollable: true,
            engagedMs: 0,
            eventID: "id-1")
        #expect(try second.append([once]).counted == 1)
        second.close()
        let third = try place.open()
        defer { third.close() }
        #expect(try third.append([once]) == AppendResult(counted: 0, duplicates: 1))
    }

    @Test("a closed store refuses appends and reads", arguments: StoreFactory.all)
    func closed(factory: StoreFactory) throws {
        let place = try factory.makePlace()
        let store = try place.open()
        #expect(store.isWritable)
        #expect(store.probe())
        #expect(store.report() != nil)
        store.close()
        #expect(throws: StoreError.closed) {
            try store.append(randomEvents(count: 1, articles: ["/x"], readers: 1, seed: 7))
        }
        #expect(throws: StoreError.closed) {
            try store.statistics(StatisticsQuery(article: "/x", threshold: 0.9))
        }
        #expect(throws: StoreError.closed) { try store.listing(ListingQuery(threshold: 0.9)) }
        #expect(!store.isWritable)
    }

    static let ranges: [DayRange] = [
        .allTime, DayRange(from: firstDay + 2), DayRange(to: firstDay + 4),
        DayRange(from: firstDay + 3, to: firstDay + 6), DayRange(from: firstDay + 5, to: firstDay + 5),
        DayRange(from: firstDay + 20),
    ]

    /// Every article's statistics for several queries and ranges, as `reference` computes them.
    private func expectSameFigures(_ store: any ProgressStore, _ reference: Reference) throws {
        for article in reference.articles + ["/never"] {
            for days in Self.ranges {
                for metric in ArticleStatistics.Metric.allCases {
                    for (threshold, minEngaged) in [(0.9, 0.0), (0.5, 0.0), (0.9, 5.0), (0.333, 0.0)] {
                        let query = StatisticsQuery(
                            article: article, days: days, metric: metric, threshold: threshold,
                            minEngagedSeconds: minEngaged)
                        let actual = try store.statistics(query)
                        let expected = reference.statistics(query)
                        #expect(
                            agree(actual, expected),
                            "\(query): \(String(describing: actual)) vs \(String(describing: expected))")
                    }
                }
            }
        }
    }
}
