import ProgressCore
public import ProgressStore

extension PostgresStore {
    /// See ``ProgressStore/segments(_:completion:)``: by device from the classes' counters when
    /// they answer (a large article, all of its days in range, no engaged minimum, a threshold in
    /// thousandths), else, like every source question, tallied per segment in SQL for a large
    /// article (``Segmenting/tallies(_:by:on:)``) or folded from a small one's readers.
    public func segments(
        _ query: SegmentsQuery,
        completion: @escaping @Sendable (Result<SegmentStatistics?, StoreError>) -> Void
    ) {
        read(
            { (connection) throws(StoreError) in try Self.segments(query, on: connection) },
            completion: completion)
    }

    static func segments(_ query: SegmentsQuery, on connection: PGConnection) throws(StoreError)
        -> SegmentStatistics?
    {
        let statistics = query.statistics
        if let counted = try Segmenting.fromCounters(query, on: connection) { return counted }
        guard let size = try articleReaders(statistics.article, on: connection) else { return nil }
        let key = query.by == .device ? Segmenting.deviceName("d") : Segmenting.source("d") + "::text"
        if size > ArticleCounters.histogramMinimumReaders {
            let tallies = try Segmenting.tallies(statistics, by: key, on: connection)
            let named = try Segmenting.named(tallies, by: query.by, on: connection)
            return Segmenting.segments(of: named, by: query.by, limit: query.limit)
        }
        var parameters: [PGValue] = [
            .text(statistics.article), .int(Int64(statistics.days.from ?? Int32.min)),
            .int(Int64(statistics.days.to ?? Int32.max)),
        ]
        guard
            let admitted = try Segmenting.condition(
                statistics.segment, on: "d", parameters: &parameters, connection)
        else { return SegmentStatistics(segments: [], other: nil) }
        let rows = try connection.execute(
            """
            SELECT \(key), d.reader, \(ReaderFigures.sql("d"))
            FROM rp_reader_days AS d WHERE d.article = $1 AND d.day BETWEEN $2 AND $3\(admitted)
            GROUP BY 1, d.reader
            """, parameters)
        var groups: [String: [ReaderSummary]] = [:]
        for row in 0..<rows.rowCount {
            groups[rows.string(row, 0), default: []].append(
                ReaderSummary(
                    reader: rows.string(row, 1), figures: try ReaderFigures(rows, row: row, from: 2)))
        }
        let named = try Segmenting.named(groups, by: query.by, on: connection)
        return SegmentStatistics.compute(readers: named, by: query.by, limit: query.limit, query: statistics)
    }

    /// The readers of `article` all time, or `nil` when it never had an event.
    static func articleReaders(_ article: String, on connection: PGConnection) throws(StoreError) -> Int? {
        let rows = try connection.execute(
            "SELECT readers FROM rp_articles WHERE article = $1", [.text(article)])
        return rows.rowCount == 1 ? Int(try rows.int64(0, 0)) : nil
    }

    /// The statistics of `query`'s segment: from its class's counters for a device filter when
    /// they answer, else tallied in SQL for a large article, else folded from the readers.
    static func segmentStatistics(_ query: StatisticsQuery, on connection: PGConnection) throws(StoreError)
        -> ArticleStatistics?
    {
        let filter = query.segment
        if let axis: Segmenting.Axis = filter.source == nil ? .device : filter.device == nil ? .source : nil,
            let segment = try Segmenting.code(of: filter, along: axis, on: connection),
            let kept = try Segmenting.segmentCounters(
                of: query.article, axis, query.metric, only: segment, on: connection),
            let tally = Segmenting.Tally(kept[segment] ?? ArticleCounters(keepsHistograms: true), query)
        {
            return tally.statistics
        }
        guard let size = try articleReaders(query.article, on: connection) else { return nil }
        if size > ArticleCounters.histogramMinimumReaders {
            return (try Segmenting.tallies(query, by: "''", on: connection)[""] ?? Segmenting.Tally())
                .statistics
        }
        let readers =
            try readers(of: query.article, in: query.days, segment: query.segment, on: connection) ?? []
        return ArticleStatistics.compute(readers: readers, query: query)
    }
}

