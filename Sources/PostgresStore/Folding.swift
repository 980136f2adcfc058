import ProgressStore

/// Folding the log into the tables: `rp_log`'s rows, oldest first, into `rp_reader_days`,
/// `rp_articles`, `rp_article_segments`, `rp_article_days`, `rp_sources`, `rp_sections` and
/// `rp_attention`, then out of the log — in one transaction that holds `rp_fold`'s row, so that
/// folds, erasures and retention happen one at a time, in order, whichever node runs them.
enum Folding {
    /// A reader-day. Its ids compare by their bytes, as every key of the fold does (docs/api.md, "Fields"):
    /// `String`'s `==` would take two canonically equivalent ids for one.
    struct DayKey: Hashable {
        var article: String
        var reader: String
        var day: Int32

        static func == (a: DayKey, b: DayKey) -> Bool {
            a.day == b.day && bytesEqual(a.article, b.article) && bytesEqual(a.reader, b.reader)
        }

        func hash(into hasher: inout Hasher) {
            hasher.combine(bytesOf: article)
            hasher.combine(bytesOf: reader)
            hasher.combine(day)
        }
    }

    /// An article and a reader, by their bytes.
    struct PairKey: Hashable {
        var article: String
        var reader: String

        static func == (a: PairKey, b: PairKey) -> Bool {
            bytesEqual(a.article, b.article) && bytesEqual(a.reader, b.reader)
        }

        func hash(into hasher: inout Hasher) {
            hasher.combine(bytesOf: article)
            hasher.combine(bytesOf: reader)
        }
    }

    /// What a fold batch holds of one reader-day: its figures and its segment.
    struct DayFold {
        var figures: ReaderFigures
        var segment: DaySegment
    }

    /// Takes `rp_fold`'s row: waits for it (`wait`), or returns false at once when another
    /// transaction holds it. Callers are in a transaction.
    static func lock(_ connection: PGConnection, wait: Bool) throws(StoreError) -> Bool {
        let rows = try connection.execute(
            "SELECT id FROM rp_fold WHERE id = 1 FOR UPDATE" + (wait ? "" : " SKIP LOCKED"))
        return rows.rowCount == 1
    }

    /// Folds up to `maxRows` of the log's rows; returns how many. Callers hold `rp_fold`'s row.
    /// An article past `dayCountersFrom` readers gets counters by day (``DayCounting``).
    @discardableResult
    static func foldPending(_ connection: PGConnection, maxRows: Int = 200, dayCountersFrom: Int)
        throws(StoreError) -> Int
    {
        let rows = try connection.execute(
            "SELECT seq, payload FROM rp_log ORDER BY seq LIMIT $1", [.int(Int64(maxRows))],
            binaryResult: true)
        guard rows.rowCount > 0 else { return 0 }
        var days: [DayKey: DayFold] = [:]
        var parts = Parts()
        var sources = SourceNames()
        var seqs: [Int64] = []
        for row in 0..<rows.rowCount {
            seqs.append(try rows.int64(row, 0))
            for event in try EventLogCodec.decode(rows.bytes(row, 1)) {
                parts.add(event)
                sources.add(event.source)
                let key = DayKey(article: event.article, reader: event.reader, day: event.day)
                if days[key] == nil {
                    days[key] = DayFold(figures: ReaderFigures(event), segment: DaySegment(event))
                } else {
                    days[key]?.figures.fold(ReaderFigures(event))
                    days[key]?.segment.fold(event)
                }
            }
        }
        try apply(days, sources: sources, dayCountersFrom: dayCountersFrom, on: connection)
        try apply(parts, on: connection)
        try connection.execute("DELETE FROM rp_log WHERE seq = ANY($1::int8[])", [.numberArray(seqs)])
        return rows.rowCount
    }

    /// Folds everything the log holds now, in batches. Callers hold `rp_fold`'s row.
    static func foldAll(_ connection: PGConnection, dayCountersFrom: Int) throws(StoreError) {
        while try foldPending(connection, dayCountersFrom: dayCountersFrom) > 0 {}
    }

