import ProgressCore
import ProgressStore

/// The readers of a large article's segments tallied in PostgreSQL rather than sent one by one:
/// per segment, the counts and sums the counters keep and a 1000-bin histogram of the query's
/// depths, so that an answer costs rows by bin, not by reader. Quantiles come from the bins (at
/// most 0.001 low); completion is counted at the query's threshold and engaged minimum, exactly.
extension Segmenting {
    struct Tally {
        var readers = 0
        var unscrollable = 0
        var events: Int64 = 0
        var engagedMs: Int64 = 0
        var firstMs: Int64?
        var lastMs: Int64?
        var bins = [Int32](repeating: 0, count: DepthHistogram.binCount)
        var units: Int128 = 0
        var completed = 0

        /// Adds `other`'s readers (as ``SegmentStatistics/compute(readers:by:limit:query:)``
        /// puts the segments past the limit together).
        mutating func add(_ other: Tally) {
            readers += other.readers
            unscrollable += other.unscrollable
            events += other.events
            engagedMs += other.engagedMs
            firstMs = [firstMs, other.firstMs].compactMap { $0 }.min()
            lastMs = [lastMs, other.lastMs].compactMap { $0 }.max()
            for bin in bins.indices { bins[bin] += other.bins[bin] }
            units += other.units
            completed += other.completed
        }

        init() {}

        /// The tally of `counters` (a segment's all time) as `query` asks for it, when they
        /// answer it: the range spans the segment's days, no engaged minimum applies and the
        /// threshold sits on a 1/1000 edge.
        init?(_ counters: ArticleCounters, _ query: StatisticsQuery) {
            guard query.minEngagedSeconds == 0, counters.spans(query.days),
                let histograms = counters.histograms,
                let edge = DepthHistogram.edge(of: query.threshold)
            else { return nil }
            let histogram = histograms[query.metric]
            readers = counters.readers
            unscrollable = counters.unscrollable
            events = counters.events
            engagedMs = counters.engagedMs
            firstMs = counters.firstMs
            lastMs = counters.lastMs
            bins = histogram.binCounts
            units = (query.metric == .progress ? counters.progressSum : counters.seenSum).totalUnits
            completed = histogram.count(atOrAbove: edge)
        }

        /// Adds the segment of `row` of `result` (a binary result): readers, unscrollable, events,
        /// engaged ms, first and last ms, the depth sum's units as text and the bins (dense or
        /// sparse) from column 1 on; its completed readers are those in bins `edge`… .
        mutating func add(_ result: PGResult, row: Int, edge: Int) throws(StoreError) {
            guard let sum = Int128(result.string(row, 7)) else {
                throw StoreError.corrupt("rp_article_segments holds a depth sum that is not an integer")
            }
            let count = Int(try result.int64(row, 1))
            readers += count
            unscrollable += Int(try result.int64(row, 2))
            events += try result.int64(row, 3)
            engagedMs += try result.int64(row, 4)
            if count > 0 {
                firstMs = min(firstMs ?? .max, try result.int64(row, 5))
                lastMs = max(lastMs ?? .min, try result.int64(row, 6))
            }
            units += sum
            let bytes = result.bytes(row, 8)
            guard bytes.count != 4 * DepthHistogram.binCount else {
                let counts = try ArticleCounters.binCounts(bytes)
                for bin in counts.indices where counts[bin] != 0 { hold(counts[bin], in: bin, edge: edge) }
                return
            }
            guard bytes.count % 6 == 0 else {
                throw StoreError.corrupt("a histogram of \(bytes.count) bytes")
            }
            // Sparse: each held bin's index and count, little-endian (``ArticleCounters/sparseBins(_:)``).
            for at in stride(from: 0, to: bytes.count, by: 6) {
                let bin = Int(bytes[at]) | Int(bytes[at + 1]) << 8
                guard bin < DepthHistogram.binCount else {
                    throw StoreError.corrupt("a histogram's bin \(bin)")
                }
                let held =
                    UInt32(bytes[at + 2]) | UInt32(bytes[at + 3]) << 8 | UInt32(bytes[at + 4]) << 16
                    | UInt32(bytes[at + 5]) << 24
                hold(Int32(bitPattern: held), in: bin, edge: edge)
            }
        }

        private mutating func hold(_ readers: Int32, in bin: Int, edge: Int) {
            bins[bin] += readers
            if bin >= edge { completed += Int(readers) }
        }

