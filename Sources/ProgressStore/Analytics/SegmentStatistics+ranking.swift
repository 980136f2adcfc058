extension SegmentStatistics {
    /// The segments named `names`, with `readers` readers each, as an answer has them: most
    /// readers first, then by name in byte order; by device every segment, by source at most
    /// `limit`, the rest as one segment named ``ReaderSource/other``. `statistics` answers for
    /// the segment at a position, `merged` for the segments at several together. The one ranking
    /// of every store and every way of counting; it sorts positions, not the segments' parts,
    /// which may be large values.
    package static func ranking(
        names: [String], readers: [Int], by dimension: Dimension, limit: Int,
        statistics: (Int) -> ArticleStatistics, merged: ([Int]) -> ArticleStatistics
    ) -> SegmentStatistics {
        let ranked = names.indices.sorted {
            readers[$0] != readers[$1]
                ? readers[$0] > readers[$1] : names[$0].utf8.lexicographicallyPrecedes(names[$1].utf8)
        }
        let listed = dimension == .device ? ranked[...] : ranked.prefix(limit)
        let rest = ranked.dropFirst(listed.count)
        return SegmentStatistics(
            segments: listed.map { Segment(name: names[$0], statistics: statistics($0)) },
            other: rest.isEmpty ? nil : Segment(name: ReaderSource.other, statistics: merged(Array(rest))))
    }

    /// The segments of `parts`, counted by a store (``CountedReaders``), ranked.
    package static func ranking(
        counted parts: [(name: String, part: CountedReaders)], by dimension: Dimension, limit: Int
    ) -> SegmentStatistics {
        ranking(
            names: parts.map { $0.name }, readers: parts.map { $0.part.counters.readers }, by: dimension,
            limit: limit,
            statistics: { parts[$0].part.statistics },
            merged: { rest in
                var other = CountedReaders(metric: parts[rest[0]].part.metric)
                for position in rest { other.add(parts[position].part) }
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
            names: segments.map(\.name), readers: segments.map(\.figures.count), by: dimension, limit: limit,
            statistics: { ArticleStatistics.compute(readers: segments[$0].figures, query: query) },
            merged: { rest in
                ArticleStatistics.compute(readers: rest.flatMap { segments[$0].figures }, query: query)
            })
    }
}
