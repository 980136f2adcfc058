import ProgressStore

/// Folding the log into the tables: `rp_log`'s rows, oldest first, into `rp_reader_days` and
/// `rp_articles`, then out of the log — in one transaction that holds `rp_fold`'s row, so that
/// folds, erasures and retention happen one at a time, in order, whichever node runs them.
enum Folding {
    /// What one (article, reader, day) gets from a batch.
    struct DayFold {
        var maxProgress: Double
        var maxSeen: Double
        var scrollable: Bool
        var events: Int64
        var engagedMs: Int64
        var firstMs: Int64
        var lastMs: Int64

        init(_ event: EventRecord) {
            maxProgress = event.progress
            maxSeen = event.seenDepth
            scrollable = event.scrollable
            events = 1
            engagedMs = event.engagedMs
            firstMs = event.timeMs
            lastMs = event.timeMs
        }

        mutating func fold(_ event: EventRecord) {
            maxProgress = max(maxProgress, event.progress)
            maxSeen = max(maxSeen, event.seenDepth)
            scrollable = scrollable || event.scrollable
            events += 1
            engagedMs += event.engagedMs
            firstMs = min(firstMs, event.timeMs)
            lastMs = max(lastMs, event.timeMs)
        }

        var pair: PairFigures {
            PairFigures(maxProgress: maxProgress, maxSeen: maxSeen, scrollable: scrollable)
        }
    }

    struct DayKey: Hashable {
        var article: String
        var reader: String
        var day: Int32
    }

    struct PairKey: Hashable {
        var article: String
        var reader: String
    }

    /// Takes `rp_fold`'s row: waits for it (`wait`), or returns false at once when another
    /// transaction holds it. Callers are in a transaction.
    static func lock(_ connection: PGConnection, wait: Bool) throws(StoreError) -> Bool {
        let rows = try connection.execute(
            "SELECT id FROM rp_fold WHERE id = 1 FOR UPDATE" + (wait ? "" : " SKIP LOCKED"))
        return rows.rowCount == 1
    }

    /// Folds up to `maxRows` of the log's rows; returns how many. Callers hold `rp_fold`'s row.
    @discardableResult
    static func foldPending(_ connection: PGConnection, maxRows: Int = 200) throws(StoreError) -> Int {
        let rows = try connection.execute(
            "SELECT seq, payload FROM rp_log ORDER BY seq LIMIT $1", [.int(Int64(maxRows))],
            binaryResult: true)
        guard rows.rowCount > 0 else { return 0 }
        var days: [DayKey: DayFold] = [:]
        var seqs: [Int64] = []
        for row in 0..<rows.rowCount {
            seqs.append(try rows.int64(row, 0))
            for event in try EventLogCodec.decode(rows.bytes(row, 1)) {
                let key = DayKey(article: event.article, reader: event.reader, day: event.day)
                if days[key] == nil { days[key] = DayFold(event) } else { days[key]!.fold(event) }
            }
        }
        try apply(days, on: connection)
        try connection.execute("DELETE FROM rp_log WHERE seq = ANY($1::int8[])", [.numberArray(seqs)])
        return rows.rowCount
    }

    /// Folds everything the log holds now, in batches. Callers hold `rp_fold`'s row.
    static func foldAll(_ connection: PGConnection) throws(StoreError) {
        while try foldPending(connection) > 0 {}
    }

    /// Adds `days` to the tables: the readers' day rows, and each article's counters moved by
    /// how each reader's all-time figures change.
    static func apply(_ days: [DayKey: DayFold], on connection: PGConnection) throws(StoreError) {
        var pairs: [PairKey: PairFigures] = [:]
        for (key, fold) in days {
            let pair = PairKey(article: key.article, reader: key.reader)
            pairs[pair] = pairs[pair].map { $0.folded(fold.pair) } ?? fold.pair
        }
        let before = try allTime(of: Array(pairs.keys), on: connection)
        var aggregates = try aggregates(of: Set(pairs.keys.map(\.article)), on: connection)
        for (pair, batch) in pairs {
            let prior = before[pair]
            aggregates[pair.article, default: ArticleAggregate()].move(
                from: prior, to: prior.map { $0.folded(batch) } ?? batch)
        }
        for (key, fold) in days {
            aggregates[key.article]!.events += fold.events
            aggregates[key.article]!.engagedMs += fold.engagedMs
            aggregates[key.article]!.firstMs = min(aggregates[key.article]!.firstMs, fold.firstMs)
            aggregates[key.article]!.lastMs = max(aggregates[key.article]!.lastMs, fold.lastMs)
        }
        let entries = Array(days)
        try connection.execute(
            """
            INSERT INTO rp_reader_days AS d (article, reader, day, max_progress, max_seen, scrollable, events,
                engaged_ms, first_ms, last_ms)
            SELECT * FROM unnest($1::text[], $2::text[], $3::int4[], $4::float8[], $5::float8[], $6::bool[],
                $7::int8[], $8::int8[], $9::int8[], $10::int8[])
            ON CONFLICT (article, reader, day) DO UPDATE SET
                max_progress = greatest(d.max_progress, excluded.max_progress),
                max_seen = greatest(d.max_seen, excluded.max_seen),
                scrollable = d.scrollable OR excluded.scrollable,
                events = d.events + excluded.events,
                engaged_ms = d.engaged_ms + excluded.engaged_ms,
                first_ms = least(d.first_ms, excluded.first_ms),
                last_ms = greatest(d.last_ms, excluded.last_ms)
            """,
            [
                .textArray(entries.map(\.key.article)), .textArray(entries.map(\.key.reader)),
                .numberArray(entries.map(\.key.day)), .doubleArray(entries.map(\.value.maxProgress)),
                .doubleArray(entries.map(\.value.maxSeen)), .boolArray(entries.map(\.value.scrollable)),
                .numberArray(entries.map(\.value.events)), .numberArray(entries.map(\.value.engagedMs)),
                .numberArray(entries.map(\.value.firstMs)), .numberArray(entries.map(\.value.lastMs)),
            ])
        try save(aggregates, on: connection)
    }

