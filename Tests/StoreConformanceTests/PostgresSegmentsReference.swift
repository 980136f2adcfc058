import Foundation
import ProgressCore
import ProgressStore

@testable import PostgresStore

/// Segments (docs/api.md, "Segments") computed the plainest way from the events in the order
/// they arrived: each reader-day's segment folded with ``DaySegment``, sources past the first
/// `maximumSources` distinct ones counted as `(other)`.
struct PostgresSegmentsReference {
    private(set) var events: [EventRecord] = []
    var maximumSources = Segmenting.maximumSources

    mutating func add(_ new: [EventRecord]) {
        events += new
    }

    /// The sources kept by name: the first `maximumSources` distinct ones named, in arrival order.
    var keptSources: Set<ExactKey> {
        var kept: [ExactKey] = []
        var seen: Set<ExactKey> = [ExactKey(ReaderSource.direct), ExactKey(ReaderSource.other)]
        for event in events {
            guard let source = event.source.map(ExactKey.init), seen.insert(source).inserted else { continue }
            kept.append(source)
        }
        return Set(kept.prefix(maximumSources))
    }

    private struct DayKey: Hashable {
        var reader: ExactKey
        var day: Int32
    }

    /// `article`'s reader-days: their figures and resolved segments.
    private func days(of article: String) -> [DayKey: (figures: ReaderFigures, segment: ReaderSegment)] {
        let kept = keptSources
        var folds: [DayKey: (figures: ReaderFigures, segment: DaySegment)] = [:]
        for event in events where sameBytes(event.article, article) {
            let key = DayKey(reader: ExactKey(event.reader), day: event.day)
            if var fold = folds[key] {
                fold.figures.fold(ReaderFigures(event))
                fold.segment.fold(event)
                folds[key] = fold
            } else {
                folds[key] = (ReaderFigures(event), DaySegment(event))
            }
        }
        return folds.mapValues { fold in
            var segment = fold.segment.resolved
            if let named = fold.segment.source, !sameBytes(named, ReaderSource.direct),
                !kept.contains(ExactKey(named))
            {
                segment.source = ReaderSource.other
            }
            return (fold.figures, segment)
        }
    }

    /// The readers of `article` over the days of `range` that `filter` admits, in byte order;
    /// `nil` for an article without events.
    func readers(of article: String, in range: DayRange = .allTime, segment filter: SegmentFilter = .all)
        -> [ReaderSummary]?
    {
        guard events.contains(where: { sameBytes($0.article, article) }) else { return nil }
        var byReader: [ExactKey: ReaderFigures] = [:]
        for (key, day) in days(of: article) where range.contains(key.day) && filter.admits(day.segment) {
            byReader[key.reader] = byReader[key.reader].map { $0.folded(day.figures) } ?? day.figures
        }
        return byReader.map { ReaderSummary(reader: $0.key.string, figures: $0.value) }
            .sorted { bytesBefore($0.reader, $1.reader) }
    }

    func statistics(_ query: StatisticsQuery) -> ArticleStatistics? {
        readers(of: query.article, in: query.days, segment: query.segment).map {
            ArticleStatistics.compute(readers: $0, query: query)
        }
    }

    func segments(_ query: SegmentsQuery) -> SegmentStatistics? {
        let statistics = query.statistics
        guard events.contains(where: { sameBytes($0.article, statistics.article) }) else { return nil }
        var groups: [ExactKey: [ExactKey: ReaderFigures]] = [:]
        for (key, day) in days(of: statistics.article)
        where statistics.days.contains(key.day) && statistics.segment.admits(day.segment) {
            let name = ExactKey(day.segment.name(by: query.by))
            groups[name, default: [:]][key.reader] =
                groups[name]?[key.reader].map { $0.folded(day.figures) } ?? day.figures
        }
        return SegmentStatistics.compute(
            readers: groups.mapValues { $0.map { ReaderSummary(reader: $0.key.string, figures: $0.value) } },
            by: query.by, limit: query.limit, query: statistics)
    }
}

/// Whether two segment answers agree: the same segments in the same order, each's statistics
/// agreeing (``agree(_:_:)-(ArticleStatistics?,ArticleStatistics?)``).
func agreeSegments(_ a: SegmentStatistics?, _ b: SegmentStatistics?) -> Bool {
    guard let a, let b else { return a == nil && b == nil }
    func same(_ x: SegmentStatistics.Segment?, _ y: SegmentStatistics.Segment?) -> Bool {
        guard let x, let y else { return x == nil && y == nil }
        return sameBytes(x.name, y.name) && agree(x.statistics, y.statistics)
    }
    return a.segments.count == b.segments.count && zip(a.segments, b.segments).allSatisfy(same)
        && same(a.other, b.other)
}

extension ProgressStore {
    /// ``readers(of:in:segment:completion:)``, waited for.
    func segmentReaders(of article: String, in days: DayRange = .allTime, _ segment: SegmentFilter)
        throws(StoreError) -> [ReaderSummary]?
    {
        try waitFor { readers(of: article, in: days, segment: segment, completion: $0) }
    }

    /// ``segments(_:completion:)``, waited for.
    func segmentsAnswer(_ query: SegmentsQuery) throws(StoreError) -> SegmentStatistics? {
        try waitFor { segments(query, completion: $0) }
    }
}

/// One event of `reader` on `article` at `timeMs`, with a segment's parts.
func segmentEvent(
    _ article: String, _ reader: String, _ timeMs: Int64, progress: Double = 0.5, device: DeviceClass? = nil,
    width: DeviceClass? = nil, source: String? = nil
) -> EventRecord {
    EventRecord(
        article: article, reader: reader, timeMs: timeMs, progress: progress,
        seenDepth: min(1, progress + 0.1),
        scrollable: true, engagedMs: 1000, device: device, widthDevice: width, source: source)
}

/// Whether `condition` holds within `seconds`, asked every few milliseconds.
func holdsWithin(_ seconds: Double, _ condition: () throws -> Bool) rethrows -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while try !condition() {
        if Date() > deadline { return false }
        Thread.sleep(forTimeInterval: 0.005)
    }
    return true
}
