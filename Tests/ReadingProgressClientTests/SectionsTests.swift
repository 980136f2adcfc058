import Foundation
import ProgressCore
import Testing

@testable import ReadingProgressClient

/// Section maps cleaned on the device, and what the events carry to the real service.
@Suite("Sections, device and source")
struct SectionsTests {
    @Test(
        "a map is cleaned by one rule: repair titles and words, drop what cannot be repaired",
        arguments: [
            (
                [ArticleSection(title: "  Intro\n\tduction ", start: 0, words: -3)],
                [ArticleSection(title: "Intro duction", start: 0, words: 0)]
            ),
            (
                [ArticleSection(title: "A", start: 0.5), ArticleSection(title: "B", start: 0.5)],
                [ArticleSection(title: "A", start: 0.5)]
            ),
            (
                [
                    ArticleSection(title: "A", start: 1), ArticleSection(title: "B", start: -0.1),
                    ArticleSection(title: "C", start: .nan),
                ], []
            ),
            (
                [
                    ArticleSection(title: "\u{7}\u{85}", start: 0),
                    ArticleSection(title: "B", start: 0.2, words: 2_000_000),
                ], [ArticleSection(title: "B", start: 0.2, words: 1_000_000)]
            ),
            (
                [ArticleSection(title: String(repeating: "é", count: 150), start: 0)],
                [ArticleSection(title: String(repeating: "é", count: 100), start: 0)]
            ),
            (
                [ArticleSection(title: String(repeating: "a", count: 199) + "😀", start: 0)],
                [ArticleSection(title: String(repeating: "a", count: 199), start: 0)]
            ),
        ] as [([ArticleSection], [ArticleSection])])
    func cleaning(given: [ArticleSection], expected: [ArticleSection]) {
        #expect(ArticleSection.map(of: given) == expected)
    }

    @Test("past 64 sections the rest are dropped")
    func bound() {
        let many = (0..<100).map { ArticleSection(title: "S\($0)", start: Double($0) / 100) }
        #expect(ArticleSection.map(of: many) == Array(many.prefix(64)))
    }

    @Test(
        "events carry the map once per view and when it changes, attention, device and source; the service takes them"
    )
    func endToEnd() async throws {
        let rig = try await Rig.start {
            $0.device = .tablet
            $0.source = "  News letter\n"
        }
        defer { rig.server.stop() }
        let article = "/client/sections"
        let map = [
            ArticleSection(title: "Intro", start: 0, words: 300),
            ArticleSection(title: "Methods", start: 0.5),
        ]
        #expect(await rig.reporter.setSections(map, article: article) == map)
        // Engaged time starts with a scroll: to the top, two seconds there, then to the bottom.
        try await rig.reporter.record(page(y: 100), article: article)
        try await rig.reporter.record(page(y: 0), article: article)
        rig.clock.advance(by: 2)
        try await rig.reporter.record(page(y: 1000), article: article)
        let changed = map + [ArticleSection(title: "Results", start: 0.8, words: 100)]
        await rig.reporter.setSections(changed, article: article)
        rig.clock.advance(by: 1)
        await rig.reporter.endView(article: article)

        let stored = try DirectoryStorage(directory: rig.folder.url.appendingPathComponent("queue")).loadAll()
        let events = try stored.map { try WireEvent.decoded(from: $0.data) }.sorted { $0.time < $1.time }
        #expect(events.count >= 3)
        #expect(events.map(\.sections) == [map] + [nil] * (events.count - 2) + [changed])
        #expect(events.allSatisfy { $0.device == .tablet && $0.source == "News letter" })
        for event in events {
            #expect((event.attention == nil) == (event.engagedMs == 0))
            if let attention = event.attention {
                #expect(attention.count == 20)
                #expect(attention.allSatisfy { $0 <= event.engagedMs })
            }
        }
        // Two seconds with the top half in view, then one with the bottom half.
        let attention = events.compactMap(\.attention).reduce([Int](repeating: 0, count: 20)) {
            zip($0, $1).map(+)
        }
        #expect(attention == [Int](repeating: 2000, count: 10) + [Int](repeating: 1000, count: 10))
        let raw = try #require(String(data: stored[0].data, encoding: .utf8))
        #expect(raw.contains("\"device\":\"tablet\""))

        #expect(await rig.reporter.flush() == 0)
        #expect(rig.log.rejected.isEmpty)
        #expect(try await rig.server.eventCount(article) == events.count)
    }
}

extension Array {
    /// The elements of `element` repeated `count` times, for tables of bands.
    static func * (element: Array, count: Int) -> Array {
        Array((0..<count).flatMap { _ in element })
    }
}

@Suite("Headings laid out")
struct SectionHeadingTests {
    @Test(
        "headings become starts as shares of the body, in order, outside ones dropped",
        arguments: [
            (
                [
                    SectionHeading(title: "B", offset: 1500),
                    SectionHeading(title: "A", offset: 1000, words: 9),
                ],
                Region(start: 1000, end: 2000),
                [ArticleSection(title: "A", start: 0, words: 9), ArticleSection(title: "B", start: 0.5)]
            ),
            ([SectionHeading(title: "Top", offset: 10)], Region(start: 100, end: 200), []),
            (
                [SectionHeading(title: "A", offset: 1)], Region(start: 0, end: 3),
                [ArticleSection(title: "A", start: 0.3333)]
            ),
            ([SectionHeading(title: "A", offset: 0)], Region(start: 0, end: 0), []),
        ] as [([SectionHeading], Region, [ArticleSection])])
    func layout(headings: [SectionHeading], body: Region, expected: [ArticleSection]) {
        #expect(ArticleSection.map(of: headings, body: body) == expected)
    }
}
