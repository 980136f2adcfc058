import ProgressStore
import Testing

@Suite("Store conformance: the listing")
struct ListingConformanceTests {
    static let articles = (0..<40).map { "/l/\($0 % 7)/article-\($0)" } + ["/l/ü", "/m", "/l"]

    @Test(
        "every order, page size, prefix and range pages through the plain computation",
        arguments: StoreFactory.all)
    func pages(factory: StoreFactory) throws {
        let place = try factory.makePlace()
        let store = try place.open()
        defer { store.close() }
        var reference = Reference()
        let events = randomEvents(count: 2_000, articles: Self.articles, readers: 30, seed: 11)
        _ = try store.append(events)
        reference.add(events)
        for days in [DayRange.allTime, DayRange(from: firstDay + 4), DayRange(from: firstDay + 30)] {
            for order in ListingOrder.allCases {
                for prefix in [nil, "/l/3", "/l", "/zzz"] {
                    for limit in [1, 7, 1000] {
                        try expectPages(
                            store, reference,
                            ListingQuery(
                                days: days, order: order, threshold: 0.9, limit: limit, prefix: prefix))
                    }
                }
            }
        }
    }

    @Test("pages follow articles that change between them", arguments: StoreFactory.all)
    func changes(factory: StoreFactory) throws {
        let place = try factory.makePlace()
        let store = try place.open()
        defer { store.close() }
        var reference = Reference()
        for round in 0..<12 {
            // A few articles at a time, some new, each round; the listing read in between.
            let events = randomEvents(
                count: 40 + round * 10, articles: Array(Self.articles.prefix(4 + 3 * round)), readers: 20,
                seed: 100 + UInt64(round))
            _ = try store.append(events)
            reference.add(events)
            for order in ListingOrder.allCases {
                try expectPages(store, reference, ListingQuery(order: order, threshold: 0.9, limit: 5))
            }
        }
    }

    @Test(
        "pages over date ranges follow articles that change, are erased and come back between them",
        arguments: StoreFactory.all)
    func rangesThroughChanges(factory: StoreFactory) throws {
        let place = try factory.makePlace()
        let store = try place.open()
        defer { store.close() }
        var reference = Reference()
        // More ranges than a store may keep orders for, one of them all time.
        let ranges =
            [DayRange.allTime] + (0..<7).map { DayRange(from: firstDay + Int32($0), to: firstDay + 9) }
        for round in 0..<8 {
            let events = randomEvents(
                count: 30 + round * 10, articles: Array(Self.articles.prefix(6 + 4 * round)), readers: 20,
                seed: 300 + UInt64(round))
            _ = try store.append(events)
            reference.add(events)
            if round % 3 == 2 {
                _ = try waitFor { store.erase(.reader("reader-\(round)"), completion: $0) }
                reference.erase(.reader("reader-\(round)"))
            }
            if round % 4 == 3 {
                _ = try waitFor { store.erase(.article(Self.articles[round]), completion: $0) }
                reference.erase(.article(Self.articles[round]))
            }
            for days in ranges {
                for order in ListingOrder.allCases {
                    let threshold = round == 5 ? 0.5 : 0.9
                    try expectPages(
                        store, reference,
                        ListingQuery(days: days, order: order, threshold: threshold, limit: 9))
                }
            }
        }
    }

    /// Every page of `query`, from offset 0 until `hasMore` is false, equals the reference's.
    private func expectPages(_ store: any ProgressStore, _ reference: Reference, _ query: ListingQuery) throws
    {
        var page = query
        page.offset = 0
        let rows = reference.rows(in: query.days, threshold: query.threshold)
        while true {
            let actual = try store.listing(page)
            let expected = reference.listing(page, of: rows)
            #expect(agree(actual, expected), "\(page): \(actual) vs \(expected)")
            guard agree(actual, expected), actual.hasMore else { return }
            page.offset += actual.rows.count
        }
    }
}
