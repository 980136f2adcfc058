import ProgressCore
public import ProgressStore

extension PostgresStore {
    /// See ``ProgressStore/segments(_:completion:)``: by device from the classes' counters when
    /// they answer (a large article, all of its days in range, no engaged minimum, a threshold in
    /// thousandths), else, like every source question, the readers folded per segment from the
    /// day rows.
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
        if query.by == .device, statistics.segment.source == nil,
            let kept = try Segmenting.classCounters(of: statistics.article, on: connection)
        {
            let answers = DeviceClass.allCases.filter { statistics.segment.device ?? $0 == $0 }.compactMap {
                device in kept[device].map { (device.rawValue, Segmenting.answer(from: $0, statistics)) }
            }
            if answers.allSatisfy({ $0.1 != nil }) {
                let present = answers.compactMap { name, answer in
                    answer.flatMap {
                        $0.readers > 0 ? SegmentStatistics.Segment(name: name, statistics: $0) : nil
                    }
                }
                return SegmentStatistics(
                    segments: present.sorted { a, b in
                        a.statistics.readers != b.statistics.readers
                            ? a.statistics.readers > b.statistics.readers
                            : a.name.utf8.lexicographicallyPrecedes(b.name.utf8)
                    }, other: nil)
            }
        }
        let exists = try connection.execute(
            "SELECT 1 FROM rp_articles WHERE article = $1", [.text(statistics.article)])
        guard exists.rowCount == 1 else { return nil }
        var parameters: [PGValue] = [
            .text(statistics.article), .int(Int64(statistics.days.from ?? Int32.min)),
            .int(Int64(statistics.days.to ?? Int32.max)),
        ]
        guard
            let admitted = try Segmenting.condition(
                statistics.segment, on: "d", parameters: &parameters, connection)
        else { return SegmentStatistics(segments: [], other: nil) }
        let name =
            query.by == .device
            ? Segmenting.device("d") + "::text"
            : "(SELECT s.source FROM rp_sources AS s WHERE s.id = \(Segmenting.source("d")))"
        let rows = try connection.execute(
            """
            SELECT \(name), d.reader, \(ReaderFigures.sql("d"))
            FROM rp_reader_days AS d WHERE d.article = $1 AND d.day BETWEEN $2 AND $3\(admitted)
            GROUP BY 1, d.reader
            """, parameters)
        var groups: [String: [ReaderSummary]] = [:]
        for row in 0..<rows.rowCount {
            let segment =
                query.by == .device
                ? try Segmenting.device(ofCode: Int16(try rows.int64(row, 0))).rawValue
                : rows.isNull(row, 0) ? ReaderSource.other : rows.string(row, 0)
            groups[segment, default: []].append(
                ReaderSummary(
                    reader: rows.string(row, 1), figures: try ReaderFigures(rows, row: row, from: 2)))
        }
        return SegmentStatistics.compute(readers: groups, by: query.by, limit: query.limit, query: statistics)
    }

    /// The statistics of `query`'s segment: from its class's counters for a device filter when
    /// they answer, else folded from the segment's readers.
    static func segmentStatistics(_ query: StatisticsQuery, on connection: PGConnection) throws(StoreError)
        -> ArticleStatistics?
    {
        if query.segment.source == nil, let device = query.segment.device,
            let kept = try Segmenting.classCounters(of: query.article, on: connection),
            let answered = Segmenting.answer(
                from: kept[device] ?? ArticleCounters(keepsHistograms: true), query)
        {
            return answered
        }
        guard
            let readers = try readers(
                of: query.article, in: query.days, segment: query.segment, on: connection)
        else { return nil }
        return ArticleStatistics.compute(readers: readers, query: query)
    }
}

extension Segmenting {
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

    /// The counters of `article`'s device classes, when it keeps them (a class without readers
    /// is missing); `nil` when it does not.
    static func classCounters(of article: String, on connection: PGConnection) throws(StoreError)
        -> [DeviceClass: ArticleCounters]?
    {
        let rows = try connection.execute(
            "SELECT device, \(ArticleCounters.columns) FROM rp_article_devices WHERE article = $1",
            [.text(article)])
        guard rows.rowCount > 0 else { return nil }
        var counters: [DeviceClass: ArticleCounters] = [:]
        for row in 0..<rows.rowCount {
            counters[try device(ofCode: Int16(try rows.int64(row, 0)))] = try ArticleCounters(
                rows, row: row, from: 1)
        }
        return counters
    }

    /// The statistics `query` asks of one class's `counters`, when they answer it: the range
    /// spans the class's days, no engaged minimum applies and the threshold sits on a 1/1000 edge.
    /// Quantiles are their bin's least value held, at most 0.001 low.
    static func answer(from counters: ArticleCounters, _ query: StatisticsQuery) -> ArticleStatistics? {
        guard query.minEngagedSeconds == 0, counters.spans(query.days), let histograms = counters.histograms,
            let edge = DepthHistogram.edge(of: query.threshold)
        else { return nil }
        return ArticleStatistics.fromCounters(
            readers: counters.readers, unscrollable: counters.unscrollable, events: counters.events,
            engagedMs: counters.engagedMs, firstMs: counters.firstMs, lastMs: counters.lastMs,
            histogram: histograms[query.metric],
            depthSum: query.metric == .progress ? counters.progressSum : counters.seenSum, edge: edge)
    }
}
