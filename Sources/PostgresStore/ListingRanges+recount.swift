import ProgressStore

extension ListingRanges {
    /// The statement that recounts the lines of the articles stamped after `$6` over days
    /// `$2`…`$3` at threshold `$4`, deletes those of articles gone, and marks range `$1`
    /// refreshed: ``ListingTally/add(_:threshold:)`` in SQL, the progress summed in ``DepthSum``'s
    /// units (exact in `int8` for depths of 0…1). An article with counters by day of which the
    /// range holds one takes its line from them, as ``ArticleCounters/listingTally(in:threshold:)``
    /// does, when the threshold is the edge `$8` of a bin (`NULL` when it is none). `whole`: a
    /// range not counted yet, whose every line is new; else the articles with a day in `$9`…`$10`
    /// or `$11`…`$12` (those a moved range gained or lost) are recounted too.
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
            ? """
            SELECT article, \(sums) FROM (\(days) AND NOT EXISTS (SELECT 1 FROM one_day AS o WHERE o.article = d.article)
                GROUP BY article, reader) AS r GROUP BY article
            UNION ALL SELECT * FROM one_day
            """
            : """
            SELECT x.article, s.* FROM touched AS x CROSS JOIN LATERAL (
                SELECT \(sums) FROM (\(days) AND d.article = x.article GROUP BY article, reader) AS r) AS s
            WHERE NOT EXISTS (SELECT 1 FROM one_day AS o WHERE o.article = x.article)
            UNION ALL SELECT o.* FROM one_day AS o WHERE o.article IN (SELECT article FROM touched)
            """
        // The articles with counters by day of which the range holds one, with that day's line:
        // readers, events, counted and their progress from the counters, completed from the
        // progress histogram's bins (``ArticleCounters/sparseBins(_:)``) from edge `$8` up. The
        // bins are copied out once (`|| ''`, not flattened away: `OFFSET 0`), as each `get_byte`
        // of the stored value would decompress it again: 1.2 ms a day of 1,001 bins, not 20.
        let oneDay = """
            one_day AS (
                SELECT a.article, a.readers, a.events, a.readers - a.unscrollable AS counted,
                    (SELECT coalesce(sum(get_byte(v.b, i + 2)::int8 + (get_byte(v.b, i + 3)::int8 << 8)
                            + (get_byte(v.b, i + 4)::int8 << 16) + (get_byte(v.b, i + 5)::int8 << 24)), 0)
                        FROM (SELECT a.progress_bins || ''::bytea AS b OFFSET 0) AS v,
                            generate_series(0, length(v.b) - 6, 6) AS i
                        WHERE get_byte(v.b, i) + (get_byte(v.b, i + 1) << 8) >= $8::int4
                    )::int8 AS completed,
                    a.progress_units AS units, a.last_ms
                FROM rp_article_days AS a
                WHERE $8::int4 IS NOT NULL AND a.day BETWEEN $2 AND $3 AND NOT EXISTS (
                    SELECT 1 FROM rp_article_days AS b
                    WHERE b.article = a.article AND b.day BETWEEN $2 AND $3 AND b.day <> a.day)\(
                whole ? "" : " AND a.article IN (SELECT article FROM touched)"))
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
            return "WITH \(oneDay), t AS (\(tally)), up AS (\(insert) WHERE a.changed > $6) \(marking)"
        }
        return """
            WITH touched AS (
                SELECT article FROM rp_articles WHERE changed > $6
                UNION SELECT article FROM rp_articles_gone WHERE changed > $6
                UNION SELECT article FROM rp_reader_days WHERE day BETWEEN $9 AND $10 OR day BETWEEN $11 AND $12),
            \(oneDay),
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
