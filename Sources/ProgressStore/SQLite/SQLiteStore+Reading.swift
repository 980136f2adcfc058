extension SQLiteStore {
    /// See ``ProgressStore/readers(of:in:)``. Folds each reader's days in SQL: maximum of the
    /// depths, whether any day was scrollable, sums of events and engaged time, first and last.
    public func readers(of article: String, in days: DayRange) throws(StoreError) -> [ReaderSummary]? {
        try read { connection throws(StoreError) -> [ReaderSummary]? in
            // One read transaction, so the lookup and the fold see the same snapshot.
            try connection.execute("BEGIN")
            defer { try? connection.execute("COMMIT") }

            let lookup = try connection.cached("SELECT id FROM articles WHERE name = ?1")
            defer { lookup.reset() }
            try lookup.bind(1, article)
            guard try lookup.step() else { return nil }
            let id = lookup.int64(0)

            let fold = try connection.cached(
                """
                SELECT reader, max(max_progress), max(max_seen), max(scrollable), sum(events),
                    sum(engaged_ms), min(first_ms), max(last_ms)
                FROM reader_days
                WHERE article = ?1 AND day BETWEEN ?2 AND ?3
                GROUP BY reader
                ORDER BY reader
                """)
            defer { fold.reset() }
            try fold.bind(1, id)
            try days.bind(to: fold, from: 2, to: 3)
            var readers: [ReaderSummary] = []
            while try fold.step() {
                readers.append(
                    ReaderSummary(
                        reader: fold.string(0), maxProgress: fold.double(1), maxSeenDepth: fold.double(2),
                        scrollable: fold.int64(3) != 0, events: fold.int64(4), engagedMs: fold.int64(5),
                        firstMs: fold.int64(6), lastMs: fold.int64(7)))
            }
            return readers
        }
    }

    /// See ``ProgressStore/listing(in:threshold:)``. Computed in SQL: readers folded over the
    /// range first, then per article; every article appears, ordered by name.
    public func listing(in days: DayRange, threshold: Double) throws(StoreError) -> [ArticleListing] {
        try read { connection throws(StoreError) -> [ArticleListing] in
            let query = try connection.cached(
                """
                WITH per_reader AS (
                    SELECT article, max(max_progress) AS depth, max(scrollable) AS scrollable,
                        sum(events) AS events, max(last_ms) AS last_ms
                    FROM reader_days
                    WHERE day BETWEEN ?1 AND ?2
                    GROUP BY article, reader
                ), per_article AS (
                    SELECT article, count(*) AS readers, sum(events) AS events,
                        sum(scrollable) AS counted,
                        sum(scrollable AND depth >= ?3) AS completed,
                        total(CASE WHEN scrollable THEN depth END) AS depth_sum,
                        max(last_ms) AS last_ms
                    FROM per_reader
                    GROUP BY article
                )
                SELECT a.name, coalesce(p.readers, 0), coalesce(p.events, 0), coalesce(p.counted, 0),
                    coalesce(p.completed, 0), coalesce(p.depth_sum, 0), p.last_ms
                FROM articles AS a LEFT JOIN per_article AS p ON p.article = a.id
                ORDER BY a.name
                """)
            defer { query.reset() }
            try days.bind(to: query, from: 1, to: 2)
            try query.bind(3, threshold)
            var rows: [ArticleListing] = []
            while try query.step() {
                let counted = query.int64(3)
                let rate = counted > 0 ? Double(query.int64(4)) / Double(counted) : 0
                let meanDepth = counted > 0 ? query.double(5) / Double(counted) : 0
                rows.append(
                    ArticleListing(
                        article: query.string(0), readers: Int(query.int64(1)), events: query.int64(2),
                        completionRate: rate, meanDepth: meanDepth,
                        lastEventMs: query.isNull(6) ? nil : query.int64(6)))
            }
            return rows
        }
    }
}

extension DayRange {
    /// Binds the range as two inclusive bounds; an open end becomes the widest day there is.
    func bind(to statement: SQLiteStatement, from: Int32, to: Int32) throws(StoreError) {
        try statement.bind(from, Int64(self.from ?? Int32.min))
        try statement.bind(to, Int64(self.to ?? Int32.max))
    }
}
