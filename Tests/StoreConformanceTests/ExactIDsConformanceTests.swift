import Foundation
import ProgressStore
import Synchronization
import Testing

@testable import PostgresStore

/// Ids whose bytes differ are different ids in every store, even where Unicode calls them
/// canonically equivalent (docs/api.md, "Fields"): articles, readers, event ids and sources stay apart through
/// appends in one batch or in many, erasure, the listing, segments, sections, the counters of
/// large articles and of days, and two PostgreSQL nodes on one database. Swift's `==` takes such
/// strings for one, so every check of an id here is on its bytes.
@Suite("Store conformance: ids compared byte for byte")
struct ExactIDsConformanceTests {
    /// Canonically equivalent forms: é as one code point and as e + a combining accent, Å as a
    /// letter and as the ångström sign, a Hangul syllable and its three jamo.
    static let forms: [(String, String)] = [
        ("caf\u{E9}", "cafe\u{301}"), ("\u{C5}", "\u{212B}"), ("\u{D55C}", "\u{1112}\u{1161}\u{11AB}"),
    ]

    /// No source filter, then each source of ``events(prefix:day:idSuffix:)``.
    static let sourceFilters: [String?] = [nil] + forms.flatMap { ["src-" + $0.0, "src-" + $0.1] }

    /// Every store, and PostgreSQL once more keeping counters by day from an article's second
    /// reader on, so that folds, erasure and one-day listings of these small articles go through
    /// `rp_article_days`.
    static let factories = StoreFactory.all + (dayCountersEarly.map { [$0] } ?? [])

    static let dayCountersEarly: StoreFactory? = {
        var options = PostgresStore.Options()
        options.dayCountersFrom = 1
        return StoreFactory.postgres(options).map {
            StoreFactory(
                name: "PostgreSQL, counters by day from 2 readers", keepsData: true, makePlace: $0.makePlace)
        }
    }()

    /// For each pair of forms (x, y): articles `prefix + x` and `prefix + y`, each read by `rd-x`
    /// and `rd-y` on `day`, each reader sending two events with ids `ev-x` and `ev-y` (followed by
    /// `idSuffix`) from source `src-x` or `src-y` (its own form); each article has a section map
    /// whose titles hold its form, each pair a band of attention of its own, and every figure
    /// differs, so that a merge shows.
    static func events(prefix: String = "/", day: Int32 = firstDay, idSuffix: String = "") -> [EventRecord] {
        var events: [EventRecord] = []
        for pair in forms {
            let both = [pair.0, pair.1]
            for (a, article) in both.enumerated() {
                for (r, reader) in both.enumerated() {
                    for id in both {
                        let n = Int64(events.count + 1)
                        var attention = [UInt32](repeating: 0, count: AttentionBands.count)
                        attention[2 * a + r] = UInt32(n * 500)
                        events.append(
                            EventRecord(
                                article: prefix + article, reader: "rd-" + reader,
                                timeMs: Int64(day) * dayMs + n * 60_000, progress: Double(n) / 100,
                                seenDepth: Double(n) / 100 + 0.5, scrollable: true, engagedMs: n * 1_000,
                                eventID: "ev-" + id + idSuffix,
                                sections: [
                                    Section(title: "start " + article, start: 0, words: Int32(100 + n)),
                                    Section(title: article, start: 0.5 + Double(a) / 10, words: 50),
                                ],
                                attention: attention, device: r == 0 ? .phone : .desktop,
                                source: "src-" + reader))
                    }
                }
            }
        }
        return events
    }

    /// The premise: `==` calls each pair one string, their bytes say two.
    @Test("the forms are equal as Swift strings and differ in bytes")
    func premise() {
        for (x, y) in Self.forms {
            #expect(x == y && !sameBytes(x, y), "\(Array(x.utf8)) \(Array(y.utf8))")
        }
    }

    @Test(
        "equivalent ids in one batch: every event counted, each article and reader its own",
        arguments: factories)
    func oneBatch(factory: StoreFactory) throws {
        let place = try factory.makePlace()
        let store = try place.open()
        defer { store.close() }
        let events = Self.events()
        #expect(try store.append(events) == AppendResult(counted: events.count, duplicates: 0))
        var reference = Reference()
        reference.add(events)
        try Self.expectApart(store, reference)
    }

    @Test(
        "equivalent ids one request each: every event counted once, a repeat of its bytes not",
        arguments: factories)
    func separateRequests(factory: StoreFactory) throws {
        let place = try factory.makePlace()
        let store = try place.open()
        defer { store.close() }
        let events = Self.events()
        for event in events {
            #expect(try store.append([event]) == AppendResult(counted: 1, duplicates: 0), "\(event.eventID!)")
        }
        for event in events {
            #expect(try store.append([event]) == AppendResult(counted: 0, duplicates: 1), "\(event.eventID!)")
        }
        var reference = Reference()
        reference.add(events)
        try Self.expectApart(store, reference)
    }

