extension SegmentStatistics {
    /// `parts` — each segment's name and its readers, listed or counted — as an answer has
    /// them: most readers first, then by name in byte order; by device every segment, by source
    /// at most `limit`, the rest as one segment named ``ReaderSource/other`` that `merged`
    /// makes of their parts. The one ranking of every store and every way of counting.
    package static func ranking<Part>(
        _ parts: [(name: String, part: Part)], by dimension: Dimension, limit: Int,
        readers: (Part) -> Int, statistics: (Part) -> ArticleStatistics,
        merged: ([Part]) -> ArticleStatistics
    ) -> SegmentStatistics {
        // Positions are sorted rather than the parts, which may be large values.
        let counts = parts.map { readers($0.part) }
        let ranked = parts.indices.sorted {
            counts[$0] != counts[$1]
                ? counts[$0] > counts[$1] : parts[$0].name.utf8.lexicographicallyPrecedes(parts[$1].name.utf8)
        }
        let listed = dimension == .device ? ranked[...] : ranked.prefix(limit)
        let rest = ranked.dropFirst(listed.count)
        return SegmentStatistics(
            segments: listed.map { Segment(name: parts[$0].name, statistics: statistics(parts[$0].part)) },
            other: rest.isEmpty
                ? nil : Segment(name: ReaderSource.other, statistics: merged(rest.map { parts[$0].part })))
    }

    /// The segments of `parts`, counted by a store (``CountedReaders``), ranked.
    package static func ranking(
        counted parts: [(name: String, part: CountedReaders)], by dimension: Dimension, limit: Int
    ) -> SegmentStatistics {
        ranking(
            parts, by: dimension, limit: limit,
            readers: { (part: CountedReaders) in part.counters.readers },
            statistics: { (part: CountedReaders) in part.statistics },
            merged: { (rest: [CountedReaders]) in
                var other = CountedReaders(metric: rest[0].metric)
                for part in rest { other.add(part) }
                return other.statistics
            })
    }

    /// The segments of readers listed by segment — each name once, as its bytes spell it — with
    /// their figures over the range, ranked.
    package static func compute(
        segments: [(name: String, figures: [ReaderFigures])], by dimension: Dimension, limit: Int,
        query: StatisticsQuery
    ) -> SegmentStatistics {
        ranking(
            segments.map { (name: $0.name, part: $0.figures) }, by: dimension, limit: limit,
            readers: { (part: [ReaderFigures]) in part.count },
            statistics: { (part: [ReaderFigures]) in ArticleStatistics.compute(readers: part, query: query) },
            merged: { (rest: [[ReaderFigures]]) in
                ArticleStatistics.compute(readers: Array(rest.joined()), query: query)
            })
    }
}
