import ProgressStore

/// The listing's lines kept in PostgreSQL, so that a page is an index range scan in its order
/// rather than a pass over every article (docs/architecture.md, "The listing").
///
/// `rp_listing_ranges` names each kept (range, threshold) — all time being the widest range —
/// with the change it is `refreshed` up to; `rp_listing_rows` holds its line of every article
/// as ``ListingTally`` counts it, indexed in each ``ListingOrder``. Whoever writes
/// `rp_articles` holds `rp_fold`'s row and stamps the articles it writes with the next value of
/// `rp_changes` (``Folding/save(_:on:)``), and those it deletes in `rp_articles_gone`
/// (``forget(_:on:)``): with writers taking turns, the largest stamp a snapshot sees covers
/// every change before it. A listing recounts the articles stamped after its range's mark, in
/// one statement (one snapshot) that also moves the mark, holding the range's row so that two
/// nodes refresh a range in turn. A range listed for the first time takes the place of the
/// least recently listed one of as many days that overlaps it (yesterday's "last 7 days"),
/// recounting only the articles with a day where the two differ, or else is counted whole,
/// once. At most ``keptRanges`` are kept: adding one drops the least recently listed.
enum ListingRanges {
    /// Ranges kept at most: ``CounterPolicy/keptListingRanges`` and all time, which is kept
    /// as a range like the others.
    static let keptRanges = CounterPolicy.keptListingRanges + 1

    /// How often a range's last use is written, in ms: the order of dropping needs no more.
    static let useResolutionMs: Int64 = 60_000

    /// The largest stamp the snapshot sees: every change up to it is visible.
    static let mark = """
        greatest(coalesce((SELECT max(changed) FROM rp_articles), 0),
            coalesce((SELECT max(changed) FROM rp_articles_gone), 0))
        """

    /// A kept range's key: its first and last day (the widest for an open end) and threshold.
    struct Key {
        var from: Int64
        var to: Int64
        var threshold: Double

        init(_ query: ListingQuery) {
            from = Int64(query.days.from ?? Int32.min)
            to = Int64(query.days.to ?? Int32.max)
            threshold = query.threshold
        }

        var values: [PGValue] { [.int(from), .int(to), .double(threshold)] }
    }

    /// The page `query` asks for, from its range's lines brought up to date first.
    static func page(_ query: ListingQuery, nowMs: Int64, on connection: PGConnection) throws(StoreError)
        -> ListingPage
    {
        let key = Key(query)
        for _ in 0..<4 {
            let range = try refreshedRange(key, nowMs: nowMs, on: connection)
            if let rows = try read(query, range: range, key: key, on: connection) {
                return try page(of: rows, query)
            }
        }
        throw StoreError.postgres(
            sqlState: "40001", "the listing's range was moved or dropped four times while being read")
    }

    /// The page's rows out of range `range`, holding its row so that no node moves or drops it
    /// meanwhile; `nil` when one did since it was refreshed.
    private static func read(_ query: ListingQuery, range: Int64, key: Key, on connection: PGConnection)
        throws(StoreError) -> PGResult?
    {
        var parameters: [PGValue] = [.int(range), .int(Int64(query.limit) + 1), .int(Int64(query.offset))]
        // Ids with the prefix sort from the prefix on, which the index by id starts at.
        let under = query.prefix.map { (prefix) -> String in
            parameters.append(.text(prefix))
            return " AND article >= $4 AND starts_with(article, $4)"
        }
        return try connection.transaction { () throws(StoreError) -> PGResult? in
            let held = try connection.execute(
                """
                SELECT 1 FROM rp_listing_ranges WHERE id = $1 AND day_from = $2 AND day_to = $3
                    AND threshold = $4 AND moved_from IS NULL
                FOR KEY SHARE
                """, [.int(range)] + key.values)
            guard held.rowCount == 1 else { return nil }
            // The order's index, whatever the statistics say of a range just counted: a sort
            // would cost every article of the range.
            try connection.executeScript("SET LOCAL enable_sort = off")
            return try connection.execute(
                """
                SELECT article, readers, events, counted, completed, progress_units::text, last_ms
                FROM rp_listing_rows WHERE range_id = $1\(under ?? "")
                ORDER BY \(orderBy(query.order)) LIMIT $2 OFFSET $3
                """, parameters)
        }
    }

    /// The lines of `rows` (up to one more than `query.limit`).
    private static func page(of rows: PGResult, _ query: ListingQuery) throws(StoreError) -> ListingPage {
        var lines: [ArticleListing] = []
        for row in 0..<min(rows.rowCount, query.limit) {
            guard let units = Int128(rows.string(row, 5)) else {
                throw StoreError.corrupt("rp_listing_rows holds a sum of progress that is not an integer")
            }
            let tally = ListingTally(
                readers: Int(try rows.int64(row, 1)), events: try rows.int64(row, 2),
                counted: Int(try rows.int64(row, 3)), completed: Int(try rows.int64(row, 4)),
                progressSum: DepthSum(units: units),
                lastMs: rows.isNull(row, 6) ? nil : try rows.int64(row, 6))
            lines.append(tally.row(article: rows.string(row, 0)))
        }
        return ListingPage(rows: lines, hasMore: rows.rowCount > query.limit)
    }

    /// ``ListingOrder``'s orders over `rp_listing_rows`, each an index's (ids in byte order: the
    /// column is `COLLATE "C"`; `rate` is computed as Swift computes the completion rate).
    private static func orderBy(_ order: ListingOrder) -> String {
        switch order {
        case .readers: "readers DESC, article"
        case .completion: "rate DESC, article"
        case .recent: "last_ms DESC NULLS LAST, article"
        case .article: "article"
        }
    }

