import ProgressStore

/// Keeping the listing's ranges right as articles go, and the hourly upkeep.
extension ListingRanges {
    /// Deletes the deleted articles' stamps every range is refreshed past (all of them when no
    /// range is kept), skipping those another connection holds.
    static func prune(on connection: PGConnection) throws(StoreError) {
        try connection.execute(
            """
            DELETE FROM rp_articles_gone WHERE article IN (
                SELECT article FROM rp_articles_gone
                WHERE changed <= (SELECT coalesce(min(coalesce(refreshed, -1)), 9223372036854775807)
                    FROM rp_listing_ranges)
                FOR UPDATE SKIP LOCKED)
            """)
    }

    /// Takes `articles`, deleted from `rp_articles`, out of every range, and stamps them gone for
    /// a range whose count was under way. Callers hold `rp_fold`'s row; the ranges' rows are taken
    /// first, in order, as a refresh takes its one, so that the two never wait on each other.
    static func forget(_ articles: [String], on connection: PGConnection) throws(StoreError) {
        guard !articles.isEmpty else { return }
        try connection.execute("SELECT id FROM rp_listing_ranges ORDER BY id FOR UPDATE")
        try connection.execute(
            """
            WITH out AS (
                DELETE FROM rp_listing_rows
                WHERE range_id = ANY(ARRAY(SELECT id FROM rp_listing_ranges)) AND article = ANY($1::text[]))
            INSERT INTO rp_articles_gone (article, changed)
            SELECT article, nextval('rp_changes') FROM unnest($1::text[]) AS u (article)
            ON CONFLICT (article) DO UPDATE SET changed = excluded.changed
            """, [.textArray(articles)])
    }

    /// Refreshes every counted range (not marking it used), then prunes: the hourly upkeep, so
    /// that a deleted article's id leaves `rp_articles_gone` within the hour.
    static func refreshAll(on connection: PGConnection) throws(StoreError) {
        let ranges = try connection.execute(
            "SELECT id, day_from, day_to, threshold FROM rp_listing_ranges WHERE refreshed IS NOT NULL ORDER BY id"
        )
        for row in 0..<ranges.rowCount {
            var key = Key(ListingQuery(threshold: 0))
            key.from = try ranges.int64(row, 1)
            key.to = try ranges.int64(row, 2)
            key.threshold = try ranges.double(row, 3)
            try refresh(try ranges.int64(row, 0), key, usedMs: nil, on: connection)
        }
        try prune(on: connection)
    }
}
