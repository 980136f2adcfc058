import ProgressStore

/// An article's counters as `rp_articles` holds them: what the default query and the listing
/// are answered from, kept up to date by folding. The histograms are always kept here, whatever
/// the article's size.
extension ArticleCounters {
    /// The columns `SELECT` names in ``columns``, or in ``columns(of:table:)`` with `metric` (whose
    /// other histogram is left empty), from `row` of `result`.
    init(_ result: PGResult, row: Int, from column: Int, only metric: ArticleStatistics.Metric? = nil)
        throws(StoreError)
    {
        self.init()
        readers = Int(try result.int64(row, column))
        unscrollable = Int(try result.int64(row, column + 1))
        events = try result.int64(row, column + 2)
        engagedMs = try result.int64(row, column + 3)
        if readers > 0 {
            firstMs = try result.int64(row, column + 4)
            lastMs = try result.int64(row, column + 5)
        }
        guard let progressUnits = Int128(result.string(row, column + 6)),
            let seenUnits = Int128(result.string(row, column + 7))
        else { throw StoreError.corrupt("rp_articles holds a depth sum that is not an integer") }
        progressSum = DepthSum(units: progressUnits)
        seenSum = DepthSum(units: seenUnits)
        histograms = DepthHistograms(
            progress: metric == .seenDepth
                ? DepthHistogram() : try Self.histogram(result.bytes(row, column + 8)),
            seenDepth: metric == .progress
                ? DepthHistogram() : try Self.histogram(result.bytes(row, column + 9)))
    }

    static let columns =
        "readers, unscrollable, events, engaged_ms, first_ms, last_ms, progress_units, seen_units, "
        + "progress_bins, seen_bins"

    /// ``columns`` with the sums as text and only `metric`'s histogram, for a binary result; of
    /// the table named `table`, when given.
    static func columns(of metric: ArticleStatistics.Metric, table: String? = nil) -> String {
        let t = table.map { $0 + "." } ?? ""
        return "\(t)readers, \(t)unscrollable, \(t)events, \(t)engaged_ms, \(t)first_ms, \(t)last_ms, "
            + "\(t)progress_units::text, \(t)seen_units::text, "
            + (metric == .progress ? "\(t)progress_bins, NULL" : "NULL, \(t)seen_bins")
    }

    /// 1001 little-endian 32-bit counts.
    static func bins(_ histogram: DepthHistogram?) -> [UInt8] {
        (histogram ?? DepthHistogram()).binCounts.flatMap { count in
            (0..<4).map { UInt8(truncatingIfNeeded: UInt32(bitPattern: count) >> (8 * $0)) }
        }
    }

    /// The bins that hold something, each as its index and its count (2 and 4 little-endian
    /// bytes): what `rp_article_segments` keeps, its segments being mostly small.
    static func sparseBins(_ histogram: DepthHistogram?) -> [UInt8] {
        var bytes: [UInt8] = []
        for (bin, count) in (histogram ?? DepthHistogram()).binCounts.enumerated() where count != 0 {
            bytes += [UInt8(truncatingIfNeeded: bin), UInt8(truncatingIfNeeded: bin >> 8)]
            bytes += (0..<4).map { UInt8(truncatingIfNeeded: UInt32(bitPattern: count) >> (8 * $0)) }
        }
        return bytes
    }

    /// The counts of ``bins(_:)``, or of ``sparseBins(_:)`` (whose length is a multiple of 6,
    /// which 4004 is not).
    static func binCounts(_ bytes: [UInt8]) throws(StoreError) -> [Int32] {
        func word(_ at: Int) -> Int32 {
            Int32(bitPattern: (0..<4).reduce(UInt32(0)) { $0 | UInt32(bytes[at + $1]) << (8 * $1) })
        }
        if bytes.count == 4 * DepthHistogram.binCount {
            return (0..<DepthHistogram.binCount).map { word(4 * $0) }
        }
        guard bytes.count % 6 == 0 else { throw StoreError.corrupt("a histogram of \(bytes.count) bytes") }
        var counts = [Int32](repeating: 0, count: DepthHistogram.binCount)
        for at in stride(from: 0, to: bytes.count, by: 6) {
            let bin = Int(bytes[at]) | Int(bytes[at + 1]) << 8
            guard bin < DepthHistogram.binCount else { throw StoreError.corrupt("a histogram's bin \(bin)") }
            counts[bin] = word(at + 2)
        }
        return counts
    }

    static func histogram(_ bytes: [UInt8]) throws(StoreError) -> DepthHistogram {
        DepthHistogram(binCounts: try binCounts(bytes))
    }
}

extension ArticleCounters {
    /// ``move(from:to:)`` on counters read from `table`, which may contradict the reader-days:
    /// moving a reader they do not hold is ``StoreError/contradiction(in:of:)``, not a trap.
    mutating func move(
        from before: ReaderFigures?, to after: ReaderFigures, of article: String, in table: String
    )
        throws(StoreError)
    {
        if let before, !holds(before) { throw StoreError.contradiction(in: table, of: article) }
        move(from: before, to: after)
    }

    /// ``drop(_:)`` on counters read from `table`, as ``move(from:to:of:in:)`` does it.
    mutating func drop(_ figures: ReaderFigures, of article: String, in table: String) throws(StoreError) {
        guard holds(figures) else { throw StoreError.contradiction(in: table, of: article) }
        drop(figures)
    }
}

extension ArticleCounters? {
    /// ``ArticleCounters/drop(_:of:in:)`` on counters that the reader-days say are there:
    /// missing ones contradict them as well.
    mutating func drop(_ figures: ReaderFigures, of article: String, in table: String) throws(StoreError) {
        guard self != nil else { throw StoreError.contradiction(in: table, of: article) }
        try self?.drop(figures, of: article, in: table)
    }
}

