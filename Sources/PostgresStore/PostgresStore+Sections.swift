public import ProgressStore

extension PostgresStore {
    /// See ``ProgressStore/sections(_:completion:)``: the map and the article's counters in one
    /// query, the attention summed over the range in another, and the readers' depths from the
    /// seen-depth histogram when it spans the range and the article is past the fast-path rule
    /// (exact for a start on the 1/1000 grid, otherwise counting from the start's bin, so
    /// readers up to 0.001 below it may count, as the embedded store does), else counted
    /// between the bounds from the day rows — always under a segment filter, which leaves the
    /// attention out.
    public func sections(
        _ query: StatisticsQuery,
        completion: @escaping @Sendable (Result<SectionStatistics?, StoreError>) -> Void
    ) {
        read(
            { (connection) throws(StoreError) -> SectionStatistics? in
                let rows = try connection.execute(
                    """
                    SELECT s.map, \(ArticleCounters.columns)
                    FROM rp_articles AS a LEFT JOIN rp_sections AS s ON s.article = a.article WHERE a.article = $1
                    """, [.text(query.article)])
                guard rows.rowCount == 1 else { return nil }
                let map = rows.isNull(0, 0) ? [] : try SectionMap.decode(rows.bytes(0, 0))
                let counters = try ArticleCounters(rows, row: 0, from: 1)
                let attention = query.segment.isAll ? try Self.attention(of: query, on: connection) : nil
                if query.segment.isAll, counters.spans(query.days),
                    counters.readers > CounterPolicy.histogramMinimumReaders,
                    let seen = counters.histograms?.seenDepth
                {
                    let atOrAbove = seen.countsAtOrAbove()
                    return SectionStatistics.compute(
                        map: map, readers: counters.readers,
                        readersAtOrAbove: { atOrAbove[DepthHistogram.bin(of: $0)] }, attentionMs: attention)
                }
                var bounds = Array(Set(map.map(\.start) + [1])).sorted()
                bounds.insert(-1, at: 0)
                let (readers, counts) = try Self.depthCounts(of: query, bounds: bounds, on: connection)
                return SectionStatistics.compute(
                    map: map, readers: readers, readersAtOrAbove: { counts[$0] ?? 0 }, attentionMs: attention)
            }, completion: completion)
    }

    /// The attention of `query.article`'s bands summed over `query.days`, in ms.
    private static func attention(of query: StatisticsQuery, on connection: PGConnection) throws(StoreError)
        -> [Int64]
    {
        let rows = try connection.execute(
            """
            SELECT b.i, sum(b.ms)::int8 FROM rp_attention AS t, unnest(t.bands) WITH ORDINALITY AS b (ms, i)
            WHERE t.article = $1 AND t.day BETWEEN $2 AND $3 GROUP BY b.i
            """,
            [
                .text(query.article), .int(Int64(query.days.from ?? Int32.min)),
                .int(Int64(query.days.to ?? Int32.max)),
            ])
        var bands = [Int64](repeating: 0, count: AttentionBands.count)
        for row in 0..<rows.rowCount {
            let band = Int(try rows.int64(row, 0)) - 1
            guard bands.indices.contains(band) else {
                throw StoreError.corrupt("rp_attention holds more than \(AttentionBands.count) bands")
            }
            bands[band] = try rows.int64(row, 1)
        }
        return bands
    }

    /// The readers of `query.article` in `query.days`, and for each of `bounds` (ascending, the
    /// first below every depth) how many have a depth — their maximum `seenDepth` in range, 1
    /// for an unscrollable reader, over the reader-days of `query.segment` — at or above it: one
    /// pass that puts each reader between two bounds.
    private static func depthCounts(
        of query: StatisticsQuery, bounds: [Double], on connection: PGConnection
    ) throws(StoreError) -> (readers: Int, atOrAbove: [Double: Int]) {
        var parameters: [PGValue] = [
            .text(query.article), .int(Int64(query.days.from ?? Int32.min)),
            .int(Int64(query.days.to ?? Int32.max)), .doubleArray(bounds),
        ]
        guard
            let admitted = try Segmenting.condition(
                query.segment, on: "d", parameters: &parameters, connection)
        else { return (0, [:]) }
        let rows = try connection.execute(
            """
            SELECT width_bucket(r.depth, $4::float8[]), count(*)
            FROM (SELECT CASE WHEN bool_or(d.scrollable) THEN max(d.max_seen) ELSE 1 END AS depth
                FROM rp_reader_days AS d WHERE d.article = $1 AND d.day BETWEEN $2 AND $3\(admitted)
                GROUP BY d.reader) AS r
            GROUP BY 1
            """, parameters)
        // Bucket j holds the depths in [bounds[j - 1], bounds[j]).
        var within = [Int](repeating: 0, count: bounds.count + 1)
        for row in 0..<rows.rowCount {
            within[Int(try rows.int64(row, 0))] += Int(try rows.int64(row, 1))
        }
        var atOrAbove: [Double: Int] = [:]
        var running = 0
        for j in stride(from: bounds.count, through: 1, by: -1) {
            running += within[j]
            atOrAbove[bounds[j - 1]] = running
        }
        return (running, atOrAbove)
    }
}
