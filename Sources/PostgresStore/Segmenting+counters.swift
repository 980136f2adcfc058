import ProgressCore
import ProgressStore

/// The counters of a large article's readers over the reader-days of one segment — a device
/// class or a source — in `rp_article_segments`, so that a filter, or the segments of one
/// dimension, read a row each whatever the number of readers. An article gets them once it has
/// more than ``CounterPolicy/segmentCountersFrom`` readers; folding, erasure and retention
/// keep them up to date from then on.
extension Segmenting {
    /// What `rp_article_segments`' `dimension` holds: 0 for device classes, 1 for sources.
    enum Axis: Int16, CaseIterable {
        case device = 0
        case source = 1

        /// The reader-day `table`'s segment along this axis, resolved, in SQL.
        func sql(_ table: String) -> String {
            self == .device ? Segmenting.device(table) : Segmenting.source(table)
        }
    }

    /// An article, by its bytes (docs/api.md, "Fields"), and one of its segments.
    struct CounterKey: Hashable {
        var article: String
        var axis: Axis
        /// A device class's code or a source's id.
        var segment: Int32

        static func == (a: CounterKey, b: CounterKey) -> Bool {
            a.axis == b.axis && a.segment == b.segment && bytesEqual(a.article, b.article)
        }

        func hash(into hasher: inout Hasher) {
            hasher.combine(bytesOf: article)
            hasher.combine(axis)
            hasher.combine(segment)
        }
    }

    /// A reader-day's resolved segment: its device class's code and its source's id.
    struct Codes: Hashable {
        var device: Int32
        var source: Int32

        func along(_ axis: Axis) -> Int32 { axis == .device ? device : source }
    }

    /// `figures` by segment along `axis`.
    static func project(_ figures: [Codes: ReaderFigures]?, _ axis: Axis) -> [Int32: ReaderFigures] {
        var projected: [Int32: ReaderFigures] = [:]
        for (codes, day) in figures ?? [:] {
            let segment = codes.along(axis)
            projected[segment] = projected[segment].map { $0.folded(day) } ?? day
        }
        return projected
    }

    /// The counters `rp_article_segments` holds of `keys`.
    static func counters(of keys: Set<CounterKey>, on connection: PGConnection) throws(StoreError)
        -> [CounterKey: ArticleCounters]
    {
        guard !keys.isEmpty else { return [:] }
        let list = Array(keys)
        let rows = try connection.execute(
            """
            SELECT a.article, a.dimension, a.segment, \(ArticleCounters.columns.split(separator: ", ").map { "a." + $0 }.joined(separator: ", "))
            FROM unnest($1::text[], $2::int2[], $3::int4[]) AS k (article, dimension, segment)
            JOIN rp_article_segments AS a
                ON a.article = k.article AND a.dimension = k.dimension AND a.segment = k.segment
            """,
            [
                .textArray(list.map(\.article)), .numberArray(list.map(\.axis.rawValue)),
                .numberArray(list.map(\.segment)),
            ])
        var found: [CounterKey: ArticleCounters] = [:]
        for row in 0..<rows.rowCount {
            guard let axis = Axis(rawValue: Int16(try rows.int64(row, 1))) else {
                throw StoreError.corrupt("rp_article_segments holds a dimension \(rows.string(row, 1))")
            }
            let key = CounterKey(
                article: rows.string(row, 0), axis: axis, segment: Int32(try rows.int64(row, 2)))
            found[key] = try ArticleCounters(rows, row: row, from: 3)
        }
        return found
    }

    /// Moves the segment counters of the `kept` articles by a fold of `days`: `changes` are the
    /// upsert's rows of those articles and maybe others (article, reader, day, the day's device code and source
    /// id before — `NULL` for a new day — and after), `before` the pairs' figures by segment
    /// before it. A pair one of whose days changed segment (an earlier event named another) is
    /// read again and moved out and back in, and the times of a segment it left are read from
    /// the rows that stay.
    static func moveCounters(
        of kept: Set<ExactKey>, days: [Folding.DayKey: Folding.DayFold], changes: PGResult,
        before: [Folding.PairKey: [Codes: ReaderFigures]], on connection: PGConnection
    ) throws(StoreError) {
        guard !kept.isEmpty else { return }
        var batch: [Folding.PairKey: [Codes: ReaderFigures]] = [:]
        var changed: Set<Folding.PairKey> = []
        for row in 0..<changes.rowCount where kept.contains(ExactKey(changes.string(row, 0))) {
            let key = Folding.DayKey(
                article: changes.string(row, 0), reader: changes.string(row, 1),
                day: Int32(try changes.int64(row, 2)))
            let pair = Folding.PairKey(article: key.article, reader: key.reader)
            let now = Codes(
                device: Int32(try changes.int64(row, 5)), source: Int32(try changes.int64(row, 6)))
            if !changes.isNull(row, 3),
                Codes(device: Int32(try changes.int64(row, 3)), source: Int32(try changes.int64(row, 4)))
                    != now
            {
                changed.insert(pair)
            }
            guard let fold = days[key]?.figures else { throw Folding.unasked(key.article) }
            batch[pair, default: [:]][now] = batch[pair]?[now].map { $0.folded(fold) } ?? fold
        }
        let after = try Folding.allTimeBySegment(of: Array(changed), on: connection)
        var touched: Set<CounterKey> = []
        for axis in Axis.allCases {
            for (pair, byCodes) in batch {
                let segments =
                    changed.contains(pair)
                    ? Set(project(before[pair], axis).keys).union(project(after[pair], axis).keys)
                    : Set(project(byCodes, axis).keys)
                for segment in segments {
                    touched.insert(CounterKey(article: pair.article, axis: axis, segment: segment))
                }
            }
        }
        var counters = try self.counters(of: touched, on: connection)
        var left: Set<CounterKey> = []
        for axis in Axis.allCases {
            for (pair, byCodes) in batch where !changed.contains(pair) {
                let prior = project(before[pair], axis)
                for (segment, figures) in project(byCodes, axis) {
                    let key = CounterKey(article: pair.article, axis: axis, segment: segment)
                    try counters[key, default: ArticleCounters(keepsHistograms: true)].move(
                        from: prior[segment], to: prior[segment].map { $0.folded(figures) } ?? figures,
                        of: pair.article, in: "rp_article_segments")
                }
            }
            for pair in changed {
                for (segment, figures) in project(before[pair], axis) {
                    let key = CounterKey(article: pair.article, axis: axis, segment: segment)
                    try counters[key].drop(figures, of: pair.article, in: "rp_article_segments")
                    left.insert(key)
                }
                for (segment, figures) in project(after[pair], axis) {
                    let key = CounterKey(article: pair.article, axis: axis, segment: segment)
                    counters[key, default: ArticleCounters(keepsHistograms: true)].move(
                        from: nil, to: figures)
                }
            }
        }
        try recountTimes(of: left, in: &counters, on: connection)
        try save(counters, on: connection)
    }

