import ProgressStore
import Testing

/// Sections and attention (docs/api.md, "Sections and attention"), the same from every store.
@Suite("Store conformance: section maps and attention")
struct SectionsConformanceTests {
    static let articles = ["/a", "/b/long-article", "/ä"]

    /// The sections of every article, for every range, as `reference` computes them; seconds
    /// and words per minute within a relative 1e-9 (sums of doubles in another order).
    static func expectSameSections(
        _ store: any ProgressStore, _ reference: Reference, articles: [String],
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        for article in articles {
            for days in StatisticsConformanceTests.ranges {
                let query = StatisticsQuery(article: article, days: days, threshold: 0.9)
                let got = try store.sections(query)
                let want = reference.sections(query)
                #expect(
                    got.map { near($0, want) } ?? (want == nil),
                    "\(article) \(days): \(String(describing: got))",
                    sourceLocation: sourceLocation)
            }
        }
    }

    static func near(_ a: SectionStatistics, _ b: SectionStatistics?) -> Bool {
        guard let b, a.sections.count == b.sections.count else { return false }
        func close(_ x: Double?, _ y: Double?) -> Bool {
            switch (x, y) {
            case (nil, nil): return true
            case (let x?, let y?): return abs(x - y) <= 1e-9 * max(1, abs(y))
            default: return false
            }
        }
        let bands =
            (a.attention == nil) == (b.attention == nil)
            && zip(a.attention ?? [], b.attention ?? []).allSatisfy { close($0, $1) }
        return bands
            && zip(a.sections, b.sections).allSatisfy { x, y in
                sameBytes(x.title, y.title) && x.start == y.start && x.end == y.end && x.words == y.words
                    && close(x.reached, y.reached) && close(x.stoppedWithin, y.stoppedWithin)
                    && close(x.seconds, y.seconds) && close(x.wordsPerMinute, y.wordsPerMinute)
            }
    }

    @Test(
        "an article without a map has no sections; attention zeros when none was sent",
        arguments: StoreFactory.all)
    func withoutParts(factory: StoreFactory) throws {
        let place = try factory.makePlace()
        let store = try place.open()
        defer { store.close() }
        #expect(try store.sections(StatisticsQuery(article: "/none", threshold: 0.9)) == nil)
        let events = randomEvents(count: 50, articles: ["/plain"], readers: 10, seed: 11)
        _ = try store.append(events)
        let parts = try #require(try store.sections(StatisticsQuery(article: "/plain", threshold: 0.9)))
        #expect(parts.sections.isEmpty)
        #expect(parts.attention == [Double](repeating: 0, count: AttentionBands.count))
    }

    @Test(
        "maps by latest time, attention by day, over every range, as the plain computation",
        arguments: StoreFactory.all)
    func figures(factory: StoreFactory) throws {
        let place = try factory.makePlace()
        let store = try place.open()
        defer { store.close() }
        var reference = Reference()
        let events =
            eventsWithParts(count: 2_000, articles: Self.articles, readers: 50, seed: 21)
            + eventsWithParts(count: 2_000, articles: ["/big"], readers: 800, seed: 22)
        for batch in stride(from: 0, to: events.count, by: 200) {
            let slice = Array(events[batch..<min(batch + 200, events.count)])
            _ = try store.append(slice)
            reference.add(slice)
        }
        try Self.expectSameSections(store, reference, articles: Self.articles + ["/big"])
    }

    @Test(
        "a map sent later with an earlier time does not replace the latest; on a tie the later arrival wins",
        arguments: StoreFactory.all)
    func latestMap(factory: StoreFactory) throws {
        let place = try factory.makePlace()
        let store = try place.open()
        defer { store.close() }
        let time = Int64(firstDay) * dayMs + 3_600_000
        func event(_ title: String, at ms: Int64) -> EventRecord {
            EventRecord(
                article: "/m", reader: "r", timeMs: ms, progress: 0.5, seenDepth: 0.5, scrollable: true,
                engagedMs: 0, sections: [Section(title: title, start: 0)])
        }
        _ = try store.append([event("new", at: time)])
        _ = try store.append([event("old", at: time - 1000)])
        let query = StatisticsQuery(article: "/m", threshold: 0.9)
        #expect(try store.sections(query)?.sections.map(\.title) == ["new"])
        _ = try store.append([event("tie", at: time)])
        #expect(try store.sections(query)?.sections.map(\.title) == ["tie"])
        _ = try store.append([
            EventRecord(
                article: "/m", reader: "r2", timeMs: time + 5000, progress: 0.1, seenDepth: 0.2,
                scrollable: true,
                engagedMs: 0)
        ])
        #expect(try store.sections(query)?.sections.map(\.title) == ["tie"])
    }

    @Test("maps and attention survive a restart", arguments: StoreFactory.lasting)
    func restart(factory: StoreFactory) throws {
        let place = try factory.makePlace()
        var reference = Reference()
        let events = eventsWithParts(count: 600, articles: Self.articles, readers: 30, seed: 31)
        do {
            let store = try place.open()
            _ = try store.append(events)
            store.close()
        }
        reference.add(events)
        let store = try place.open()
        defer { store.close() }
        try Self.expectSameSections(store, reference, articles: Self.articles)
    }

    @Test("erasing an article erases its map and attention", arguments: StoreFactory.all)
    func erasure(factory: StoreFactory) throws {
        let place = try factory.makePlace()
        let store = try place.open()
        defer { store.close() }
        let events = eventsWithParts(count: 400, articles: ["/gone", "/kept"], readers: 20, seed: 41)
        _ = try store.append(events)
        _ = try waitFor { store.erase(.article("/gone"), completion: $0) }
        #expect(try store.sections(StatisticsQuery(article: "/gone", threshold: 0.9)) == nil)
        var reference = Reference()
        reference.add(events.filter { $0.article == "/kept" })
        try Self.expectSameSections(store, reference, articles: ["/kept"])
        let later = EventRecord(
            article: "/gone", reader: "r", timeMs: Int64(firstDay) * dayMs, progress: 0.2, seenDepth: 0.3,
            scrollable: true, engagedMs: 0)
        _ = try store.append([later])
        let parts = try #require(try store.sections(StatisticsQuery(article: "/gone", threshold: 0.9)))
        #expect(
            parts.sections.isEmpty && parts.attention == [Double](repeating: 0, count: AttentionBands.count))
    }

    @Test(
        "erasing an article's every reader erases its map and attention: a later reader starts afresh",
        arguments: StoreFactory.all)
    func readerErasure(factory: StoreFactory) throws {
        let place = try factory.makePlace()
        let store = try place.open()
        defer { store.close() }
        let events = eventsWithParts(count: 100, articles: ["/alone"], readers: 1, seed: 42)
        _ = try store.append(events)
        let reader = try #require(events.first?.reader)
        #expect(
            try store.sections(StatisticsQuery(article: "/alone", threshold: 0.9))?.sections.isEmpty == false)
        _ = try waitFor { store.erase(.reader(reader), completion: $0) }
        #expect(try store.sections(StatisticsQuery(article: "/alone", threshold: 0.9)) == nil)
        let later = EventRecord(
            article: "/alone", reader: "someone else", timeMs: Int64(firstDay) * dayMs, progress: 0.2,
            seenDepth: 0.3, scrollable: true, engagedMs: 0)
        _ = try store.append([later])
        let parts = try #require(try store.sections(StatisticsQuery(article: "/alone", threshold: 0.9)))
        #expect(
            parts.sections.isEmpty && parts.attention == [Double](repeating: 0, count: AttentionBands.count))
    }
}

extension ProgressStore {
    func sections(_ query: StatisticsQuery) throws(StoreError) -> SectionStatistics? {
        try waitFor { sections(query, completion: $0) }
    }
}
