/// The readers of an article split by device class or by source, each segment with its own
/// drop-off curve (docs/api.md, "Segments"). Pure arithmetic shared by every store.
public struct SegmentStatistics: Sendable, Equatable {
    /// What a segment is made of.
    public enum Dimension: String, Sendable, Hashable, CaseIterable {
        case device, source
    }

    /// One segment: its name and its readers' figures by the query's metric and threshold.
    public struct Segment: Sendable, Equatable {
        public var name: String
        public var statistics: ArticleStatistics

        public init(name: String, statistics: ArticleStatistics) {
            self.name = name
            self.statistics = statistics
        }
    }

    /// Most readers first, then by name (in byte order).
    public var segments: [Segment]
    /// For sources, the readers of every segment past the limit, as one segment named
    /// ``ReaderSource/other``; `nil` when none is past it, and always for devices.
    public var other: Segment?

    public init(segments: [Segment], other: Segment?) {
        self.segments = segments
        self.other = other
    }

    /// Most sources one answer lists by name.
    public static let limits = 1...50

    /// `readers` grouped by segment name, ranked; by source at most `limit` segments are
    /// listed and the rest fold into ``other``, by device every class present is listed. Names
    /// are keyed by their bytes: two sources that Unicode calls equivalent are two segments.
    public static func compute(
        readers: [ExactKey: [ReaderSummary]], by dimension: Dimension, limit: Int, query: StatisticsQuery
    ) -> SegmentStatistics {
        compute(figures: readers.mapValues { $0.map(\.figures) }, by: dimension, limit: limit, query: query)
    }

    /// ``compute(readers:by:limit:query:)`` of the readers' figures alone.
    public static func compute(
        figures readers: [ExactKey: [ReaderFigures]], by dimension: Dimension, limit: Int,
        query: StatisticsQuery
    ) -> SegmentStatistics {
        compute(
            segments: readers.map { (name: $0.key.string, figures: $0.value) }, by: dimension, limit: limit,
            query: query)
    }
}