    /// Sets the counters of every segment of `articles` from their rows (an article that grew
    /// past the bound, or lost days to retention); an article without rows loses its counters.
    /// The rows come in order of segment and are saved a few hundred segments at a time, so
    /// that an article of 10,000 sources never holds all of their histograms at once.
    static func countSegments(of articles: Set<ExactKey>, on connection: PGConnection) throws(StoreError) {
        guard !articles.isEmpty else { return }
        let names = articles.map(\.string)
        try connection.execute(
            "DELETE FROM rp_article_segments WHERE article = ANY($1::text[])", [.textArray(names)])
        for axis in Axis.allCases {
            let rows = try connection.execute(
                """
                SELECT d.article, \(axis.sql("d")), \(ReaderFigures.sql("d"))
                FROM rp_reader_days AS d WHERE d.article = ANY($1::text[]) GROUP BY 1, 2, d.reader ORDER BY 1, 2
                """, [.textArray(names)])
            try ArticleCounters.count(rows, figuresFrom: 2) { (row) throws(StoreError) in
                CounterKey(article: rows.string(row, 0), axis: axis, segment: Int32(try rows.int64(row, 1)))
            } save: { (counters) throws(StoreError) in
                try save(counters, on: connection)
            }
        }
    }

    /// Sets the first and last event times of `keys` from the rows of their segment that stay.
    static func recountTimes(
        of keys: Set<CounterKey>, in counters: inout [CounterKey: ArticleCounters],
        on connection: PGConnection
    ) throws(StoreError) {
        for axis in Axis.allCases {
            let list = keys.filter { $0.axis == axis }
            guard !list.isEmpty else { continue }
            let rows = try connection.execute(
                """
                SELECT k.article, k.segment, min(d.first_ms), max(d.last_ms)
                FROM unnest($1::text[], $2::int4[]) AS k (article, segment)
                JOIN rp_reader_days AS d ON d.article = k.article AND \(axis.sql("d")) = k.segment
                GROUP BY k.article, k.segment
                """, [.textArray(list.map(\.article)), .numberArray(list.map(\.segment))])
            for row in 0..<rows.rowCount {
                let key = CounterKey(
                    article: rows.string(row, 0), axis: axis, segment: Int32(try rows.int64(row, 1)))
                counters[key]?.firstMs = try rows.int64(row, 2)
                counters[key]?.lastMs = try rows.int64(row, 3)
            }
        }
    }

    /// Writes `counters` back; a segment left without readers is deleted.
    static func save(_ counters: [CounterKey: ArticleCounters], on connection: PGConnection)
        throws(StoreError)
    {
        let emptied = counters.filter { $0.value.readers <= 0 }.map(\.key)
        if !emptied.isEmpty {
            try connection.execute(
                """
                DELETE FROM rp_article_segments AS a
                USING unnest($1::text[], $2::int2[], $3::int4[]) AS k (article, dimension, segment)
                WHERE a.article = k.article AND a.dimension = k.dimension AND a.segment = k.segment
                """,
                [
                    .textArray(emptied.map(\.article)), .numberArray(emptied.map(\.axis.rawValue)),
                    .numberArray(emptied.map(\.segment)),
                ])
        }
        let entries = counters.filter { $0.value.readers > 0 }.map { ($0.key, $0.value) }
        try ArticleCounters.upsert(
            entries.map(\.1), into: "rp_article_segments",
            keys: [
                .init(name: "article", type: "text", values: .textArray(entries.map(\.0.article))),
                .init(name: "dimension", type: "int2", values: .numberArray(entries.map(\.0.axis.rawValue))),
                .init(name: "segment", type: "int4", values: .numberArray(entries.map(\.0.segment))),
            ], sparse: true, on: connection)
    }
}