    @Test(
        "erasing a reader or an article takes that id's bytes and leaves its equivalent", arguments: factories
    )
    func erasure(factory: StoreFactory) throws {
        let place = try factory.makePlace()
        let store = try place.open()
        defer { store.close() }
        let events = Self.events()
        _ = try store.append(events)
        var reference = Reference()
        reference.add(events)
        let (x, y) = Self.forms[0]
        // Erasing a reader leaves the maps and attention of its articles.
        var parts = reference
        let reader = try waitFor { store.erase(.reader("rd-" + x), completion: $0) }
        #expect(reader == ErasureCount(articles: 2, readerDays: 2))
        reference.erase(.reader("rd-" + x))
        try Self.expectApart(store, reference, parts: parts)
        let article = try waitFor { store.erase(.article("/" + y), completion: $0) }
        #expect(article == ErasureCount(articles: 1, readerDays: 1))
        reference.erase(.article("/" + y))
        parts.erase(.article("/" + y))
        #expect(try store.statistics(StatisticsQuery(article: "/" + y, threshold: 0.5)) == nil)
        try Self.expectApart(store, reference, parts: parts)
        // New events of the erased ids count anew, still apart.
        let again = Self.events(idSuffix: "-again").filter {
            sameBytes($0.article, "/" + y) || sameBytes($0.reader, "rd-" + x)
        }
        #expect(try store.append(again) == AppendResult(counted: again.count, duplicates: 0))
        reference.add(again)
        parts.add(again)
        try Self.expectApart(store, reference, parts: parts)
    }

    @Test(
        "equivalent ids on articles past 512 readers: the counters of articles, segments and days keep them apart",
        arguments: StoreFactory.all)
    func largeArticles(factory: StoreFactory) throws {
        let place = try factory.makePlace()
        let store = try place.open()
        defer { store.close() }
        // 520 readers of each article on the first day, then the equivalent readers on it and
        // the next, which the counters then move (one-day ranges of the first day answer from
        // the counters by day).
        var crowd: [EventRecord] = []
        for (index, form) in Self.forms.flatMap({ [$0.0, $0.1] }).enumerated() {
            for reader in 0..<520 {
                // As the core computes them: an unscrollable view is at 0 and seen whole.
                let scrollable = reader % 10 != 0
                let progress = scrollable ? Double((reader * 37 + index * 101) % 1001) / 1000 : 0
                crowd.append(
                    EventRecord(
                        article: "/big/" + form, reader: "r\(reader)",
                        timeMs: Int64(firstDay) * dayMs + Int64(reader) * 1_000, progress: progress,
                        seenDepth: scrollable ? min(1, progress + 0.05) : 1, scrollable: scrollable,
                        engagedMs: 2_000))
            }
        }
        #expect(try store.append(crowd) == AppendResult(counted: crowd.count, duplicates: 0))
        let equivalent =
            Self.events(prefix: "/big/") + Self.events(prefix: "/big/", day: firstDay + 1, idSuffix: "-next")
        #expect(try store.append(equivalent) == AppendResult(counted: equivalent.count, duplicates: 0))
        var reference = Reference()
        reference.add(crowd + equivalent)
        try Self.expectApart(store, reference)
        let (x, _) = Self.forms[1]
        let parts = reference
        _ = try waitFor { store.erase(.reader("rd-" + x), completion: $0) }
        reference.erase(.reader("rd-" + x))
        try Self.expectApart(store, reference, parts: parts)
    }

