import ProgressStore

/// The readers of a large article counted in PostgreSQL rather than sent one by one: per
/// segment and 1/1000 bin of the query's depth, the counts and sums the counters keep, and
/// the readers complete at the query's threshold and engaged minimum, counted exactly — so that
/// an answer costs rows by bin, not by reader (``CountedReaders``).
extension Segmenting {
    /// The bins' lower edges, as ``DepthHistogram/bin(of:)`` has them, for `width_bucket`.
    static let binEdges = (0..<DepthHistogram.binCount).map { Double($0) / 1000 }

    /// `query`'s readers (those of `query.segment`), counted by segment along `dimension` (one
    /// segment named `""` when `nil`); empty when the filter's source was never kept.
    static func counted(
        _ query: StatisticsQuery, by dimension: SegmentStatistics.Dimension?, on connection: PGConnection
    )
        throws(StoreError) -> [(name: String, counted: CountedReaders)]
    {
        var parameters: [PGValue] = [
            .text(query.article), .int(Int64(query.days.from ?? Int32.min)),
            .int(Int64(query.days.to ?? Int32.max)), .doubleArray(binEdges), .int(DepthSum.unitsPerDepth),
            .double(query.threshold), .double(query.minEngagedSeconds),
        ]
        guard let admitted = try condition(query.segment, on: "d", parameters: &parameters, connection) else {
            return []
        }
        let depth =
            query.metric == .progress
            ? "CASE WHEN bool_or(d.scrollable) THEN max(d.max_progress) END" : "max(d.max_seen)"
        let rows = try connection.execute(
            """
            SELECT r.segment, width_bucket(r.depth, $4::float8[]), count(*), count(*) FILTER (WHERE NOT r.scrollable),
                sum(r.events)::int8, sum(r.engaged)::int8, min(r.first), max(r.last),
                coalesce(sum(trunc(r.depth * $5::int8)::int8), 0)::text,
                count(*) FILTER (WHERE r.depth >= $6 AND r.engaged::float8 / 1000 >= $7)
            FROM (SELECT \(key(dimension, "d")) AS segment, bool_or(d.scrollable) AS scrollable, sum(d.events) AS events,
                    sum(d.engaged_ms) AS engaged, min(d.first_ms) AS first, max(d.last_ms) AS last, \(depth) AS depth
                FROM rp_reader_days AS d WHERE d.article = $1 AND d.day BETWEEN $2 AND $3\(admitted)
                GROUP BY 1, d.reader) AS r
            GROUP BY 1, 2
            """, parameters)
        // Each segment's rows summed first, and its bins set once: keyed as SQL spells a class's
        // name or a source's id, one spelling each.
        var segments: [String: (counters: ArticleCounters, bins: [Int32], units: Int128, completed: Int)] =
            [:]
        for row in 0..<rows.rowCount {
            guard let units = Int128(rows.string(row, 8)) else {
                throw StoreError.corrupt(
                    "a sum of depths of \(query.article) in rp_reader_days is not an integer")
            }
            let count = Int(try rows.int64(row, 2))
            var segment =
                segments[rows.string(row, 0)] ?? (
                    ArticleCounters(), [Int32](repeating: 0, count: DepthHistogram.binCount), 0, 0
                )
            segment.counters.readers += count
            segment.counters.unscrollable += Int(try rows.int64(row, 3))
            segment.counters.events += try rows.int64(row, 4)
            segment.counters.engagedMs += try rows.int64(row, 5)
            let (first, last) = (try rows.int64(row, 6), try rows.int64(row, 7))
            segment.counters.firstMs = min(segment.counters.firstMs ?? first, first)
            segment.counters.lastMs = max(segment.counters.lastMs ?? last, last)
            segment.units += units
            segment.completed += Int(try rows.int64(row, 9))
            if !rows.isNull(row, 1) {
                segment.bins[max(0, Int(try rows.int64(row, 1)) - 1)] += Int32(count)
            }
            segments[rows.string(row, 0)] = segment
        }
        let counted = segments.mapValues { segment in
            var counted = CountedReaders(metric: query.metric)
            counted.counters.readers = segment.counters.readers
            counted.counters.unscrollable = segment.counters.unscrollable
            counted.counters.events = segment.counters.events
            counted.counters.engagedMs = segment.counters.engagedMs
            counted.counters.firstMs = segment.counters.firstMs
            counted.counters.lastMs = segment.counters.lastMs
            counted.add(bins: segment.bins, units: segment.units, completedFrom: nil)
            counted.completed = segment.completed
            return counted
        }
        return try named(counted, by: dimension, on: connection).map { ($0.name, $0.group) }
    }
}
