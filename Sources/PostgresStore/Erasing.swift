import ProgressStore

/// Erasure and retention on the tables. Callers hold `rp_fold`'s row, and have folded the log,
/// so that nothing acknowledged before is folded in after.
enum Erasing {
    /// Takes a reader out of every article; what it took.
    static func erase(reader: String, on connection: PGConnection) throws(StoreError) -> ErasureCount {
        let rows = try connection.execute(
            """
            SELECT d.article, \(ReaderFigures.sql("d")), count(*)
            FROM rp_reader_days AS d WHERE d.reader = $1 GROUP BY d.article
            """, [.text(reader)])
        var aggregates = try Folding.aggregates(
            of: Set((0..<rows.rowCount).map { ExactKey(rows.string($0, 0)) }), on: connection)
        var days = 0
        for row in 0..<rows.rowCount {
            let article = rows.string(row, 0)
            try aggregates[ExactKey(article)].drop(
                try ReaderFigures(rows, row: row, from: 1), of: article, in: "rp_articles")
            days += Int(try rows.int64(row, 8))
        }
        let segments = try segmentsLeft(by: reader, of: Set(aggregates.keys), on: connection)
        var dayCounters = try DayCounting.left(by: reader, of: Set(aggregates.keys), on: connection)
        try connection.execute("DELETE FROM rp_reader_days WHERE reader = $1", [.text(reader)])
        try connection.execute("DELETE FROM rp_ids WHERE reader = $1", [.text(reader)])
        try recountTimes(&aggregates, on: connection)
        try Folding.save(aggregates, on: connection)
        if let segments {
            var counters = segments.counters
            try Segmenting.recountTimes(of: segments.touched, in: &counters, on: connection)
            try Segmenting.save(counters, on: connection)
        }
        try DayCounting.recountTimes(of: &dayCounters, on: connection)
        try DayCounting.save(dayCounters, on: connection)
        return ErasureCount(articles: rows.rowCount, readerDays: days)
    }

    /// Takes an article out with all of its readers; what it took.
    static func erase(article: String, on connection: PGConnection) throws(StoreError) -> ErasureCount {
        let rows = try connection.execute("DELETE FROM rp_reader_days WHERE article = $1", [.text(article)])
        let deleted = try connection.execute(
            "WITH gone AS (DELETE FROM rp_articles WHERE article = $1 RETURNING 1) SELECT count(*) FROM gone",
            [.text(article)])
        try connection.execute("DELETE FROM rp_ids WHERE article = $1", [.text(article)])
        try connection.execute("DELETE FROM rp_sections WHERE article = $1", [.text(article)])
        try connection.execute("DELETE FROM rp_attention WHERE article = $1", [.text(article)])
        try connection.execute("DELETE FROM rp_article_segments WHERE article = $1", [.text(article)])
        try connection.execute("DELETE FROM rp_article_days WHERE article = $1", [.text(article)])
        let articles = Int(try deleted.int64(0, 0))
        if articles > 0 { try ListingRanges.forget([article], on: connection) }
        return ErasureCount(articles: articles, readerDays: Int(rows.affectedRows))
    }

    /// Takes out every record of a UTC day before `day`, recounting the articles that had one
    /// (and their segments' counters, where kept; the days kept are counted apart, so only the
    /// days dropped lose theirs); an article left without readers goes with its section map
    /// (``Folding/save(_:on:)``).
    static func dropDays(before day: Int32, on connection: PGConnection) throws(StoreError) {
        try connection.execute("DELETE FROM rp_attention WHERE day < $1", [.int(Int64(day))])
        try connection.execute("DELETE FROM rp_article_days WHERE day < $1", [.int(Int64(day))])
        let affected = try connection.execute(
            "SELECT DISTINCT article FROM rp_reader_days WHERE day < $1", [.int(Int64(day))])
        let articles = (0..<affected.rowCount).map { affected.string($0, 0) }
        guard !articles.isEmpty else { return }
        try connection.execute("DELETE FROM rp_reader_days WHERE day < $1", [.int(Int64(day))])
        let keys = Set(articles.map(ExactKey.init))
        _ = try Folding.aggregates(of: keys, on: connection)
        var recounted: [ExactKey: ArticleCounters] = [:]
        for key in keys { recounted[key] = ArticleCounters(keepsHistograms: true) }
        let rows = try connection.execute(
            """
            SELECT d.article, \(ReaderFigures.sql("d"))
            FROM rp_reader_days AS d WHERE d.article = ANY($1::text[]) GROUP BY d.article, d.reader
            """, [.textArray(articles)])
        for row in 0..<rows.rowCount {
            let article = rows.string(row, 0)
            guard recounted[ExactKey(article)] != nil else { throw Folding.unasked(article) }
            recounted[ExactKey(article)]?.move(from: nil, to: try ReaderFigures(rows, row: row, from: 1))
        }
        try Folding.save(recounted, on: connection)
        try Segmenting.countSegments(of: Segmenting.keepingSegments(of: keys, on: connection), on: connection)
    }

    /// The segment counters of those of `articles` that keep them, with `reader`'s figures by
    /// segment taken out, and the segments it was in (whose times are still to recount once
    /// its rows are gone); `nil` when none keeps them.
    private static func segmentsLeft(
        by reader: String, of articles: Set<ExactKey>, on connection: PGConnection
    )
        throws(StoreError) -> (
            counters: [Segmenting.CounterKey: ArticleCounters], touched: Set<Segmenting.CounterKey>
        )?
    {
        let kept = try Segmenting.keepingSegments(of: articles, on: connection)
        guard !kept.isEmpty else { return nil }
        var figures: [Segmenting.CounterKey: ReaderFigures] = [:]
        for axis in Segmenting.Axis.allCases {
            let rows = try connection.execute(
                """
                SELECT d.article, \(axis.sql("d")), \(ReaderFigures.sql("d"))
                FROM rp_reader_days AS d WHERE d.reader = $1 AND d.article = ANY($2::text[]) GROUP BY 1, 2
                """, [.text(reader), .textArray(kept.map(\.string))])
            for row in 0..<rows.rowCount {
                let key = Segmenting.CounterKey(
                    article: rows.string(row, 0), axis: axis, segment: Int32(try rows.int64(row, 1)))
                figures[key] = try ReaderFigures(rows, row: row, from: 2)
            }
        }
        let touched = Set(figures.keys)
        var counters = try Segmenting.counters(of: touched, on: connection)
        for (key, taken) in figures {
            try counters[key].drop(taken, of: key.article, in: "rp_article_segments")
        }
        return (counters, touched)
    }

    /// Sets each article's first and last event time from the rows it has left.
    private static func recountTimes(
        _ aggregates: inout [ExactKey: ArticleCounters], on connection: PGConnection
    )
        throws(StoreError)
    {
        guard !aggregates.isEmpty else { return }
        let rows = try connection.execute(
            "SELECT article, min(first_ms), max(last_ms) FROM rp_reader_days WHERE article = ANY($1::text[]) "
                + "GROUP BY article", [.textArray(aggregates.keys.map(\.string))])
        for row in 0..<rows.rowCount {
            let key = ExactKey(rows.string(row, 0))
            aggregates[key]?.firstMs = try rows.int64(row, 1)
            aggregates[key]?.lastMs = try rows.int64(row, 2)
        }
    }
}