    /// What `store` answers of every article `reference` holds, against it, ids by their bytes:
    /// readers, statistics (all time and each day, under no filter and a source's), segments by
    /// device and source, sections (the maps and attention of `parts`' events, when erased
    /// readers left them) and the listing, in whole and under a prefix.
    static func expectApart(
        _ store: any ProgressStore, _ reference: Reference, parts: Reference? = nil,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let days = [DayRange.allTime, DayRange(from: firstDay, to: firstDay), DayRange(from: firstDay + 1)]
        let acknowledged = try reference.articles.reduce(Int64(0)) { (sum, article) throws -> Int64 in
            let got = try store.readers(of: article)
            let want = reference.readers(of: article, in: .allTime)
            #expect(
                got?.map { Array($0.reader.utf8) } == want?.map { Array($0.reader.utf8) }
                    && got?.map(\.figures) == want?.map(\.figures),
                "readers of \(Array(article.utf8))", sourceLocation: sourceLocation)
            for range in days {
                for source in sourceFilters {
                    let query = StatisticsQuery(
                        article: article, days: range, threshold: 0.5, segment: SegmentFilter(source: source))
                    // Under the filter, each store keeping 10,000 sources by name, far past these.
                    let want = reference.statistics(query, bound: 10_000)
                    let got = try store.statistics(query)
                    #expect(
                        agree(got, want),
                        "\(Array(article.utf8)) \(range) \(source.map { Array($0.utf8) } ?? [])",
                        sourceLocation: sourceLocation)
                }
                for by in SegmentStatistics.Dimension.allCases {
                    let query = SegmentsQuery(
                        statistics: StatisticsQuery(article: article, days: range, threshold: 0.5), by: by,
                        limit: 50)
                    let (got, want) = (try store.segments(query), reference.segments(query))
                    #expect(
                        agree(got, want),
                        "\(Array(article.utf8)) \(range) by \(by): \(got?.segments.map { Array($0.name.utf8) } ?? [])",
                        sourceLocation: sourceLocation)
                }
                let sections = StatisticsQuery(article: article, days: range, threshold: 0.9)
                let got = try store.sections(sections)
                #expect(
                    got.map { SectionsConformanceTests.near($0, reference.sections(sections, parts: parts)) }
                        ?? false,
                    "sections of \(Array(article.utf8)) \(range)", sourceLocation: sourceLocation)
            }
            return sum
                + (try store.statistics(StatisticsQuery(article: article, threshold: 0.5))?.events ?? 0)
        }
        #expect(acknowledged == Int64(reference.events.count), sourceLocation: sourceLocation)
        let prefixes: [String?] = [nil, "/"] + forms.flatMap { ["/" + $0.0, "/" + $0.1, "/big/" + $0.0] }
        for range in days {
            for order in [ListingOrder.article, .readers] {
                for prefix in prefixes {
                    let query = ListingQuery(
                        days: range, order: order, threshold: 0.5, limit: 100, prefix: prefix)
                    let (got, want) = (try store.listing(query), reference.listing(query))
                    #expect(
                        agree(got, want),
                        "listing \(range) \(order) \(prefix.map { Array($0.utf8) } ?? []): \(got.rows.map { Array($0.article.utf8) })",
                        sourceLocation: sourceLocation)
                }
            }
        }
    }
}

/// Equivalent ids sent to two PostgreSQL nodes of one database at once, counters by day checked
/// row by row, and counters that contradict the rows answered as an error that names the article.
@Suite("PostgreSQL: ids compared byte for byte", .enabled(if: StoreFactory.postgres != nil))
struct PostgresExactIDsTests {
    private let databases = PostgresConnectionTests()

    @Test("two nodes: one form of each id to each node at once, every event counted once, apart")
    func twoNodes() throws {
        let (name, uri, admin) = try databases.database()
        defer { try? databases.drop(name, admin: admin) }
        let a = try PostgresStore.open(uri: uri)
        defer { a.close() }
        let b = try PostgresStore.open(uri: uri)
        defer { b.close() }
        let events = ExactIDsConformanceTests.events()
        let firstForms = Set(ExactIDsConformanceTests.forms.map { ExactKey("/" + $0.0) })
        let split = [
            events.filter { firstForms.contains(ExactKey($0.article)) },
            events.filter { !firstForms.contains(ExactKey($0.article)) },
        ]
        let counted = Mutex(0)
        let failures = Mutex<[String]>([])
        let group = DispatchGroup()
        for (node, mine) in zip([a, b], split) {
            DispatchQueue.global().async(group: group) {
                for event in mine {
                    do {
                        let result = try node.append([event])
                        counted.withLock { $0 += result.counted }
                    } catch {
                        failures.withLock { $0.append("\(error)") }
                    }
                }
            }
        }
        group.wait()
        #expect(failures.withLock { $0 } == [])
        #expect(counted.withLock { $0 } == events.count)
        // Each event again, to the node that did not take it: a repeat of its bytes.
        for (node, theirs) in zip([b, a], split) {
            #expect(try node.append(theirs) == AppendResult(counted: 0, duplicates: theirs.count))
        }
        var reference = Reference()
        reference.add(events)
        try ExactIDsConformanceTests.expectApart(a, reference)
        try ExactIDsConformanceTests.expectApart(b, reference)
        let (x, _) = ExactIDsConformanceTests.forms[2]
        let parts = reference
        _ = try waitFor { b.erase(.reader("rd-" + x), completion: $0) }
        reference.erase(.reader("rd-" + x))
        try ExactIDsConformanceTests.expectApart(a, reference, parts: parts)
    }