extension Segmenting {
    /// The resolved device class of `table`'s reader-day by name, in SQL.
    static func deviceName(_ table: String) -> String {
        let names = DeviceClass.allCases.sorted { code($0) < code($1) }.map { "'\($0.rawValue)'" }
        return "(ARRAY[\(names.joined(separator: ", "))])[\(device(table)) + 1]"
    }

    /// `groups` keyed as SQL names their segments — a device class by name, a source by its id
    /// as text — keyed by the segments' names, by their bytes: two sources that Unicode calls
    /// equivalent are two segments. A source id that `rp_sources` does not hold, or holds twice,
    /// is a damaged database.
    static func named<Group>(
        _ groups: [String: Group], by dimension: SegmentStatistics.Dimension, on connection: PGConnection
    ) throws(StoreError) -> [ExactKey: Group] {
        guard dimension == .source else {
            return Dictionary(uniqueKeysWithValues: groups.map { (ExactKey($0.key), $0.value) })
        }
        guard !groups.isEmpty else { return [:] }
        let rows = try connection.execute(
            "SELECT id::text, source FROM rp_sources WHERE id = ANY($1::int4[])", [.textArray(groups.keys)])
        // Ids as text, which SQL spells one way.
        var names: [String: String] = [:]
        for row in 0..<rows.rowCount { names[rows.string(row, 0)] = rows.string(row, 1) }
        var named: [ExactKey: Group] = [:]
        for (id, group) in groups {
            guard let name = names[id], named.updateValue(group, forKey: ExactKey(name)) == nil else {
                throw StoreError.corrupt(
                    "rp_reader_days names a source \(id) that rp_sources does not hold once")
            }
        }
        return named
    }

    /// ` AND …` over `table`'s reader-days that admits those of `filter` (empty for every
    /// reader-day), its values appended to `parameters`; `nil` when no reader-day can be of the
    /// filter's source (the store never kept it).
    static func condition(
        _ filter: SegmentFilter, on table: String, parameters: inout [PGValue], _ connection: PGConnection
    ) throws(StoreError) -> String? {
        var sql = ""
        if let device = filter.device {
            parameters.append(.int(Int64(code(device))))
            sql += " AND \(self.device(table)) = $\(parameters.count)"
        }
        if let name = filter.source {
            let rows = try connection.execute("SELECT id FROM rp_sources WHERE source = $1", [.text(name)])
            guard rows.rowCount == 1 else { return nil }
            parameters.append(.int(try rows.int64(0, 0)))
            sql += " AND \(source(table)) = $\(parameters.count)"
        }
        return sql
    }

