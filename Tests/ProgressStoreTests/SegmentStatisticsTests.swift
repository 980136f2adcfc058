import ProgressStore
import Testing

@Suite("Segments: readers grouped by device or source, ranked, the rest folded into (other)")
struct SegmentStatisticsTests {
    static func reader(_ name: String, depth: Double) -> ReaderSummary {
        ReaderSummary(
            reader: name,
            figures: ReaderFigures(
                maxProgress: depth, maxSeenDepth: depth, scrollable: true, events: 1, engagedMs: 0,
                firstMs: 0,
                lastMs: 0))
    }

    static let query = StatisticsQuery(article: "/a", threshold: 0.9)

    static let groups: [ExactKey: [ReaderSummary]] = [
        ExactKey("newsletter"): [reader("a", depth: 1), reader("b", depth: 0.5)],
        ExactKey("search"): [reader("c", depth: 0.2), reader("d", depth: 0.95), reader("e", depth: 0.1)],
        ExactKey("(direct)"): [reader("f", depth: 0.3), reader("g", depth: 0.9)],
        ExactKey("social"): [reader("h", depth: 0.4)],
    ]

    @Test("most readers first, then by name; each segment's figures are its readers' own")
    func ranked() {
        let result = SegmentStatistics.compute(
            readers: Self.groups, by: .source, limit: 10, query: Self.query)
        #expect(result.segments.map(\.name) == ["search", "(direct)", "newsletter", "social"])
        #expect(result.other == nil)
        let search = result.segments[0].statistics
        #expect(search.readers == 3 && search.completed == 1)
        #expect(
            search == ArticleStatistics.compute(readers: Self.groups[ExactKey("search")]!, query: Self.query))
    }

    @Test("sources past the limit fold into one (other) segment of all their readers")
    func folded() throws {
        let result = SegmentStatistics.compute(readers: Self.groups, by: .source, limit: 2, query: Self.query)
        #expect(result.segments.map(\.name) == ["search", "(direct)"])
        let other = try #require(result.other)
        #expect(other.name == "(other)")
        #expect(other.statistics.readers == 3)
        #expect(other.statistics.completed == 1)
    }

    @Test("devices list every class present, whatever the limit")
    func devices() {
        let groups = [
            ExactKey("phone"): [Self.reader("a", depth: 1)],
            ExactKey("desktop"): [Self.reader("b", depth: 0)],
        ]
        let result = SegmentStatistics.compute(readers: groups, by: .device, limit: 1, query: Self.query)
        #expect(result.segments.map(\.name) == ["desktop", "phone"])
        #expect(result.other == nil)
    }
}