    /// Adds `days` to the tables: the readers' day rows with their segments, and each article's
    /// counters (and its segments' and days' counters, where kept) moved by how each reader's
    /// all-time figures and each day row change. `sources` are the batch's named sources in
    /// order of arrival.
    static func apply(
        _ days: [DayKey: DayFold], sources: SourceNames, dayCountersFrom: Int, on connection: PGConnection
    ) throws(StoreError) {
        var pairs: [PairKey: ReaderFigures] = [:]
        for (key, fold) in days {
            let pair = PairKey(article: key.article, reader: key.reader)
            pairs[pair] = pairs[pair].map { $0.folded(fold.figures) } ?? fold.figures
        }
        let before = try allTimeBySegment(of: Array(pairs.keys), on: connection)
        let articles = Set(pairs.keys.map { ExactKey($0.article) })
        var aggregates = try aggregates(of: articles, on: connection)
        for (pair, batch) in pairs {
            let prior = before[pair].map(Segmenting.total)
            try aggregates[ExactKey(pair.article), default: ArticleCounters(keepsHistograms: true)].move(
                from: prior, to: prior.map { $0.folded(batch) } ?? batch, of: pair.article, in: "rp_articles")
        }
        let kept = try Segmenting.keepingSegments(of: articles, on: connection)
        let keptDays = try DayCounting.keeping(of: articles, on: connection)
        let ids = try Segmenting.sourceIDs(for: sources, on: connection)
        let entries = Array(days)
        let segments = entries.map(\.value.segment)
        let changes = try connection.execute(
            """
            WITH u AS (
                SELECT * FROM unnest($1::text[], $2::text[], $3::int4[], $4::float8[], $5::float8[], $6::bool[],
                    $7::int8[], $8::int8[], $9::int8[], $10::int8[], $11::int2[], $12::int8[], $13::int2[],
                    $14::int8[], $15::int4[], $16::int8[])
                    AS u (article, reader, day, max_progress, max_seen, scrollable, events, engaged_ms, first_ms,
                        last_ms, device, device_ms, width_device, width_ms, source, source_ms)),
            old AS (
                SELECT d.article, d.reader, d.day, \(Segmenting.device("d")) AS device,
                    \(Segmenting.source("d")) AS source, \(DayCounting.figures("d"))
                FROM rp_reader_days AS d JOIN u ON d.article = u.article AND d.reader = u.reader AND d.day = u.day
                WHERE d.article = ANY($17::text[])),
            up AS (
                INSERT INTO rp_reader_days AS d (article, reader, day, max_progress, max_seen, scrollable, events,
                    engaged_ms, first_ms, last_ms, device, device_ms, width_device, width_ms, source, source_ms)
                SELECT article, reader, day, max_progress, max_seen, scrollable, events, engaged_ms, first_ms,
                    last_ms, nullif(device, -1), device_ms, nullif(width_device, -1), width_ms, nullif(source, -1),
                    source_ms
                FROM u
                ON CONFLICT (article, reader, day) DO UPDATE SET
                    max_progress = greatest(d.max_progress, excluded.max_progress),
                    max_seen = greatest(d.max_seen, excluded.max_seen),
                    scrollable = d.scrollable OR excluded.scrollable,
                    events = d.events + excluded.events,
                    engaged_ms = d.engaged_ms + excluded.engaged_ms,
                    first_ms = least(d.first_ms, excluded.first_ms),
                    last_ms = greatest(d.last_ms, excluded.last_ms),
                    \(Segmenting.earlier("device")), \(Segmenting.earlier("width_device", time: "width_ms")),
                    \(Segmenting.earlier("source"))
                RETURNING d.article, d.reader, d.day, \(Segmenting.device("d")) AS device,
                    \(Segmenting.source("d")) AS source)
            SELECT up.article, up.reader, up.day, old.device, old.source, up.device, up.source,
                \(DayCounting.figures("old"))
            FROM up LEFT JOIN old ON old.article = up.article AND old.reader = up.reader AND old.day = up.day
            WHERE up.article = ANY($17::text[])
            """,
            [
                .textArray(entries.map(\.key.article)), .textArray(entries.map(\.key.reader)),
                .numberArray(entries.map(\.key.day)), .doubleArray(entries.map(\.value.figures.maxProgress)),
                .doubleArray(entries.map(\.value.figures.maxSeenDepth)),
                .boolArray(entries.map(\.value.figures.scrollable)),
                .numberArray(entries.map(\.value.figures.events)),
                .numberArray(entries.map(\.value.figures.engagedMs)),
                .numberArray(entries.map(\.value.figures.firstMs)),
                .numberArray(entries.map(\.value.figures.lastMs)),
                .numberArray(segments.map { Segmenting.code($0.device) }),
                .numberArray(segments.map(\.deviceMs)),
                .numberArray(segments.map { Segmenting.code($0.widthDevice) }),
                .numberArray(segments.map(\.widthMs)),
                .numberArray(
                    segments.map { $0.source.map { ids[ExactKey($0)] ?? Segmenting.otherID } ?? -1 }),
                .numberArray(segments.map(\.sourceMs)), .textArray(kept.union(keptDays).map(\.string)),
            ])
        try save(aggregates, on: connection)
        try Segmenting.moveCounters(of: kept, days: days, changes: changes, before: before, on: connection)
        try DayCounting.move(of: keptDays, days: days, changes: changes, before: 7, on: connection)
        let due = aggregates.filter { $0.value.readers > CounterPolicy.postgres.segmentCountersFrom }.keys
            .filter { !kept.contains($0) }
        try Segmenting.countSegments(of: Set(due), on: connection)
        let dueDays = aggregates.filter { $0.value.readers > dayCountersFrom }.keys.filter {
            !keptDays.contains($0)
        }
        try DayCounting.count(Set(dueDays), on: connection)
    }
}

extension Folding {
    /// `rp_reader_days` answered a row of `article` that the statement did not name: the ids
    /// did not come back as they were sent (a database whose encoding changes them).
    static func unasked(_ article: String) -> StoreError {
        StoreError.corrupt(
            "rp_reader_days answered a row of article \"\(StoreError.spelled(article))\", which was not asked for"
        )
    }

    /// An event id with its pair, as `rp_ids` keys it: by bytes, in their order (`COLLATE "C"`).
    struct IDKey: Hashable, Comparable {
        var article: String
        var reader: String
        var id: String

        static func == (a: IDKey, b: IDKey) -> Bool {
            bytesEqual(a.article, b.article) && bytesEqual(a.reader, b.reader) && bytesEqual(a.id, b.id)
        }

        func hash(into hasher: inout Hasher) {
            hasher.combine(bytesOf: article)
            hasher.combine(bytesOf: reader)
            hasher.combine(bytesOf: id)
        }

        static func < (a: IDKey, b: IDKey) -> Bool {
            if !bytesEqual(a.article, b.article) { return bytesPrecede(a.article, b.article) }
            if !bytesEqual(a.reader, b.reader) { return bytesPrecede(a.reader, b.reader) }
            return bytesPrecede(a.id, b.id)
        }
    }
}
