import EmbeddedStore
import ProgressCore
import ProgressStore

/// Segments at one article of a million readers (docs/api.md, "Segments"): statistics filtered
/// by device against the unfiltered ones (both from counters), the segments by device, and the
/// queries that fold every reader-day — a source filter and the segments by source — cold.
enum SegmentsBench {
    static let sources = (0..<30).map { "source-\($0).example" }

    static func run(pairs: Int) {
        let index = StandaloneIndex()
        // One event (so one day) a reader: a third name their device, the others give a width;
        // four in five name one of 30 sources.
        for start in stride(from: 0, to: pairs, by: 10_000) {
            index.apply(
                (start..<min(pairs, start + 10_000)).map { i in
                    let id = String(i, radix: 16)
                    return EventRecord(
                        article: "/million", reader: String(repeating: "0", count: 12 - id.count) + id,
                        timeMs: Int64(i % 86_400_000), progress: Double(i % 1000) / 999,
                        seenDepth: Double(i % 997) / 996, scrollable: i % 50 != 0,
                        engagedMs: Int64(i % 7_000),
                        device: i % 3 == 0 ? DeviceClass.allCases[i / 3 % 4] : nil,
                        widthDevice: [DeviceClass.phone, .tablet, .desktop][i % 3],
                        source: i % 5 == 0 ? nil : sources[i / 5 % sources.count])
                })
        }
        check(index.pairCount == pairs, "\(index.pairCount) pairs held of \(pairs) applied")
        let all = StatisticsQuery(article: "/million", threshold: 0.9)
        var phone = all
        phone.segment = SegmentFilter(device: .phone)
        let unfiltered = medianSeconds { _ = index.statistics(all) }
        let filtered = medianSeconds { _ = index.statistics(phone) }
        let byDevice = medianSeconds { _ = index.segments(SegmentsQuery(statistics: all, by: .device)) }
        print(
            "segments, one article of \(pairs) readers: statistics \(figure(unfiltered * 1e6, 2)) µs, "
                + "device=phone \(figure(filtered * 1e6, 2)) µs (\(figure(filtered / unfiltered, 2))×), "
                + "segments by device \(figure(byDevice * 1e6, 2)) µs (\(figure(byDevice / unfiltered, 2))×) "
                + "(median of 15)")
        var source = all
        source.segment = SegmentFilter(source: sources[7])
        var both = source
        both.segment.device = .tablet
        let bySource = SegmentsQuery(statistics: all, by: .source, limit: 10)
        // Wall and CPU time apart: on a shared machine the wall time of one call varies.
        func cold(_ body: () -> Void) -> String {
            let runs = (0..<3).map { _ in timed(body) }
            let wall = runs.map(\.wall).sorted()[1]
            let cpu = runs.map(\.cpu).sorted()[1]
            return "\(figure(wall * 1e3)) ms (CPU \(figure(cpu * 1e3)))"
        }
        let sourceFiltered = cold { _ = index.statistics(source) }
        let bothFiltered = cold { _ = index.statistics(both) }
        let sourceSegments = cold { _ = index.segments(bySource) }
        print(
            "segments, one article of \(pairs) readers, every reader-day folded: source=… "
                + "\(sourceFiltered), device and source \(bothFiltered), segments by source \(sourceSegments) "
                + "(median of 3)")
    }
}
