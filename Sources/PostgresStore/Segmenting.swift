import ProgressCore
import ProgressStore

/// Reader-day segments in the tables (docs/api.md, "Segments"): how `rp_reader_days` keeps
/// them, how SQL resolves them, the bounded `rp_sources`, and the per-segment counters of large
/// articles in `rp_article_segments`, all moved in the fold's transaction.
enum Segmenting {
    /// Distinct sources kept by name; later new ones count as `(other)`. Every fold, erasure and
    /// retention holds `rp_fold`'s row, so nodes add sources one fold at a time and the bound is
    /// exact across them.
    static let maximumSources = 10_000
    /// `rp_sources`' id of `(other)`.
    static let otherID: Int32 = 0
    /// `rp_sources`' id of `(direct)`, which a reader-day without a named source resolves to.
    static let directID: Int32 = 1

    /// A device class as the tables keep it; -1 for none (sent as `NULL`).
    static func code(_ device: DeviceClass?) -> Int16 {
        switch device {
        case nil: -1
        case .phone: 0
        case .tablet: 1
        case .desktop: 2
        case .other: 3
        }
    }

    static func device(ofCode code: Int16) throws(StoreError) -> DeviceClass {
        switch code {
        case 0: .phone
        case 1: .tablet
        case 2: .desktop
        case 3: .other
        default: throw StoreError.corrupt("rp_reader_days holds a device class \(code)")
        }
    }

    /// The resolved device class of `table`'s reader-day (``DaySegment/resolved``) in SQL.
    static func device(_ table: String) -> String {
        "coalesce(\(table).device, \(table).width_device, 3)"
    }

    /// The resolved source id of `table`'s reader-day in SQL.
    static func source(_ table: String) -> String {
        "coalesce(\(table).source, \(directID))"
    }

    /// An upsert's `SET` of `column` and its time: the incoming value when its event is
    /// strictly earlier (a tie keeps the earlier arrival, already in the row).
    static func earlier(_ column: String, time: String? = nil) -> String {
        let time = time ?? column + "_ms"
        return
            "\(column) = CASE WHEN excluded.\(time) < d.\(time) THEN excluded.\(column) ELSE d.\(column) END, "
            + "\(time) = least(d.\(time), excluded.\(time))"
    }

    /// A reader's figures over all its segments.
    static func total(_ byDevice: [Codes: ReaderFigures]) -> ReaderFigures {
        byDevice.values.dropFirst().reduce(byDevice.values.first!) { $0.folded($1) }
    }

    /// The ids of `names` (by their bytes), adding those not kept yet while fewer than
    /// ``maximumSources`` are, in order of arrival; those past the bound are missing (they count
    /// as `(other)`).
    static func sourceIDs(for names: Folding.SourceNames, on connection: PGConnection) throws(StoreError)
        -> [ExactKey: Int32]
    {
        guard !names.ordered.isEmpty else { return [:] }
        let rows = try connection.execute(
            "SELECT source, id FROM rp_sources WHERE source = ANY($1::text[])", [.textArray(names.ordered)])
        var ids: [ExactKey: Int32] = [:]
        for row in 0..<rows.rowCount { ids[ExactKey(rows.string(row, 0))] = Int32(try rows.int64(row, 1)) }
        let missing = names.ordered.filter { ids[ExactKey($0)] == nil }
        guard !missing.isEmpty else { return ids }
        let kept = try connection.execute(
            "SELECT count(*) FILTER (WHERE id > $1), coalesce(max(id), $1) FROM rp_sources",
            [.int(Int64(directID))])
        let room = maximumSources - Int(try kept.int64(0, 0))
        let added = Array(missing.prefix(max(0, room)))
        guard !added.isEmpty else { return ids }
        let highest = try kept.int64(0, 1)
        guard Int32(exactly: highest + Int64(added.count)) != nil else {
            throw StoreError.corrupt("rp_sources holds an id of \(highest), past those it gives out")
        }
        let numbers = added.indices.map { Int32(highest) + 1 + Int32($0) }
        for (name, id) in zip(added, numbers) { ids[ExactKey(name)] = id }
        try connection.execute(
            "INSERT INTO rp_sources (id, source) SELECT * FROM unnest($1::int4[], $2::text[])",
            [.numberArray(numbers), .textArray(added)])
        return ids
    }

    /// Those of `articles` whose segments have counters.
    static func keepingSegments(of articles: Set<ExactKey>, on connection: PGConnection) throws(StoreError)
        -> Set<ExactKey>
    {
        guard !articles.isEmpty else { return [] }
        let rows = try connection.execute(
            "SELECT DISTINCT article FROM rp_article_segments WHERE article = ANY($1::text[])",
            [.textArray(articles.map(\.string))])
        return Set((0..<rows.rowCount).map { ExactKey(rows.string($0, 0)) })
    }
}

extension Folding {
    /// A batch's named sources, each once (by its bytes), in the order they arrived.
    struct SourceNames {
        private(set) var ordered: [String] = []
        private var seen: Set<ExactKey> = []

        mutating func add(_ source: String?) {
            guard let source, seen.insert(ExactKey(source)).inserted else { return }
            ordered.append(source)
        }
    }
}
