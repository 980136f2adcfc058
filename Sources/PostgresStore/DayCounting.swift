import ProgressStore

/// The counters of a large article for each UTC day it has rows on, over that day's rows, in
/// `rp_article_days`, so that a range of one day answers as all time does, in one row whatever
/// the number of readers. Within a day a reader has one row, so a day's counters count distinct
/// readers exactly, and a row only grows as events fold in: the counters move it from what it
/// held to what it holds, as `rp_articles` moves a reader. An article gets them once it has more
/// than ``PostgresStore/Options/dayCountersFrom`` readers; folding, erasure and retention keep
/// them up to date from then on (a day's histograms sparse, as `rp_article_segments` keeps them).
enum DayCounting {
    /// An article, by its bytes (docs/api.md, "Fields"), and a day.
    struct Key: Hashable {
        var article: String
        var day: Int32

        static func == (a: Key, b: Key) -> Bool {
            a.day == b.day && bytesEqual(a.article, b.article)
        }

        func hash(into hasher: inout Hasher) {
            hasher.combine(bytesOf: article)
            hasher.combine(day)
        }
    }

    /// A day row's own figures (not folded: one row a reader and day), in the order
    /// ``ReaderFigures/init(_:row:from:)`` reads them.
    static func figures(_ table: String) -> String {
        ["max_progress", "max_seen", "scrollable", "events", "engaged_ms", "first_ms", "last_ms"]
            .map { "\(table).\($0)" }.joined(separator: ", ")
    }

    /// Those of `articles` that keep counters by day: an article that does has a row for each
    /// day it has readers on, so at least one.
    static func keeping(of articles: Set<ExactKey>, on connection: PGConnection) throws(StoreError)
        -> Set<ExactKey>
    {
        guard !articles.isEmpty else { return [] }
        let rows = try connection.execute(
            """
            SELECT u.article FROM unnest($1::text[]) AS u (article)
            WHERE EXISTS (SELECT 1 FROM rp_article_days AS a WHERE a.article = u.article)
            """, [.textArray(articles.map(\.string))])
        return Set((0..<rows.rowCount).map { ExactKey(rows.string($0, 0)) })
    }

    /// What the day counters say of `days` for `article`: no row in range, or rows on one day
    /// (with its counters, whose histograms answer, or whose readers are folded from the day's
    /// rows like any range's); `nil` when the article keeps none or the range holds several days.
    static func span(of article: String, in days: DayRange, on connection: PGConnection) throws(StoreError)
        -> AnswerCascade.DaySpan?
    {
        let rows = try connection.execute(
            """
            SELECT \(ArticleCounters.columns) FROM rp_article_days
            WHERE article = $1 AND day BETWEEN $2 AND $3 ORDER BY day LIMIT 2
            """,
            [.text(article), .int(Int64(days.from ?? Int32.min)), .int(Int64(days.to ?? Int32.max))])
        switch rows.rowCount {
        case 1: return .oneDay(try ArticleCounters(rows, row: 0, from: 0), records: nil)
        case 0: return try keeping(of: [ExactKey(article)], on: connection).isEmpty ? nil : .noDay
        default: return nil
        }
    }

    /// The counters `rp_article_days` holds of `keys`.
    static func counters(of keys: Set<Key>, on connection: PGConnection) throws(StoreError)
        -> [Key: ArticleCounters]
    {
        guard !keys.isEmpty else { return [:] }
        let list = Array(keys)
        let rows = try connection.execute(
            """
            SELECT a.article, a.day, \(ArticleCounters.columns.split(separator: ", ").map { "a." + $0 }.joined(separator: ", "))
            FROM unnest($1::text[], $2::int4[]) AS k (article, day)
            JOIN rp_article_days AS a ON a.article = k.article AND a.day = k.day
            """, [.textArray(list.map(\.article)), .numberArray(list.map(\.day))])
        var found: [Key: ArticleCounters] = [:]
        for row in 0..<rows.rowCount {
            let key = Key(article: rows.string(row, 0), day: Int32(try rows.int64(row, 1)))
            found[key] = try ArticleCounters(rows, row: row, from: 2)
        }
        return found
    }

    /// Moves the day counters of the `kept` articles by a fold of `days`: `changes` are the
    /// upsert's rows (article, reader and day in columns 0–2), with the row's figures before
    /// it from column `before` on (`NULL` for a new row).
    static func move(
        of kept: Set<ExactKey>, days: [Folding.DayKey: Folding.DayFold], changes: PGResult, before: Int,
        on connection: PGConnection
    ) throws(StoreError) {
        guard !kept.isEmpty else { return }
        var moves: [(Key, ReaderFigures?, ReaderFigures)] = []
        for row in 0..<changes.rowCount where kept.contains(ExactKey(changes.string(row, 0))) {
            let day = Folding.DayKey(
                article: changes.string(row, 0), reader: changes.string(row, 1),
                day: Int32(try changes.int64(row, 2)))
            guard let fold = days[day]?.figures else { throw Folding.unasked(day.article) }
            let held = changes.isNull(row, before) ? nil : try ReaderFigures(changes, row: row, from: before)
            moves.append(
                (Key(article: day.article, day: day.day), held, held.map { $0.folded(fold) } ?? fold))
        }
        var counters = try self.counters(of: Set(moves.map(\.0)), on: connection)
        for (key, held, now) in moves {
            try counters[key, default: ArticleCounters(keepsHistograms: true)].move(
                from: held, to: now, of: key.article, in: "rp_article_days")
        }
        try save(counters, on: connection)
    }

