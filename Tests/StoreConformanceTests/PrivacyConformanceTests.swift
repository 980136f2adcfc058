import Foundation
import ProgressStore
import Testing

@Suite("Store conformance: daily salts")
struct SaltConformanceTests {
    static var today: Int32 { UTCDay.of(ms: Int64(Date().timeIntervalSince1970 * 1000)) }

    @Test("a day's salt is the same at every ask, another day's is another", arguments: StoreFactory.all)
    func sameSalt(factory: StoreFactory) throws {
        let place = try factory.makePlace()
        let store = try place.open()
        defer { store.close() }
        let first = try waitFor { store.salt(forDay: Self.today, completion: $0) }
        let again = try waitFor { store.salt(forDay: Self.today, completion: $0) }
        let yesterday = try waitFor { store.salt(forDay: Self.today - 1, completion: $0) }
        #expect(first == again)
        #expect(first.day == Self.today)
        #expect(first != yesterday)
        #expect(first.bytes.count == 16)
    }

    @Test("a salt past keeping (48 hours after its day) is never handed out", arguments: StoreFactory.all)
    func expired(factory: StoreFactory) throws {
        let place = try factory.makePlace()
        let store = try place.open()
        defer { store.close() }
        _ = try waitFor { store.salt(forDay: Self.today - 2, completion: $0) }
        #expect(throws: StoreError.self) {
            try waitFor { store.salt(forDay: Self.today - 3, completion: $0) }
        }
    }

    @Test("a store opened again hands out the salts it kept", arguments: StoreFactory.lasting)
    func kept(factory: StoreFactory) throws {
        let place = try factory.makePlace()
        let first = try place.open()
        let salt = try waitFor { first.salt(forDay: Self.today, completion: $0) }
        first.close()
        let second = try place.open()
        defer { second.close() }
        #expect(try waitFor { second.salt(forDay: Self.today, completion: $0) } == salt)
    }
}

@Suite("Store conformance: erasure")
struct ErasureConformanceTests {
    static let articles = ["/e/1", "/e/2", "/e/3", "/e/only"]

    /// Events on several articles and days, and the one reader of "/e/only".
    private func load(_ store: any ProgressStore) throws -> Reference {
        var reference = Reference()
        let events =
            randomEvents(count: 900, articles: Array(Self.articles.prefix(3)), readers: 25, seed: 21)
            + [
                EventRecord(
                    article: "/e/only", reader: "reader-3", timeMs: Int64(firstDay) * dayMs, progress: 0.3,
                    seenDepth: 0.4, scrollable: true, engagedMs: 0)
            ]
        _ = try store.append(events)
        reference.add(events)
        return reference
    }

    @Test(
        "erasing a reader takes it out of every article and day, and says how much",
        arguments: StoreFactory.all)
    func reader(factory: StoreFactory) throws {
        let place = try factory.makePlace()
        let store = try place.open()
        defer { store.close() }
        let before = try load(store)
        let mine = before.events.filter { $0.reader == "reader-3" }
        let days = Set(mine.map { "\($0.article)|\($0.day)" })
        let count = try waitFor { store.erase(.reader("reader-3"), completion: $0) }
        #expect(count == ErasureCount(articles: Set(mine.map(\.article)).count, readerDays: days.count))
        var after = Reference()
        after.add(before.events.filter { $0.reader != "reader-3" })
        for article in Self.articles.prefix(3) {
            #expect(try store.readers(of: article)?.contains { $0.reader == "reader-3" } == false)
            let query = StatisticsQuery(article: article, threshold: 0.9)
            #expect(agree(try store.statistics(query), after.statistics(query)))
        }
        // Its only reader gone, an article is gone too.
        #expect(try store.statistics(StatisticsQuery(article: "/e/only", threshold: 0.9)) == nil)
        let listing = try store.listing(ListingQuery(order: .article, threshold: 0.9, limit: 100))
        #expect(listing.rows.map(\.article) == Array(Self.articles.prefix(3)))
        #expect(try waitFor { store.erase(.reader("reader-3"), completion: $0) } == .nothing)
    }

    @Test(
        "erasing an article takes it and all its readers out; later events count anew",
        arguments: StoreFactory.all)
    func article(factory: StoreFactory) throws {
        let place = try factory.makePlace()
        let store = try place.open()
        defer { store.close() }
        let before = try load(store)
        let records = Set(before.events.filter { $0.article == "/e/2" }.map { "\($0.reader)|\($0.day)" })
            .count
        _ = try store.listing(ListingQuery(order: .readers, threshold: 0.9))
        let count = try waitFor { store.erase(.article("/e/2"), completion: $0) }
        #expect(count == ErasureCount(articles: 1, readerDays: records))
        #expect(try store.statistics(StatisticsQuery(article: "/e/2", threshold: 0.9)) == nil)
        #expect(try store.readers(of: "/e/2") == nil)
        for order in ListingOrder.allCases {
            let rows = try store.listing(ListingQuery(order: order, threshold: 0.9, limit: 100)).rows
            #expect(!rows.contains { $0.article == "/e/2" }, "\(order)")
            #expect(rows.count == 3)
        }
        #expect(try waitFor { store.erase(.article("/nothing"), completion: $0) } == .nothing)
        // An id counted before the erasure counts again after it.
        let time = Int64(firstDay) * dayMs
        let again = EventRecord(
            article: "/e/2", reader: "new", timeMs: time, progress: 0.5, seenDepth: 0.5, scrollable: true,
            engagedMs: 0, eventID: "sent-twice")
        #expect(try store.append([again]).counted == 1)
        _ = try waitFor { store.erase(.article("/e/2"), completion: $0) }
        #expect(try store.append([again]).counted == 1)
        let stats = try #require(try store.statistics(StatisticsQuery(article: "/e/2", threshold: 0.9)))
        #expect(stats.readers == 1)
        #expect(stats.events == 1)
        let rows = try store.listing(ListingQuery(order: .article, threshold: 0.9, limit: 100)).rows
        #expect(rows.filter { $0.article == "/e/2" }.count == 1)
    }

    @Test("an answer kept for an erased article never passes for the new one", arguments: StoreFactory.all)
    func versions(factory: StoreFactory) throws {
        let place = try factory.makePlace()
        let store = try place.open()
        defer { store.close() }
        let time = Int64(firstDay) * dayMs
        func event(_ reader: String) -> EventRecord {
            EventRecord(
                article: "/v", reader: reader, timeMs: time, progress: 0.5, seenDepth: 0.5, scrollable: true,
                engagedMs: 0)
        }
        _ = try store.append([event("a"), event("b")])
        let before = store.version(of: "/v")
        _ = try waitFor { store.erase(.article("/v"), completion: $0) }
        #expect(store.version(of: "/v") == nil)
        _ = try store.append([event("a"), event("b")])
        if let before { #expect(store.version(of: "/v") != before) }
    }

    @Test("an erasure holds when the store is opened again", arguments: StoreFactory.lasting)
    func lasting(factory: StoreFactory) throws {
        let place = try factory.makePlace()
        let first = try place.open()
        let before = try load(first)
        _ = try waitFor { first.erase(.reader("reader-5"), completion: $0) }
        _ = try waitFor { first.erase(.article("/e/1"), completion: $0) }
        first.close()
        let second = try place.open()
        defer { second.close() }
        var after = Reference()
        after.add(before.events.filter { $0.reader != "reader-5" && $0.article != "/e/1" })
        for article in Self.articles {
            let query = StatisticsQuery(article: article, threshold: 0.9)
            #expect(agree(try second.statistics(query), after.statistics(query)), "\(article)")
        }
    }
}
