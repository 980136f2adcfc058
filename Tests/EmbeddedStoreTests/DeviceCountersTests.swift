import ProgressCore
import ProgressStore
import Testing

@testable import EmbeddedStore

/// The counters of each device class against a fold of the records, as readers come back on
/// other days and their days change class.
@Suite("Device counters agree with folding the reader-days")
struct DeviceCountersTests {
    @Test("random events on an article past the counters' threshold, checked after every batch")
    func random() throws {
        let index = MemoryIndex()
        let day: Int64 = 20_000
        var state: UInt64 = 42
        func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
        func event(_ reader: Int) -> EventRecord {
            let classes: [DeviceClass?] = [nil, nil, .phone, .tablet, .desktop, .other]
            return EventRecord(
                article: "/c", reader: "r\(reader)",
                timeMs: (day + Int64(next(4))) * 86_400_000 + Int64(next(86_400_000)),
                progress: Double(next(1001)) / 1000, seenDepth: Double(next(1001)) / 1000,
                scrollable: next(20) > 0,
                engagedMs: Int64(next(5_000)), device: classes[next(classes.count)],
                widthDevice: [nil, .phone, .tablet, .desktop][next(4)])
        }
        index.apply((0..<CounterPolicy.embedded.segmentCountersFrom + 100).map { event($0) })
        for _ in 0..<4 {
            index.apply(
                (0..<2_000).map { _ in event(next(CounterPolicy.embedded.segmentCountersFrom + 500)) })
            let article = try #require(index.state.read { $0.article(named: "/c") })
            for device in DeviceClass.allCases {
                for metric in ArticleStatistics.Metric.allCases {
                    let query = StatisticsQuery(
                        article: "/c", metric: metric, threshold: 0.5, segment: SegmentFilter(device: device))
                    let match = index.state.read { $0.match(query.segment) }
                    let folded = ArticleStatistics.compute(
                        readers: article.figures(in: .allTime, matching: match), query: query)
                    #expect(agreeWithFold(try index.statisticsNow(query), folded), "\(device) \(metric)")
                }
            }
            let query = SegmentsQuery(statistics: StatisticsQuery(article: "/c", threshold: 0.9), by: .device)
            let groups = article.figuresBySegment(in: .allTime, matching: .all, by: .device)
            let folded = SegmentStatistics.compute(
                figures: Dictionary(
                    uniqueKeysWithValues: groups.map {
                        (ExactKey(DeviceClass.numbered($0.key).rawValue), $0.value)
                    }),
                by: .device, limit: 10, query: query.statistics)
            let answered = try #require(try index.segmentsNow(query))
            #expect(answered.segments.map(\.name) == folded.segments.map(\.name))
            for (a, b) in zip(answered.segments, folded.segments) {
                #expect(agreeWithFold(a.statistics, b.statistics), "\(a.name)")
            }
        }
    }
}
