/// Where per-article statistics live: the embedded store (an event journal, an in-memory
/// index and SQLite checkpoints) by default, PostgreSQL when several service nodes share one
/// database. Every implementation passes the same conformance suite.
///
/// Everything that may wait on I/O completes through a callback rather than returning, so that
/// a store over the network never holds the caller's thread (the service's HTTP workers). A
/// store may call a completion before the method returns, on the calling thread — when the
/// answer is at hand, as the embedded store's counters are — or later on a thread of its own.
/// Completions must be short: they may run on a store's only writer or sync thread.
///
/// A store's life is explicit: opening it (its `init`) reads what it holds but starts no
/// thread; ``start()`` starts its background work (commits, checkpoints, folding), and
/// ``close()`` finishes it, within a bounded time, and lets go of every resource.
public protocol ProgressStore: AnyObject, Sendable {
    /// Starts the store's threads; call once, before anything else. Appends and erasures may
    /// wait until then.
    func start() throws(StoreError)

    /// Durably records `events` and calls `completion` once they are committed — never before —
    /// or with the error that kept them out (in which case none of them changed anything).
    /// Events whose `eventID` was counted for the same article and reader within the last 24
    /// hours are acknowledged as duplicates and change nothing.
    func append(
        _ events: [EventRecord], completion: @escaping @Sendable (Result<AppendResult, StoreError>) -> Void)

    /// Answers a question of the analytics (``Analytics``) from the store's reads: first where
    /// the store answers at once — its counters at hand, the reads' ``StoreReads/mayFold``
    /// false, possibly on the calling thread — and, when `plan` answers ``Planned/fold``, again
    /// where reads may visit every reader (never answering ``Planned/fold`` there). Reads see
    /// every event acknowledged before the call began, on any node. The statistics, segments,
    /// sections, readers and listing of this protocol's extension go through here.
    func read<Answer: Sendable>(
        _ plan: @escaping @Sendable (any StoreReads) throws(StoreError) -> Planned<Answer>,
        completion: @escaping @Sendable (Result<Answer, StoreError>) -> Void)

    /// The salt of `day` (a UTC day of the server's clock, today's when deriving ids): the one
    /// kept, or a new random one kept before it is handed out, so that every caller — after a
    /// restart, on every node — gets the same salt for the same day. Salts of days before
    /// ``DailySalt/oldestKept(today:)`` are deleted (and never handed out).
    func salt(forDay day: Int32, completion: @escaping @Sendable (Result<DailySalt, StoreError>) -> Void)

    /// Removes a reader, or an article, from every statistic, durably: once completed the
    /// erasure survives a crash like an acknowledged event, a replay never brings the data
    /// back, and after the next checkpoint (or a clean stop) the erased ids occur in no file of
    /// the store. Events that arrive later are counted anew — and their ids too, even if
    /// sent before the erasure.
    func erase(_ erasure: Erasure, completion: @escaping @Sendable (Result<ErasureCount, StoreError>) -> Void)

    /// A number that changes whenever any figure of `article` may have changed, read without
    /// waiting on I/O — or `nil` when the store cannot tell at that cost (then nothing computed
    /// from it is kept). Answers computed at one version are reused while it holds.
    func version(of article: String) -> UInt64?

    /// Whether the store accepts writes right now, and why it is not wholly well while it still
    /// takes them (a checkpoint that keeps failing, say), for `/healthz` — read without waiting
    /// on I/O.
    var health: StoreHealth { get }

    /// Tries a tiny write and reports whether it took, updating ``health``. `/healthz` calls
    /// it while the store is unwritable, so that the store can recover without appends.
    func probe(completion: @escaping @Sendable (Bool) -> Void)

    /// The store's figures for `/metrics`: its size and the gauges of its inner workings.
    func report(completion: @escaping @Sendable (StoreReport) -> Void)

    /// Commits what is pending, stops the store's threads (waiting a bounded time for them, and
    /// logging when one does not stop in it), then releases the store. Later calls fail with
    /// ``StoreError/closed``. Idempotent.
    func close()
}

/// One stats question: an article, a range of days and how to count completion.
public struct StatisticsQuery: Sendable, Hashable {
    public var article: String
    public var days: DayRange
    public var metric: ArticleStatistics.Metric
    /// A reader completes at depth ≥ this, 0…1.
    public var threshold: Double
    /// …and with at least this much engaged time in range.
    public var minEngagedSeconds: Double
    /// Whose reader-days count.
    public var segment: SegmentFilter

    public init(
        article: String, days: DayRange = .allTime, metric: ArticleStatistics.Metric = .progress,
        threshold: Double, minEngagedSeconds: Double = 0, segment: SegmentFilter = .all
    ) {
        self.article = article
        self.days = days
        self.metric = metric
        self.threshold = threshold
        self.minEngagedSeconds = minEngagedSeconds
        self.segment = segment
    }
}

/// What a store tells `/metrics`.
public struct StoreReport: Sendable, Equatable {
    /// Bytes the store occupies (its files, or its database), when it knows.
    public var sizeBytes: Int64?
    /// Gauges beyond size and writability: `reading_progress_store_<name>`.
    public var gauges: [StoreGauge]

    public init(sizeBytes: Int64?, gauges: [StoreGauge]) {
        self.sizeBytes = sizeBytes
        self.gauges = gauges
    }
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

/// An inclusive range of UTC days (days since 1970-01-01); `nil` ends are open.
public struct DayRange: Sendable, Equatable, Hashable {
    public var from: Int32?
    public var to: Int32?
    public init(from: Int32? = nil, to: Int32? = nil) {
        self.from = from
        self.to = to
    }
    public static let allTime = DayRange()

    /// Whether `day` lies in the range.
    public func contains(_ day: Int32) -> Bool {
        (from.map { day >= $0 } ?? true) && (to.map { day <= $0 } ?? true)
    }
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

/// Whether a store takes writes, and what ails it meanwhile.
public struct StoreHealth: Sendable, Equatable {
    /// Whether the store accepts writes right now (drives `/healthz`).
    public var isWritable: Bool
    /// Why the store is not wholly well while it still takes writes; `nil` when it is.
    public var problem: String?

    public init(isWritable: Bool, problem: String? = nil) {
        self.isWritable = isWritable
        self.problem = problem
    }
}