        var statistics: ArticleStatistics {
            var answer = ArticleStatistics.fromCounters(
                readers: readers, unscrollable: unscrollable, events: events, engagedMs: engagedMs,
                firstMs: firstMs, lastMs: lastMs, histogram: DepthHistogram(binCounts: bins),
                depthSum: DepthSum(units: units), edge: 0)
            answer.completed = completed
            answer.rate = answer.counted > 0 ? Double(completed) / Double(answer.counted) : 0
            return answer
        }
    }

    /// The bins' lower edges, as ``DepthHistogram/bin(of:)`` has them, for `width_bucket`.
    static let binEdges = (0..<DepthHistogram.binCount).map { Double($0) / 1000 }

    /// The tallies of `query`'s readers (those of `query.segment`) by segment, named by `key`
    /// (SQL over the day row `d`, as text); empty when the filter's source was never kept.
    static func tallies(_ query: StatisticsQuery, by key: String, on connection: PGConnection)
        throws(StoreError) -> [String: Tally]
    {
        var parameters: [PGValue] = [
            .text(query.article), .int(Int64(query.days.from ?? Int32.min)),
            .int(Int64(query.days.to ?? Int32.max)), .doubleArray(binEdges), .int(DepthSum.unitsPerDepth),
            .double(query.threshold), .double(query.minEngagedSeconds),
        ]
        guard let admitted = try condition(query.segment, on: "d", parameters: &parameters, connection) else {
            return [:]
        }
        let depth =
            query.metric == .progress
            ? "CASE WHEN bool_or(d.scrollable) THEN max(d.max_progress) END" : "max(d.max_seen)"
        let rows = try connection.execute(
            """
            SELECT r.segment, width_bucket(r.depth, $4::float8[]), count(*), count(*) FILTER (WHERE NOT r.scrollable),
                sum(r.events)::int8, sum(r.engaged)::int8, min(r.first), max(r.last),
                coalesce(sum(trunc(r.depth * $5::int8)::int8), 0)::text,
                count(*) FILTER (WHERE r.depth >= $6 AND r.engaged::float8 / 1000 >= $7)
            FROM (SELECT \(key) AS segment, bool_or(d.scrollable) AS scrollable, sum(d.events) AS events,
                    sum(d.engaged_ms) AS engaged, min(d.first_ms) AS first, max(d.last_ms) AS last, \(depth) AS depth
                FROM rp_reader_days AS d WHERE d.article = $1 AND d.day BETWEEN $2 AND $3\(admitted)
                GROUP BY 1, d.reader) AS r
            GROUP BY 1, 2
            """, parameters)
        var tallies: [String: Tally] = [:]
        for row in 0..<rows.rowCount {
            guard let units = Int128(rows.string(row, 8)) else {
                throw StoreError.corrupt("a sum of depths in rp_reader_days is not an integer")
            }
            var part = Tally()
            let count = Int(try rows.int64(row, 2))
            part.readers = count
            part.unscrollable = Int(try rows.int64(row, 3))
            part.events = try rows.int64(row, 4)
            part.engagedMs = try rows.int64(row, 5)
            part.firstMs = try rows.int64(row, 6)
            part.lastMs = try rows.int64(row, 7)
            part.units = units
            part.completed = Int(try rows.int64(row, 9))
            if !rows.isNull(row, 1) {
                part.bins[max(0, Int(try rows.int64(row, 1)) - 1)] = Int32(count)
            }
            tallies[rows.string(row, 0), default: Tally()].add(part)
        }
        return tallies
    }

    /// The segments of `tallies`, most readers first (then by name): every one by device, at
    /// most `limit` by source with the rest as one.
    static func segments(of tallies: [ExactKey: Tally], by dimension: SegmentStatistics.Dimension, limit: Int)
        -> SegmentStatistics
    {
        let ranked = tallies.sorted { a, b in
            a.value.readers != b.value.readers
                ? a.value.readers > b.value.readers
                : a.key.string.utf8.lexicographicallyPrecedes(b.key.string.utf8)
        }
        let listed = dimension == .device ? ranked[...] : ranked.prefix(limit)
        let rest = ranked.dropFirst(listed.count)
        var other = Tally()
        for (_, tally) in rest { other.add(tally) }
        return SegmentStatistics(
            segments: listed.map {
                SegmentStatistics.Segment(name: $0.key.string, statistics: $0.value.statistics)
            },
            other: rest.isEmpty
                ? nil : SegmentStatistics.Segment(name: ReaderSource.other, statistics: other.statistics))
    }
}
