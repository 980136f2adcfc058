import ProgressStore

/// One article's all-time counters as `rp_articles` holds them: what the default query and the
/// listing are answered from, kept up to date by folding.
struct ArticleAggregate {
    var readers = 0
    var unscrollable = 0
    var events: Int64 = 0
    var engagedMs: Int64 = 0
    var firstMs: Int64 = .max
    var lastMs: Int64 = .min
    /// Scrollable readers' all-time maximum progress.
    var progressSum = DepthSum()
    var progress = DepthHistogram()
    /// Every reader's all-time maximum seen depth.
    var seenSum = DepthSum()
    var seen = DepthHistogram()

    init() {}

    /// Moves one reader's all-time figures from `before` (nil for a new reader) to `after`.
    mutating func move(from before: PairFigures?, to after: PairFigures) {
        if let before {
            remove(before)
        } else {
            readers += 1
        }
        add(after)
    }

    /// Takes a reader's all-time figures out (erasure, retention), the reader with them.
    mutating func drop(_ figures: PairFigures) {
        remove(figures)
        readers -= 1
    }

    private mutating func remove(_ figures: PairFigures) {
        if figures.scrollable {
            progressSum.remove(figures.maxProgress)
            progress.remove(figures.maxProgress)
        } else {
            unscrollable -= 1
        }
        seenSum.remove(figures.maxSeen)
        seen.remove(figures.maxSeen)
    }

    private mutating func add(_ figures: PairFigures) {
        if figures.scrollable {
            progressSum.add(figures.maxProgress)
            progress.insert(figures.maxProgress)
        } else {
            unscrollable += 1
        }
        seenSum.add(figures.maxSeen)
        seen.insert(figures.maxSeen)
    }

    /// The statistics of the default query (all time, no engaged minimum, a threshold whose bin
    /// is `edge`).
    func statistics(metric: ArticleStatistics.Metric, edge: Int) -> ArticleStatistics {
        ArticleStatistics.fromCounters(
            readers: readers, unscrollable: unscrollable, events: events, engagedMs: engagedMs,
            firstMs: readers > 0 ? firstMs : nil, lastMs: readers > 0 ? lastMs : nil,
            histogram: metric == .progress ? progress : seen,
            depthSum: metric == .progress ? progressSum : seenSum, edge: edge)
    }

    /// The article's line of the all-time listing, completion at the bin `edge`.
    func listing(article: String, edge: Int) -> ArticleListing {
        let counted = progress.total
        return ArticleListing(
            article: article, readers: readers, events: events,
            completionRate: counted > 0 ? Double(progress.count(atOrAbove: edge)) / Double(counted) : 0,
            meanDepth: progressSum.mean(over: counted), lastEventMs: readers > 0 ? lastMs : nil)
    }

    /// Whether the days `firstMs`…`lastMs` all lie in `days` (then range figures are all-time).
    func spans(_ days: DayRange) -> Bool {
        guard readers > 0 else { return true }
        return (days.from ?? .min) <= Self.day(of: firstMs) && (days.to ?? .max) >= Self.day(of: lastMs)
    }

    static func day(of ms: Int64) -> Int32 { Int32(ms.floorDivided(by: 86_400_000)) }

    // MARK: - In `rp_articles`

    /// The columns `SELECT` names in ``columns``, from `row` of `result` (text form).
    init(_ result: PGResult, row: Int, from column: Int) throws(StoreError) {
        readers = Int(try result.int64(row, column))
        unscrollable = Int(try result.int64(row, column + 1))
        events = try result.int64(row, column + 2)
        engagedMs = try result.int64(row, column + 3)
        firstMs = try result.int64(row, column + 4)
        lastMs = try result.int64(row, column + 5)
        guard let progressUnits = Int128(result.string(row, column + 6)),
            let seenUnits = Int128(result.string(row, column + 7))
        else { throw StoreError.corrupt("rp_articles holds a depth sum that is not an integer") }
        progressSum = DepthSum(units: progressUnits)
        seenSum = DepthSum(units: seenUnits)
        progress = try Self.histogram(result.bytes(row, column + 8))
        seen = try Self.histogram(result.bytes(row, column + 9))
    }

    static let columns =
        "readers, unscrollable, events, engaged_ms, first_ms, last_ms, progress_units, seen_units, "
        + "progress_bins, seen_bins"

    /// 1001 little-endian 32-bit counts.
    static func bins(_ histogram: DepthHistogram) -> [UInt8] {
        histogram.binCounts.flatMap { count in
            (0..<4).map { UInt8(truncatingIfNeeded: UInt32(bitPattern: count) >> (8 * $0)) }
        }
    }

    static func histogram(_ bytes: [UInt8]) throws(StoreError) -> DepthHistogram {
        guard bytes.count == 4 * DepthHistogram.binCount else {
            throw StoreError.corrupt("rp_articles holds a histogram of \(bytes.count) bytes")
        }
        let counts = (0..<DepthHistogram.binCount).map { bin in
            Int32(bitPattern: (0..<4).reduce(UInt32(0)) { $0 | UInt32(bytes[4 * bin + $1]) << (8 * $1) })
        }
        return DepthHistogram(binCounts: counts)
    }
}

/// One reader's figures on one article over several days, as the aggregates count them.
struct PairFigures: Equatable {
    var maxProgress: Double
    var maxSeen: Double
    var scrollable: Bool

    func folded(_ other: PairFigures) -> PairFigures {
        PairFigures(
            maxProgress: max(maxProgress, other.maxProgress), maxSeen: max(maxSeen, other.maxSeen),
            scrollable: scrollable || other.scrollable)
    }
}