    /// Each pair's all-time figures over the days the table holds (pairs it has not yet are
    /// missing).
    static func allTime(of pairs: [PairKey], on connection: PGConnection) throws(StoreError) -> [PairKey:
        PairFigures]
    {
        guard !pairs.isEmpty else { return [:] }
        let rows = try connection.execute(
            """
            SELECT d.article, d.reader, max(d.max_progress), max(d.max_seen), bool_or(d.scrollable)
            FROM unnest($1::text[], $2::text[]) AS p (article, reader)
            JOIN rp_reader_days AS d ON d.article = p.article AND d.reader = p.reader
            GROUP BY d.article, d.reader
            """, [.textArray(pairs.map(\.article)), .textArray(pairs.map(\.reader))])
        var figures: [PairKey: PairFigures] = [:]
        for row in 0..<rows.rowCount {
            figures[PairKey(article: rows.string(row, 0), reader: rows.string(row, 1))] = PairFigures(
                maxProgress: try rows.double(row, 2), maxSeen: try rows.double(row, 3),
                scrollable: try rows.bool(row, 4))
        }
        return figures
    }

    /// The counters of `articles` that have them, locked until the transaction ends.
    static func aggregates(of articles: Set<String>, on connection: PGConnection) throws(StoreError)
        -> [String: ArticleAggregate]
    {
        guard !articles.isEmpty else { return [:] }
        let rows = try connection.execute(
            "SELECT article, \(ArticleAggregate.columns) FROM rp_articles WHERE article = ANY($1::text[]) "
                + "ORDER BY article FOR UPDATE", [.textArray(articles)])
        var found: [String: ArticleAggregate] = [:]
        for row in 0..<rows.rowCount {
            found[rows.string(row, 0)] = try ArticleAggregate(rows, row: row, from: 1)
        }
        return found
    }

    /// Writes `aggregates` back; an article left without readers is deleted.
    static func save(_ aggregates: [String: ArticleAggregate], on connection: PGConnection) throws(StoreError)
    {
        let kept = aggregates.filter { $0.value.readers > 0 }
        let emptied = aggregates.keys.filter { aggregates[$0]!.readers <= 0 }
        if !emptied.isEmpty {
            try connection.execute(
                "DELETE FROM rp_articles WHERE article = ANY($1::text[])", [.textArray(emptied)])
        }
        guard !kept.isEmpty else { return }
        let entries = Array(kept)
        try connection.execute(
            """
            INSERT INTO rp_articles AS a (article, \(ArticleAggregate.columns))
            SELECT article, readers, unscrollable, events, engaged_ms, first_ms, last_ms, progress_units::numeric,
                seen_units::numeric, progress_bins, seen_bins
            FROM unnest($1::text[], $2::int8[], $3::int8[], $4::int8[], $5::int8[], $6::int8[], $7::int8[],
                $8::text[], $9::text[], $10::bytea[], $11::bytea[])
                AS u (article, readers, unscrollable, events, engaged_ms, first_ms, last_ms, progress_units,
                    seen_units, progress_bins, seen_bins)
            ON CONFLICT (article) DO UPDATE SET readers = excluded.readers, unscrollable = excluded.unscrollable,
                events = excluded.events, engaged_ms = excluded.engaged_ms, first_ms = excluded.first_ms,
                last_ms = excluded.last_ms, progress_units = excluded.progress_units,
                seen_units = excluded.seen_units, progress_bins = excluded.progress_bins,
                seen_bins = excluded.seen_bins
            """,
            [
                .textArray(entries.map(\.key)), .numberArray(entries.map { Int64($0.value.readers) }),
                .numberArray(entries.map { Int64($0.value.unscrollable) }),
                .numberArray(entries.map(\.value.events)),
                .numberArray(entries.map(\.value.engagedMs)), .numberArray(entries.map(\.value.firstMs)),
                .numberArray(entries.map(\.value.lastMs)),
                .textArray(entries.map { String($0.value.progressSum.totalUnits) }),
                .textArray(entries.map { String($0.value.seenSum.totalUnits) }),
                .bytesArray(entries.map { ArticleAggregate.bins($0.value.progress) }),
                .bytesArray(entries.map { ArticleAggregate.bins($0.value.seen) }),
            ])
    }
}

extension Folding {
    /// An event id with its pair, as `rp_ids` keys it.
    struct IDKey: Hashable, Comparable {
        var article: String
        var reader: String
        var id: String

        static func < (a: IDKey, b: IDKey) -> Bool {
            if a.article != b.article { return bytesPrecede(a.article, b.article) }
            if a.reader != b.reader { return bytesPrecede(a.reader, b.reader) }
            return bytesPrecede(a.id, b.id)
        }
    }
}