    /// The id of `key`'s range, added when missing and refreshed when a change came after it.
    private static func refreshedRange(_ key: Key, nowMs: Int64, on connection: PGConnection)
        throws(StoreError) -> Int64
    {
        // Another node may drop the range between the look and the refresh: look again.
        for _ in 0..<4 {
            let found = try connection.execute(
                """
                SELECT id, refreshed, used_ms, \(mark), moved_from IS NULL FROM rp_listing_ranges
                WHERE day_from = $1 AND day_to = $2 AND threshold = $3
                """, key.values)
            guard found.rowCount == 1 else {
                do {
                    try add(key, nowMs: nowMs, on: connection)
                } catch  where error.cause == .postgres("23505") {
                    // Another node moved a range to this one first: it is there now.
                }
                continue
            }
            let id = try found.int64(0, 0)
            if !found.isNull(0, 1), try found.int64(0, 1) >= found.int64(0, 3), try found.bool(0, 4) {
                if nowMs - (try found.int64(0, 2)) >= useResolutionMs {
                    try connection.execute(
                        "UPDATE rp_listing_ranges SET used_ms = greatest(used_ms, $2) WHERE id = $1",
                        [.int(id), .int(nowMs)])
                }
                return id
            }
            if try refresh(id, key, usedMs: nowMs, on: connection) { return id }
        }
        // As a serialization failure is: another attempt is likely to go through.
        throw StoreError.postgres(
            sqlState: "40001", "the listing's range was dropped four times while being read")
    }

    /// Adds `key`'s range: moves there the least recently listed counted range of as many days
    /// at the same threshold that overlaps it (yesterday's "last 7 days" becomes today's), to be
    /// recounted only where the two differ; else adds it not counted yet, dropping the least recently listed
    /// past ``keptRanges`` (those another connection holds stay, for now).
    private static func add(_ key: Key, nowMs: Int64, on connection: PGConnection) throws(StoreError) {
        try connection.transaction { () throws(StoreError) in
            if key.from != Int64(Int32.min), key.to != Int64(Int32.max) {
                let moved = try connection.execute(
                    """
                    WITH old AS (
                        SELECT id FROM rp_listing_ranges
                        WHERE threshold = $3 AND day_from::int8 > -2147483648 AND day_to::int8 < 2147483647
                            AND day_to::int8 - day_from::int8 = $2::int8 - $1::int8
                            AND abs(day_from::int8 - $1::int8) <= day_to::int8 - day_from::int8
                            AND refreshed IS NOT NULL AND moved_from IS NULL
                        ORDER BY used_ms, id LIMIT 1 FOR UPDATE SKIP LOCKED)
                    UPDATE rp_listing_ranges AS r SET moved_from = r.day_from, moved_to = r.day_to,
                        day_from = $1::int8, day_to = $2::int8, used_ms = $4
                    FROM old WHERE r.id = old.id RETURNING r.id
                    """, key.values + [.int(nowMs)])
                if moved.rowCount == 1 { return }
            }
            try connection.execute(
                """
                INSERT INTO rp_listing_ranges (day_from, day_to, threshold, refreshed, used_ms)
                VALUES ($1, $2, $3, NULL, $4) ON CONFLICT (day_from, day_to, threshold) DO NOTHING
                """, key.values + [.int(nowMs)])
            try connection.execute(
                """
                WITH dropped AS (
                    DELETE FROM rp_listing_ranges WHERE id IN (
                        SELECT id FROM rp_listing_ranges ORDER BY used_ms DESC, id DESC OFFSET $1
                        FOR UPDATE SKIP LOCKED)
                    RETURNING id)
                DELETE FROM rp_listing_rows WHERE range_id IN (SELECT id FROM dropped)
                """, [.int(Int64(keptRanges))])
        }
    }

    /// Brings range `id` (of `key`) up to the latest change, holding its row; false when it was
    /// dropped or moved. `usedMs` (when given) is written as its last use.
    @discardableResult
    static func refresh(_ id: Int64, _ key: Key, usedMs: Int64?, on connection: PGConnection)
        throws(StoreError) -> Bool
    {
        try connection.transaction { () throws(StoreError) -> Bool in
            let held = try connection.execute(
                """
                SELECT refreshed, moved_from, moved_to FROM rp_listing_ranges
                WHERE id = $1 AND day_from = $2 AND day_to = $3 AND threshold = $4 FOR UPDATE
                """, [.int(id)] + key.values)
            // Gone, or moved to other days by another node since it was looked up.
            guard held.rowCount == 1 else { return false }
            let since = held.isNull(0, 0) ? -1 : try held.int64(0, 0)
            var parameters: [PGValue] = [
                .int(id), .int(key.from), .int(key.to), .double(key.threshold), .int(DepthSum.unitsPerDepth),
                .int(since), usedMs.map { .int($0) } ?? .null,
                DepthHistogram.edge(of: key.threshold).map { .int(Int64($0)) } ?? .null,
            ]
            if since >= 0 {
                // The days a moved range gained or lost: the articles with a day there change.
                var differ: [Int64] = [1, 0, 1, 0]
                if !held.isNull(0, 1) {
                    let (from, to) = (try held.int64(0, 1), try held.int64(0, 2))
                    differ = [
                        min(from, key.from), max(from, key.from) - 1, min(to, key.to) + 1, max(to, key.to),
                    ]
                }
                parameters += differ.map { .int($0) }
            }
            // Planned for this mark: a plan for any mark would scan every article.
            try connection.executeScript("SET LOCAL plan_cache_mode = force_custom_plan")
            try connection.execute(recount(whole: since < 0), parameters)
            try prune(on: connection)
            return true
        }
    }
}
