import ProgressCore
import ProgressStore

/// The reads of segments (``ConnectionReads``): their counters, kept in `rp_article_segments`
/// past ``CounterPolicy/segmentCountersFrom`` readers, and their readers' figures from
/// `rp_reader_days`.
extension Segmenting {
    /// The resolved device class of `table`'s reader-day by name, in SQL.
    static func deviceName(_ table: String) -> String {
        deviceName(ofCode: device(table))
    }

    /// The name of the device class whose code is the SQL `code`, in SQL.
    static func deviceName(ofCode code: String) -> String {
        let names = DeviceClass.allCases.sorted { self.code($0) < self.code($1) }.map { "'\($0.rawValue)'" }
        return "(ARRAY[\(names.joined(separator: ", "))])[\(code) + 1]"
    }

    /// A reader-day's segment along `dimension` as SQL names it: a device class by name, a
    /// source by its id as text (``named(_:by:on:)`` names it).
    static func key(_ dimension: SegmentStatistics.Dimension?, _ table: String) -> String {
        switch dimension {
        case .device?: deviceName(table)
        case .source?: source(table) + "::text"
        case nil: "''"
        }
    }

    /// `groups`, keyed as ``key(_:_:)`` has them, by their segments' names. A source id that
    /// `rp_sources` does not hold is a damaged database.
    static func named<Group>(
        _ groups: [String: Group], by dimension: SegmentStatistics.Dimension?, on connection: PGConnection
    ) throws(StoreError) -> [(name: String, group: Group)] {
        guard dimension == .source, !groups.isEmpty else { return groups.map { ($0.key, $0.value) } }
        let rows = try connection.execute(
            "SELECT id::text, source FROM rp_sources WHERE id = ANY($1::int4[])", [.textArray(groups.keys)])
        // Ids as text, which SQL spells one way.
        var names: [String: String] = [:]
        for row in 0..<rows.rowCount { names[rows.string(row, 0)] = rows.string(row, 1) }
        return try groups.map { (id, group) throws(StoreError) in
            guard let name = names[id] else {
                throw StoreError.corrupt("rp_reader_days names a source \(id) that rp_sources does not hold")
            }
            return (name, group)
        }
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
            guard let id = try sourceID(of: name, on: connection) else { return nil }
            parameters.append(.int(Int64(id)))
            sql += " AND \(source(table)) = $\(parameters.count)"
        }
        return sql
    }

    /// The id `rp_sources` keeps `name` under (compared by its bytes), or `nil`.
    static func sourceID(of name: String, on connection: PGConnection) throws(StoreError) -> Int32? {
        let rows = try connection.execute("SELECT id FROM rp_sources WHERE source = $1", [.text(name)])
        return rows.rowCount == 1 ? Int32(try rows.int64(0, 0)) : nil
    }

    /// The counters of `article`'s segments along `dimension` with readers — of the one named
    /// `only`, when given — with `metric`'s histogram, by name; `nil` when the article keeps
    /// none along it.
    static func counters(
        of article: String, by dimension: SegmentStatistics.Dimension, only: String?,
        metric: ArticleStatistics.Metric, on connection: PGConnection
    ) throws(StoreError) -> [(name: String, counters: ArticleCounters)]? {
        let axis: Axis = dimension == .device ? .device : .source
        var segment: Int32?
        if let only {
            if dimension == .device {
                guard let device = DeviceClass(rawValue: only) else {
                    return try keeps(article, axis, connection)
                }
                segment = Int32(code(device))
            } else {
                guard let id = try sourceID(of: only, on: connection) else {
                    return try keeps(article, axis, connection)
                }
                segment = id
            }
        }
        let name =
            dimension == .device
            ? deviceName(ofCode: "a.segment")
            : "(SELECT s.source FROM rp_sources AS s WHERE s.id = a.segment)"
        let rows = try connection.execute(
            """
            SELECT \(name), \(ArticleCounters.columns(of: metric, table: "a"))
            FROM rp_article_segments AS a
            WHERE a.article = $1 AND a.dimension = $2 AND a.readers > 0\(segment == nil ? "" : " AND a.segment = $3")
            """,
            [.text(article), .int(Int64(axis.rawValue))] + (segment.map { [.int(Int64($0))] } ?? []),
            binaryResult: true)
        guard rows.rowCount > 0 else { return try keeps(article, axis, connection) }
        return try (0..<rows.rowCount).map { (row) throws(StoreError) in
            guard !rows.isNull(row, 0) else {
                throw StoreError.corrupt(
                    "rp_article_segments of \(article) names a source rp_sources does not hold")
            }
            return (rows.string(row, 0), try ArticleCounters(rows, row: row, from: 1, only: metric))
        }
    }

    /// No segment: `[]` when `article` keeps counters along `axis`, `nil` when it keeps none.
    private static func keeps(_ article: String, _ axis: Axis, _ connection: PGConnection) throws(StoreError)
        -> [(name: String, counters: ArticleCounters)]?
    {
        let kept = try connection.execute(
            "SELECT 1 FROM rp_article_segments WHERE article = $1 AND dimension = $2 LIMIT 1",
            [.text(article), .int(Int64(axis.rawValue))])
        return kept.rowCount == 0 ? nil : []
    }

    /// The figures of `article`'s readers over `days` that `segment` admits, by segment along
    /// `dimension`: each reader folded over its days of each segment.
    static func figures(
        of article: String, in days: DayRange, segment: SegmentFilter,
        by dimension: SegmentStatistics.Dimension,
        on connection: PGConnection
    ) throws(StoreError) -> [(name: String, figures: [ReaderFigures])] {
        var parameters: [PGValue] = [
            .text(article), .int(Int64(days.from ?? Int32.min)), .int(Int64(days.to ?? Int32.max)),
        ]
        guard let admitted = try condition(segment, on: "d", parameters: &parameters, connection) else {
            return []
        }
        let rows = try connection.execute(
            """
            SELECT \(key(dimension, "d")), \(ReaderFigures.sql("d"))
            FROM rp_reader_days AS d WHERE d.article = $1 AND d.day BETWEEN $2 AND $3\(admitted)
            GROUP BY 1, d.reader
            """, parameters)
        // Keyed as SQL spells a class's name or a source's id: one spelling each.
        var groups: [String: [ReaderFigures]] = [:]
        for row in 0..<rows.rowCount {
            groups[rows.string(row, 0), default: []].append(try ReaderFigures(rows, row: row, from: 1))
        }
        return try named(groups, by: dimension, on: connection).map { ($0.name, $0.group) }
    }
}