extension StoreError {
    /// `table`'s counters of `article` do not hold a reader that its rows in `rp_reader_days`
    /// hold: a damaged database, which a node answers with this error rather than a crash. The
    /// id's scalars are spelled out, so that two forms of one text read apart.
    static func contradiction(in table: String, of article: String) -> StoreError {
        .corrupt(
            "\(table) does not count a reader of article \"\(spelled(article))\" that rp_reader_days holds")
    }

    /// `id` with every scalar past ASCII as `\u{…}`.
    static func spelled(_ id: String) -> String {
        id.unicodeScalars.map { $0.escaped(asASCII: true) }.joined()
    }
}

extension ReaderFigures {
    /// The figures of `row` of `result`, from `column` on: max progress, max seen depth,
    /// scrollable, events, engaged ms, first ms, last ms — as ``sql`` selects them.
    init(_ result: PGResult, row: Int, from column: Int) throws(StoreError) {
        self.init(
            maxProgress: try result.double(row, column), maxSeenDepth: try result.double(row, column + 1),
            scrollable: try result.bool(row, column + 2), events: try result.int64(row, column + 3),
            engagedMs: try result.int64(row, column + 4), firstMs: try result.int64(row, column + 5),
            lastMs: try result.int64(row, column + 6))
    }

    /// `rp_reader_days` rows folded (with `GROUP BY`) as ``init(_:row:from:)`` reads them:
    /// ``ReaderFigures/fold(_:)`` in SQL.
    static func sql(_ table: String) -> String {
        "max(\(table).max_progress), max(\(table).max_seen), bool_or(\(table).scrollable), "
            + "sum(\(table).events)::int8, sum(\(table).engaged_ms)::int8, min(\(table).first_ms), "
            + "max(\(table).last_ms)"
    }
}

extension ArticleCounters {
    /// Counts `rows` — ordered by key, each a reader's figures from column `figures` on — into
    /// counters by the key `key(row)` reads, handing them to `save` a few hundred keys at a
    /// time, so that an article of many days or segments never holds all of their histograms.
    static func count<Key: Hashable>(
        _ rows: PGResult, figuresFrom figures: Int, key: (Int) throws(StoreError) -> Key,
        save: ([Key: ArticleCounters]) throws(StoreError) -> Void
    ) throws(StoreError) {
        var counters: [Key: ArticleCounters] = [:]
        var last: Key?
        for row in 0..<rows.rowCount {
            let key = try key(row)
            if key != last && counters.count >= 256 {
                try save(counters)
                counters = [:]
            }
            last = key
            counters[key, default: ArticleCounters(keepsHistograms: true)].move(
                from: nil, to: try ReaderFigures(rows, row: row, from: figures))
        }
        try save(counters)
    }
}

extension ArticleCounters {
    /// A key column of a table of counters: its name, its SQL type, and its value for each row.
    struct KeyColumn {
        var name: String
        var type: String
        var values: PGValue
    }

    /// Writes `counters` into `table` — `rp_articles`, `rp_article_segments` or
    /// `rp_article_days`, whose columns are ``columns`` after the `keys` — one row each, keyed
    /// as `keys` give them, inserted or updated: the one upsert of every table of counters.
    /// Histograms are written `sparse` (their held bins, see ``sparseBins(_:)``) or whole;
    /// `stamped` also sets `changed` from `rp_changes`, which the listing follows.
    static func upsert(
        _ counters: [ArticleCounters], into table: String, keys: [KeyColumn], sparse: Bool,
        stamped: Bool = false,
        on connection: PGConnection
    ) throws(StoreError) {
        guard !counters.isEmpty else { return }
        let names = keys.map(\.name).joined(separator: ", ")
        let counted = columns.components(separatedBy: ", ")
        let types =
            keys.map(\.type) + [
                "int8", "int8", "int8", "int8", "int8", "int8", "text", "text", "bytea", "bytea",
            ]
        let updated = counted + (stamped ? ["changed"] : [])
        let bins = { (histogram: DepthHistogram?) in sparse ? sparseBins(histogram) : Self.bins(histogram) }
        try connection.execute(
            """
            INSERT INTO \(table) AS a (\(names), \(columns)\(stamped ? ", changed" : ""))
            SELECT \(names), readers, unscrollable, events, engaged_ms, first_ms, last_ms, progress_units::numeric,
                seen_units::numeric, progress_bins, seen_bins\(stamped ? ", nextval('rp_changes')" : "")
            FROM unnest(\(types.enumerated().map { "$\($0.offset + 1)::\($0.element)[]" }.joined(separator: ", ")))
                AS u (\(names), \(columns))
            ON CONFLICT (\(names)) DO UPDATE SET \(updated.map { "\($0) = excluded.\($0)" }.joined(separator: ", "))
            """,
            keys.map(\.values) + [
                .numberArray(counters.map { Int64($0.readers) }),
                .numberArray(counters.map { Int64($0.unscrollable) }), .numberArray(counters.map(\.events)),
                .numberArray(counters.map(\.engagedMs)), .numberArray(counters.map { $0.firstMs ?? .max }),
                .numberArray(counters.map { $0.lastMs ?? .min }),
                .textArray(counters.map { String($0.progressSum.totalUnits) }),
                .textArray(counters.map { String($0.seenSum.totalUnits) }),
                .bytesArray(counters.map { bins($0.histograms?.progress) }),
                .bytesArray(counters.map { bins($0.histograms?.seenDepth) }),
            ])
    }
}
