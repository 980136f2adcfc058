/// What a reader did on one article over a range of days, folded across those days.
public struct ReaderSummary: Sendable, Equatable {
    public var reader: String
    /// Maximum `progress` over the reader's events in range.
    public var maxProgress: Double
    /// Maximum `seenDepth` over the reader's events in range.
    public var maxSeenDepth: Double
    /// Whether any of the reader's events in range was scrollable.
    public var scrollable: Bool
    public var events: Int64
    public var engagedMs: Int64
    public var firstMs: Int64
    public var lastMs: Int64

    public init(
        reader: String, maxProgress: Double, maxSeenDepth: Double, scrollable: Bool, events: Int64,
        engagedMs: Int64, firstMs: Int64, lastMs: Int64
    ) {
        self.reader = reader
        self.maxProgress = maxProgress
        self.maxSeenDepth = maxSeenDepth
        self.scrollable = scrollable
        self.events = events
        self.engagedMs = engagedMs
        self.firstMs = firstMs
        self.lastMs = lastMs
    }
}

/// An inclusive range of UTC days (days since 1970-01-01); `nil` ends are open.
public struct DayRange: Sendable, Equatable, Hashable {
    public var from: Int32?
    public var to: Int32?
    public init(from: Int32? = nil, to: Int32? = nil) {
        self.from = from
        self.to = to
    }
    public static let allTime = DayRange()
}

/// The outcome of appending a group of events.
public struct AppendResult: Sendable, Equatable {
    /// Events that changed statistics.
    public var counted: Int
    /// Events acknowledged but not counted again: their id was seen in the last 24 hours.
    public var duplicates: Int
    public init(counted: Int, duplicates: Int) {
        self.counted = counted
        self.duplicates = duplicates
    }
}

/// Where per-article statistics live. SQLite embedded by default; PostgreSQL when several
/// service nodes share one database. Every implementation passes the same test suite.
public protocol ProgressStore: AnyObject, Sendable {
    /// Durably records `events` and calls `completion` once they are committed — never before —
    /// or with the error that kept them out (in which case none of them changed anything).
    /// Never waits for other requests; the completion may run before `append` returns (on the
    /// calling thread) or later on another thread.
    func append(
        _ events: [EventRecord],
        completion: @escaping @Sendable (Result<AppendResult, StoreError>) -> Void)

    /// The readers of `article` with their figures folded over `days`, or `nil` when the
    /// article never had an event (in any range).
    func readers(of article: String, in days: DayRange) throws(StoreError) -> [ReaderSummary]?

    /// SPEC §5's figures for `article` over `days`, or `nil` when it never had an event. Stores
    /// that keep counters up to date answer the default query without visiting every reader.
    func statistics(
        of article: String, in days: DayRange, metric: ArticleStatistics.Metric, threshold: Double,
        minEngagedSeconds: Double
    ) throws(StoreError) -> ArticleStatistics?

    /// A number that changes whenever any statistic of `article` may have changed, or `nil`
    /// when the store cannot tell (then nothing computed from it is reused).
    func version(of article: String) -> UInt64?

    /// One row per article that ever had an event, with its figures over `days` (SPEC §5's
    /// listing). `threshold` decides completion; readers count as in the stats route with
    /// `metric=progress` and `minEngagedSeconds=0`. Articles with no event in range come with
    /// zeros and a `nil` last event time.
    func listing(in days: DayRange, threshold: Double) throws(StoreError) -> [ArticleListing]

    /// Whether the store accepts writes right now (drives `/healthz`).
    var isWritable: Bool { get }

    /// Tries a tiny write and reports whether it took, updating ``isWritable``. `/healthz` calls
    /// it while the store is unwritable and idle, so that the store can recover without appends.
    func probe(completion: (@Sendable (Bool) -> Void)?)

    /// Gauges about the store's inner workings for `/metrics` beyond size and writability,
    /// such as work it has acknowledged but not yet put in its final place.
    var gauges: [StoreGauge] { get }

    /// Bytes the store occupies (file size for SQLite), for `/metrics`.
    var sizeBytes: Int64 { get }

    /// Commits what is pending, then releases the store. Further appends fail.
    func close()
}

/// One `/metrics` gauge a store reports: `reading_progress_store_<name>`.
public struct StoreGauge: Sendable, Equatable {
    public var name: String
    public var help: String
    public var value: Double

    public init(name: String, help: String, value: Double) {
        self.name = name
        self.help = help
        self.value = value
    }
}

extension ProgressStore {
    /// Stores with nothing more to tell report no gauges.
    public var gauges: [StoreGauge] { [] }

    /// Stores that cannot tell report no version.
    public func version(of article: String) -> UInt64? { nil }

    /// Folds the readers and computes; right for any store, fast for none.
    public func statistics(
        of article: String, in days: DayRange, metric: ArticleStatistics.Metric, threshold: Double,
        minEngagedSeconds: Double
    ) throws(StoreError) -> ArticleStatistics? {
        try readers(of: article, in: days).map {
            ArticleStatistics.compute(
                readers: $0, metric: metric, threshold: threshold, minEngagedSeconds: minEngagedSeconds)
        }
    }

    /// Stores without a way to probe report ``isWritable`` as it is.
    public func probe(completion: (@Sendable (Bool) -> Void)?) {
        completion?(isWritable)
    }
}

/// One article's line in `GET /v1/articles`.
public struct ArticleListing: Sendable, Equatable {
    public var article: String
    /// Every reader with an event in range, unscrollable ones included.
    public var readers: Int
    public var events: Int64
    /// Completed ÷ counted (scrollable) readers; 0 when none counts.
    public var completionRate: Double
    /// Mean of the counted readers' maximum progress; 0 when none counts.
    public var meanDepth: Double
    /// Latest event time in range, ms since the epoch; `nil` when none is in range.
    public var lastEventMs: Int64?

    public init(
        article: String, readers: Int, events: Int64, completionRate: Double, meanDepth: Double,
        lastEventMs: Int64?
    ) {
        self.article = article
        self.readers = readers
        self.events = events
        self.completionRate = completionRate
        self.meanDepth = meanDepth
        self.lastEventMs = lastEventMs
    }
}