    @Test("counters by day: a row for each article's bytes, through folds one request at a time and erasure")
    func dayCounters() throws {
        let (name, uri, admin) = try databases.database()
        defer { try? databases.drop(name, admin: admin) }
        var options = PostgresStore.Options()
        options.dayCountersFrom = 1
        let store = try PostgresStore.open(uri: uri, options: options)
        defer { store.close() }
        let connection = try PGConnection(uri: uri, connectNow: true)
        defer { connection.close() }
        var reference = Reference()
        func expectRows(_ when: String) throws {
            _ = try store.statistics(StatisticsQuery(article: "/", threshold: 0.5))
            let rows = try connection.execute(
                "SELECT article, day, readers, events FROM rp_article_days ORDER BY article, day")
            var held: [[String]] = []
            for row in 0..<rows.rowCount {
                let (day, readers, events) = (
                    try rows.int64(row, 1), try rows.int64(row, 2), try rows.int64(row, 3)
                )
                held.append([
                    Array(rows.string(row, 0).utf8).description, "\(day)", "\(readers)", "\(events)",
                ])
            }
            var want: [[String]] = []
            for article in reference.articles {
                for day in [firstDay, firstDay + 1] {
                    let readers = reference.readers(of: article, in: DayRange(from: day, to: day)) ?? []
                    guard !readers.isEmpty else { continue }
                    want.append(
                        [
                            Array(article.utf8).description, String(day), String(readers.count),
                            String(readers.reduce(0) { $0 + $1.events }),
                        ])
                }
            }
            #expect(held == want, "\(when)")
        }
        let first = ExactIDsConformanceTests.events()
        #expect(try store.append(first) == AppendResult(counted: first.count, duplicates: 0))
        reference.add(first)
        try expectRows("after one batch")
        for event in ExactIDsConformanceTests.events(day: firstDay + 1, idSuffix: "-next") {
            #expect(try store.append([event]) == AppendResult(counted: 1, duplicates: 0))
            reference.add([event])
        }
        try expectRows("after one request each")
        let (x, y) = ExactIDsConformanceTests.forms[0]
        var parts = reference
        _ = try waitFor { store.erase(.reader("rd-" + y), completion: $0) }
        reference.erase(.reader("rd-" + y))
        try expectRows("after erasing a reader")
        _ = try waitFor { store.erase(.article("/" + x), completion: $0) }
        reference.erase(.article("/" + x))
        parts.erase(.article("/" + x))
        try expectRows("after erasing an article")
        try ExactIDsConformanceTests.expectApart(store, reference, parts: parts)
    }

    @Test(
        "counters that contradict the rows are an error naming the article's bytes, never a crash of the node"
    )
    func contradiction() throws {
        let (name, uri, admin) = try databases.database()
        defer { try? databases.drop(name, admin: admin) }
        let store = try PostgresStore.open(uri: uri)
        defer { store.close() }
        let (nfc, nfd) = ("/caf\u{E9}", "/cafe\u{301}")
        func event(_ article: String, _ reader: String, depth: Double) -> EventRecord {
            EventRecord(
                article: article, reader: reader, timeMs: Int64(firstDay) * dayMs, progress: depth,
                seenDepth: depth, scrollable: true, engagedMs: 1_000)
        }
        _ = try store.append([event(nfc, "r1", depth: 0.3), event(nfd, "r2", depth: 0.4)])
        #expect(try store.statistics(StatisticsQuery(article: nfd, threshold: 0.5))?.readers == 1)
        let connection = try PGConnection(uri: uri, connectNow: true)
        defer { connection.close() }
        // The histograms of one form lose their readers, as a damaged or hand-edited row might.
        func emptyHistograms(of article: String) throws {
            try connection.execute(
                """
                UPDATE rp_articles SET progress_bins = decode(repeat('00', 4004), 'hex'),
                    seen_bins = decode(repeat('00', 4004), 'hex')
                WHERE article = $1
                """, [.text(article)])
        }
        func expectCorrupt(naming spelled: String, _ body: () throws -> Void) {
            let error = #expect(throws: StoreError.self) { try body() }
            #expect(
                error?.cause == .corrupt && error?.message.contains(spelled) == true,
                "\(String(describing: error))")
        }
        try emptyHistograms(of: nfd)
        expectCorrupt(naming: "/cafe\\u{0301}") {
            _ = try waitFor { store.erase(.reader("r2"), completion: $0) }
        }
        // Nothing was taken out, and the other form answers as it did.
        #expect(try store.readers(of: nfd)?.map(\.reader) == ["r2"])
        _ = try store.append([event(nfc, "r1", depth: 0.6)])
        #expect(try store.statistics(StatisticsQuery(article: nfc, threshold: 0.5))?.completed == 1)
        try emptyHistograms(of: nfc)
        _ = try store.append([event(nfc, "r1", depth: 0.9)])
        expectCorrupt(naming: "/caf\\u{00E9}") {
            _ = try store.statistics(StatisticsQuery(article: nfc, threshold: 0.5))
        }
        #expect(store.probe())
    }
}
