import ProgressStore

/// The figures a fold reads back and the articles' counters it writes.
extension Folding {
    /// Each pair's all-time figures over the days the table holds, by the days' segments
    /// (pairs it has not yet are missing).
    static func allTimeBySegment(of pairs: [PairKey], on connection: PGConnection) throws(StoreError)
        -> [PairKey: [Segmenting.Codes: ReaderFigures]]
    {
        guard !pairs.isEmpty else { return [:] }
        let rows = try connection.execute(
            """
            SELECT d.article, d.reader, \(Segmenting.device("d")), \(Segmenting.source("d")), \(ReaderFigures.sql("d"))
            FROM unnest($1::text[], $2::text[]) AS p (article, reader)
            JOIN rp_reader_days AS d ON d.article = p.article AND d.reader = p.reader
            GROUP BY 1, 2, 3, 4
            """, [.textArray(pairs.map(\.article)), .textArray(pairs.map(\.reader))])
        var figures: [PairKey: [Segmenting.Codes: ReaderFigures]] = [:]
        for row in 0..<rows.rowCount {
            let pair = PairKey(article: rows.string(row, 0), reader: rows.string(row, 1))
            let codes = Segmenting.Codes(
                device: Int32(try rows.int64(row, 2)), source: Int32(try rows.int64(row, 3)))
            figures[pair, default: [:]][codes] = try ReaderFigures(rows, row: row, from: 4)
        }
        return figures
    }

    /// The counters of `articles` that have them, locked until the transaction ends.
    static func aggregates(of articles: Set<ExactKey>, on connection: PGConnection) throws(StoreError)
        -> [ExactKey: ArticleCounters]
    {
        guard !articles.isEmpty else { return [:] }
        let rows = try connection.execute(
            "SELECT article, \(ArticleCounters.columns) FROM rp_articles WHERE article = ANY($1::text[]) "
                + "ORDER BY article FOR UPDATE", [.textArray(articles.map(\.string))])
        var found: [ExactKey: ArticleCounters] = [:]
        for row in 0..<rows.rowCount {
            found[ExactKey(rows.string(row, 0))] = try ArticleCounters(rows, row: row, from: 1)
        }
        return found
    }

    /// Writes `aggregates` back, stamped with the next change (``ListingRanges``); an article
    /// left without readers (erasure, retention) is deleted with its section map and attention,
    /// so that a later reader of that id starts a new article, and forgotten by the listing.
    static func save(_ aggregates: [ExactKey: ArticleCounters], on connection: PGConnection)
        throws(StoreError)
    {
        let kept = aggregates.filter { $0.value.readers > 0 }
        let emptied = aggregates.filter { $0.value.readers <= 0 }.map(\.key.string)
        if !emptied.isEmpty {
            try connection.execute(
                "DELETE FROM rp_articles WHERE article = ANY($1::text[])", [.textArray(emptied)])
            try connection.execute(
                "DELETE FROM rp_sections WHERE article = ANY($1::text[])", [.textArray(emptied)])
            try connection.execute(
                "DELETE FROM rp_attention WHERE article = ANY($1::text[])", [.textArray(emptied)])
            try ListingRanges.forget(emptied, on: connection)
        }
        guard !kept.isEmpty else { return }
        let entries = Array(kept)
        try ArticleCounters.upsert(
            entries.map(\.value), into: "rp_articles",
            keys: [.init(name: "article", type: "text", values: .textArray(entries.map(\.key.string)))],
            sparse: false, stamped: true, on: connection)
    }
}
