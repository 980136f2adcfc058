import ProgressStore

/// The reads of the sections (``ConnectionReads``): attention by band, and readers by depth.
extension PostgresStore {
    /// The attention of `article`'s bands summed over `days`, in ms.
    static func attention(of article: String, in days: DayRange, on connection: PGConnection)
        throws(StoreError) -> [Int64]
    {
        let rows = try connection.execute(
            """
            SELECT b.i, sum(b.ms)::int8 FROM rp_attention AS t, unnest(t.bands) WITH ORDINALITY AS b (ms, i)
            WHERE t.article = $1 AND t.day BETWEEN $2 AND $3 GROUP BY b.i
            """,
            [.text(article), .int(Int64(days.from ?? Int32.min)), .int(Int64(days.to ?? Int32.max))])
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

    /// The readers of `article` in `days`, and for each of `bounds` (ascending, the first below
    /// every depth) how many have a depth — their maximum `seenDepth` in range, 1 for an
    /// unscrollable reader, over the reader-days of `segment` — at or above it: one pass that
    /// puts each reader between two bounds.
    static func depthCounts(
        of article: String, in days: DayRange, segment: SegmentFilter, bounds: [Double],
        on connection: PGConnection
    ) throws(StoreError) -> (readers: Int, atOrAbove: [Double: Int]) {
        var parameters: [PGValue] = [
            .text(article), .int(Int64(days.from ?? Int32.min)), .int(Int64(days.to ?? Int32.max)),
            .doubleArray(bounds),
        ]
        guard let admitted = try Segmenting.condition(segment, on: "d", parameters: &parameters, connection)
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