    /// Sets the day counters of `articles` from their rows (an article that grew past the
    /// bound), a few hundred days at a time.
    static func count(_ articles: Set<ExactKey>, on connection: PGConnection) throws(StoreError) {
        guard !articles.isEmpty else { return }
        let names = articles.map(\.string)
        try connection.execute(
            "DELETE FROM rp_article_days WHERE article = ANY($1::text[])", [.textArray(names)])
        let rows = try connection.execute(
            """
            SELECT d.article, d.day, \(figures("d")) FROM rp_reader_days AS d
            WHERE d.article = ANY($1::text[]) ORDER BY 1, 2
            """, [.textArray(names)])
        try ArticleCounters.count(rows, figuresFrom: 2) { (row) throws(StoreError) in
            Key(article: rows.string(row, 0), day: Int32(try rows.int64(row, 1)))
        } save: { (counters) throws(StoreError) in
            try save(counters, on: connection)
        }
    }

    /// The day counters of those of `articles` that keep them with `reader`'s rows taken out;
    /// their times are still to recount (``recountTimes(of:on:)``) once the rows are gone.
    static func left(by reader: String, of articles: Set<ExactKey>, on connection: PGConnection)
        throws(StoreError) -> [Key: ArticleCounters]
    {
        let kept = try keeping(of: articles, on: connection)
        guard !kept.isEmpty else { return [:] }
        let rows = try connection.execute(
            """
            SELECT d.article, d.day, \(figures("d")) FROM rp_reader_days AS d
            WHERE d.reader = $1 AND d.article = ANY($2::text[])
            """, [.text(reader), .textArray(kept.map(\.string))])
        var taken: [Key: ReaderFigures] = [:]
        for row in 0..<rows.rowCount {
            let key = Key(article: rows.string(row, 0), day: Int32(try rows.int64(row, 1)))
            taken[key] = try ReaderFigures(rows, row: row, from: 2)
        }
        var counters = try self.counters(of: Set(taken.keys), on: connection)
        for (key, figures) in taken {
            try counters[key].drop(figures, of: key.article, in: "rp_article_days")
        }
        return counters
    }

    /// Sets the first and last event times of `counters` from the rows of their day that stay.
    static func recountTimes(of counters: inout [Key: ArticleCounters], on connection: PGConnection)
        throws(StoreError)
    {
        let keys = counters.filter { $0.value.readers > 0 }.map(\.key)
        guard !keys.isEmpty else { return }
        let rows = try connection.execute(
            """
            SELECT k.article, k.day, min(d.first_ms), max(d.last_ms)
            FROM unnest($1::text[], $2::int4[]) AS k (article, day)
            JOIN rp_reader_days AS d ON d.article = k.article AND d.day = k.day
            GROUP BY k.article, k.day
            """, [.textArray(keys.map(\.article)), .numberArray(keys.map(\.day))])
        for row in 0..<rows.rowCount {
            let key = Key(article: rows.string(row, 0), day: Int32(try rows.int64(row, 1)))
            counters[key]?.firstMs = try rows.int64(row, 2)
            counters[key]?.lastMs = try rows.int64(row, 3)
        }
    }

    /// Writes `counters` back; a day left without readers is deleted.
    static func save(_ counters: [Key: ArticleCounters], on connection: PGConnection) throws(StoreError) {
        let emptied = counters.filter { $0.value.readers <= 0 }.map(\.key)
        if !emptied.isEmpty {
            try connection.execute(
                """
                DELETE FROM rp_article_days AS a USING unnest($1::text[], $2::int4[]) AS k (article, day)
                WHERE a.article = k.article AND a.day = k.day
                """, [.textArray(emptied.map(\.article)), .numberArray(emptied.map(\.day))])
        }
        let entries = counters.filter { $0.value.readers > 0 }.map { ($0.key, $0.value) }
        try ArticleCounters.upsert(
            entries.map(\.1), into: "rp_article_days",
            keys: [
                .init(name: "article", type: "text", values: .textArray(entries.map(\.0.article))),
                .init(name: "day", type: "int4", values: .numberArray(entries.map(\.0.day))),
            ], sparse: true, on: connection)
    }
}