    /// The segments `query` asks for from the counters of its dimension, when they answer: the
    /// article keeps them, the filter names nothing along the other dimension, and each
    /// segment's counters answer (``Tally/init(_:_:)``).
    static func fromCounters(_ query: SegmentsQuery, on connection: PGConnection) throws(StoreError)
        -> SegmentStatistics?
    {
        let statistics = query.statistics
        let axis: Axis = query.by == .device ? .device : .source
        guard (axis == .device ? statistics.segment.source : statistics.segment.device.map(\.rawValue)) == nil
        else { return nil }
        let only = try code(of: statistics.segment, along: axis, on: connection)
        if only == nil
            && (axis == .device ? statistics.segment.device != nil : statistics.segment.source != nil)
        {
            return nil
        }
        guard statistics.minEngagedSeconds == 0, let edge = DepthHistogram.edge(of: statistics.threshold)
        else {
            return nil
        }
        let name =
            axis == .device
            ? "(ARRAY[\(DeviceClass.allCases.sorted { code($0) < code($1) }.map { "'\($0.rawValue)'" }.joined(separator: ", "))])[a.segment + 1]"
            : "(SELECT s.source FROM rp_sources AS s WHERE s.id = a.segment)"
        let bins = statistics.metric == .progress ? "a.progress_bins" : "a.seen_bins"
        let units = statistics.metric == .progress ? "a.progress_units" : "a.seen_units"
        let rows = try connection.execute(
            """
            SELECT \(name), a.readers, a.unscrollable, a.events, a.engaged_ms, a.first_ms, a.last_ms, \(units)::text,
                \(bins)
            FROM rp_article_segments AS a WHERE a.article = $1 AND a.dimension = $2\(only == nil ? "" : " AND a.segment = $3")
            """,
            [.text(statistics.article), .int(Int64(axis.rawValue))] + (only.map { [.int(Int64($0))] } ?? []),
            binaryResult: true)
        if rows.rowCount == 0 {
            let kept = try connection.execute(
                "SELECT 1 FROM rp_article_segments WHERE article = $1 AND dimension = $2 LIMIT 1",
                [.text(statistics.article), .int(Int64(axis.rawValue))])
            return kept.rowCount == 0 ? nil : SegmentStatistics(segments: [], other: nil)
        }
        var order: [(name: String, readers: Int64, row: Int)] = []
        for row in 0..<rows.rowCount {
            let first = try rows.int64(row, 5)
            let last = try rows.int64(row, 6)
            guard (statistics.days.from ?? .min) <= UTCDay.of(ms: first),
                (statistics.days.to ?? .max) >= UTCDay.of(ms: last)
            else { return nil }
            order.append(
                (rows.isNull(row, 0) ? ReaderSource.other : rows.string(row, 0), try rows.int64(row, 1), row))
        }
        order.sort { a, b in
            a.readers != b.readers
                ? a.readers > b.readers : a.name.utf8.lexicographicallyPrecedes(b.name.utf8)
        }
        let listed = query.by == .device ? order.count : min(query.limit, order.count)
        var other = Tally()
        var segments: [SegmentStatistics.Segment] = []
        for (index, entry) in order.enumerated() {
            var tally = Tally()
            try tally.add(rows, row: entry.row, edge: edge)
            if index < listed {
                segments.append(SegmentStatistics.Segment(name: entry.name, statistics: tally.statistics))
            } else {
                other.add(tally)
            }
        }
        return SegmentStatistics(
            segments: segments,
            other: listed < order.count
                ? SegmentStatistics.Segment(name: ReaderSource.other, statistics: other.statistics) : nil)
    }

    /// `filter`'s segment along `axis` as the counters key it: a class's code, a source's id;
    /// `nil` when it names none there, or a source never kept.
    static func code(of filter: SegmentFilter, along axis: Axis, on connection: PGConnection)
        throws(StoreError)
        -> Int32?
    {
        if axis == .device { return filter.device.map { Int32(code($0)) } }
        guard let name = filter.source else { return nil }
        let rows = try connection.execute("SELECT id FROM rp_sources WHERE source = $1", [.text(name)])
        return rows.rowCount == 1 ? Int32(try rows.int64(0, 0)) : nil
    }

    /// The counters of `article`'s segments along `axis` — of `segment` alone when named — with
    /// `metric`'s histogram, when it keeps them (a segment without readers is missing); `nil`
    /// when it does not.
    static func segmentCounters(
        of article: String, _ axis: Axis, _ metric: ArticleStatistics.Metric, only segment: Int32? = nil,
        on connection: PGConnection
    ) throws(StoreError) -> [Int32: ArticleCounters]? {
        // For one segment, its row when there is one, else any other: whether the article keeps them.
        let rows = try connection.execute(
            "SELECT segment, \(ArticleCounters.columns(of: metric)) FROM rp_article_segments "
                + "WHERE article = $1 AND dimension = $2"
                + (segment == nil ? "" : " ORDER BY segment = $3 DESC LIMIT 1"),
            [.text(article), .int(Int64(axis.rawValue))] + (segment.map { [.int(Int64($0))] } ?? []),
            binaryResult: true)
        guard rows.rowCount > 0 else { return nil }
        var counters: [Int32: ArticleCounters] = [:]
        for row in 0..<rows.rowCount {
            let found = Int32(try rows.int64(row, 0))
            guard segment ?? found == found else { continue }
            counters[found] = try ArticleCounters(rows, row: row, from: 1, only: metric)
        }
        return counters
    }
}
