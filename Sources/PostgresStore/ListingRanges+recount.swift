import ProgressStore

extension ListingRanges {
    /// The statement that recounts the lines of the articles stamped after `$6` over days
    /// `$2`…`$3` at threshold `$4`, deletes those of articles gone, and marks range `$1`
    /// refreshed: ``ListingTally/add(_:threshold:)`` in SQL, the progress summed in ``DepthSum``'s
    /// units (exact in `int8` for depths of 0…1). `whole`: a range not counted yet, whose every
    /// line is new; else the articles with a day in `$8`…`$9` or `$10`…`$11` (those a moved
    /// range gained or lost) are recounted too.
    static func recount(whole: Bool) -> String {
        // Counted article by article when recounting a few, so that the plan reads their days
        // by the (article, day) index whatever share of all days the range holds.
        let days = """
            SELECT article, reader, max(max_progress) AS progress, bool_or(scrollable) AS scrollable,
                sum(events) AS events, max(last_ms) AS last_ms
            FROM rp_reader_days AS d WHERE d.day BETWEEN $2 AND $3
            """
        let sums = """
            count(*) AS readers, sum(events)::int8 AS events, count(*) FILTER (WHERE scrollable) AS counted,
                count(*) FILTER (WHERE scrollable AND progress >= $4) AS completed,
                coalesce(sum(trunc(progress * $5::int8)::int8) FILTER (WHERE scrollable), 0) AS units,
                max(last_ms) AS last_ms
            """
        let tally =
            whole
            ? "SELECT article, \(sums) FROM (\(days) GROUP BY article, reader) AS r GROUP BY article"
            : """
            SELECT x.article, s.* FROM touched AS x CROSS JOIN LATERAL (
                SELECT \(sums) FROM (\(days) AND d.article = x.article GROUP BY article, reader) AS r) AS s
            """
        let insert = """
            INSERT INTO rp_listing_rows AS l (range_id, article, readers, events, counted, completed,
                progress_units, rate, last_ms)
            SELECT $1, a.article, coalesce(t.readers, 0), coalesce(t.events, 0), coalesce(t.counted, 0),
                coalesce(t.completed, 0), coalesce(t.units, 0),
                CASE WHEN t.counted > 0 THEN t.completed::float8 / t.counted::float8 ELSE 0 END, t.last_ms
            FROM rp_articles AS a LEFT JOIN t ON t.article = a.article
            """
        let marking =
            "UPDATE rp_listing_ranges SET refreshed = \(Self.mark), used_ms = coalesce($7, used_ms), moved_from = NULL, "
            + "moved_to = NULL WHERE id = $1"
        guard !whole else {
            return "WITH t AS (\(tally)), up AS (\(insert) WHERE a.changed > $6) \(marking)"
        }
        return """
            WITH touched AS (
                SELECT article FROM rp_articles WHERE changed > $6
                UNION SELECT article FROM rp_articles_gone WHERE changed > $6
                UNION SELECT article FROM rp_reader_days WHERE day BETWEEN $8 AND $9 OR day BETWEEN $10 AND $11),
            t AS (\(tally)),
            gone AS (
                DELETE FROM rp_listing_rows AS l WHERE l.range_id = $1 AND l.article IN (SELECT article FROM touched)
                    AND NOT EXISTS (SELECT 1 FROM rp_articles AS a WHERE a.article = l.article)),
            up AS (
                \(insert)
                WHERE a.article IN (SELECT article FROM touched)
                ON CONFLICT (range_id, article) DO UPDATE SET readers = excluded.readers, events = excluded.events,
                    counted = excluded.counted, completed = excluded.completed,
                    progress_units = excluded.progress_units, rate = excluded.rate, last_ms = excluded.last_ms)
            \(marking)
            """
    }
}
