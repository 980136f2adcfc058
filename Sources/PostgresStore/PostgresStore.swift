import Foundation
public import ProgressStore
import Synchronization

/// The store of several nodes: one PostgreSQL database that every node writes to and reads
/// from (docs/architecture.md, "Several nodes").
///
/// An append is acknowledged once its events are committed in PostgreSQL: each node's committers
/// take every append waiting and commit them in one transaction — the ids into `rp_ids` (a repeat
/// counts once whichever node it reaches), the counted events as one row of `rp_log`. Folding
/// moves the log into per-(article, reader, day) rows and per-article counters; any node folds
/// (one at a time), and a read first folds what the log holds, so that it sees every event
/// acknowledged before it began, on any node. The node itself holds nothing but connections:
/// its memory does not grow with the history the database holds.
///
/// `init` connects, migrates and runs the upkeep, and starts no thread; ``start()`` makes
/// today's and tomorrow's salts and starts the committers and the folder; ``close()`` drains
/// and joins them. The threads hold the store's parts, never the store.
public final class PostgresStore: ProgressStore {
    /// Tuning and test hooks; the defaults suit production.
    public struct Options: Sendable {
        /// Connections for reads, erasures and salts.
        public var readConnections: Int
        /// Connections that commit appends, each a group at a time.
        public var committers: Int
        /// How long an event id is remembered (24 hours).
        public var idRetentionMs: Int64
        /// UTC days kept, today's included; 0 keeps every day.
        public var retentionDays: Int
        /// The wall clock in ms since the epoch.
        public var clock: @Sendable () -> Int64
        /// Where the store says what went wrong in the background (a fold that failed).
        public var logger: StoreLogger
        /// Readers past which an article keeps counters by day (``DayCounting``), as
        /// ``CounterPolicy/postgres`` has it. Tests raise it to see an article cross it between
        /// two checks.
        package var dayCountersFrom = CounterPolicy.postgres.dayCountersFrom

        public init(
            readConnections: Int = 4, committers: Int = 2, idRetentionMs: Int64 = 86_400_000,
            retentionDays: Int = 0,
            clock: @escaping @Sendable () -> Int64 = wallClockMs,
            logger: @escaping StoreLogger = silentStoreLogger
        ) {
            self.readConnections = readConnections
            self.committers = committers
            self.idRetentionMs = idRetentionMs
            self.retentionDays = retentionDays
            self.clock = clock
            self.logger = logger
        }
    }

    let options: Options
    let pool: ConnectionPool
    let readQueue = DispatchQueue(label: "reading-progress.postgres.reads", attributes: .concurrent)
    let commits: GroupCommitQueue<Append>
    private let committers: [PGConnection]
    let folder: Folder
    let flags = Flags()
    let salts = SaltCache()
    private let started = Mutex(false)

    /// Connects to the database at `uri` (a libpq connection URI), creating or migrating its
    /// tables, and runs the upkeep; throws when it cannot, or when the tables are of a newer
    /// release. Starts no thread: ``start()`` does.
    public init(uri: String, options: Options = Options()) throws(StoreError) {
        self.options = options
        let reconnection = Reconnection()
        let first = try PGConnection(uri: uri, reconnection: reconnection, connectNow: true)
        try PostgresSchema.migrate(first)
        first.close()
        pool = try ConnectionPool(uri: uri, size: options.readConnections, reconnection: reconnection)
        var committers: [PGConnection] = []
        for _ in 0..<max(1, options.committers) {
            committers.append(try PGConnection(uri: uri, reconnection: reconnection))
        }
        self.committers = committers
        commits = GroupCommitQueue(
            name: "postgres committer", workers: committers.count, maxWeight: 20_000,
            weight: { $0.events.count })
        folder = Folder(pool: pool, options: options, salts: salts, flags: flags)
        try Self.upkeep(pool: pool, options: options)
    }

    /// Connects to the database at `uri` (see ``init(uri:options:)``) and starts the store.
    public static func open(uri: String, options: Options = Options()) throws(StoreError) -> PostgresStore {
        let store = try PostgresStore(uri: uri, options: options)
        try store.start()
        return store
    }

    /// Makes today's and tomorrow's salts, so that deriving a reader id waits on no write, and
    /// starts the committers and the folder. Call once.
    public func start() throws(StoreError) {
        guard
            !started.withLock({ started in
                defer { started = true }
                return started
            })
        else { return }
        try folder.makeSaltsAhead()
        let (committers, options, flags, folder) = (self.committers, self.options, self.flags, self.folder)
        commits.start(
            process: { worker, group in
                Self.commit(group, on: committers[worker], options: options, flags: flags, folder: folder)
            },
            finish: { worker in committers[worker].close() })
        folder.start()
    }

    /// A store dropped without ``close()`` still stops its threads; the service always closes it.
    deinit {
        close()
    }

    var isClosed: Bool { flags.closed.load(ordering: .acquiring) }

    /// Writable while the last commit took; its problem: why folding keeps failing, while it does.
    public var health: StoreHealth {
        StoreHealth(
            isWritable: flags.writable.load(ordering: .relaxed) && !isClosed,
            problem: folder.failure.map { "folding the log failing: \($0)" })
    }

    func markWritable(_ value: Bool) { flags.writable.store(value, ordering: .relaxed) }

    // MARK: - Appends

    public func append(
        _ events: [EventRecord], completion: @escaping @Sendable (Result<AppendResult, StoreError>) -> Void
    ) {
        guard !isClosed, commits.enqueue(Append(events: events, completion: completion)) else {
            completion(.failure(.closed))
            return
        }
    }

    /// Retention, forgetting expired ids and salts, and the listing's ranges refreshed (so that a
    /// deleted article's id leaves them): at start-up and hourly.
    static func upkeep(pool: ConnectionPool, options: Options) throws(StoreError) {
        let now = options.clock()
        try pool.withConnection { (connection) throws(StoreError) in
            try connection.execute(
                "DELETE FROM rp_ids WHERE seen_ms <= $1", [.int(now - options.idRetentionMs)])
            let today = UTCDay.of(ms: now)
            try connection.execute(
                "DELETE FROM rp_salts WHERE day < $1", [.int(Int64(DailySalt.oldestKept(today: today)))])
            if options.retentionDays > 0 {
                let firstKept = today - Int32(clamping: options.retentionDays) + 1
                try connection.transaction { () throws(StoreError) in
                    _ = try Folding.lock(connection, wait: true)
                    try Folding.foldAll(connection, dayCountersFrom: options.dayCountersFrom)
                    try Erasing.dropDays(before: firstKept, on: connection)
                }
            }
            try ListingRanges.refreshAll(on: connection)
        }
    }

    // MARK: - The rest of the protocol

    public func probe(completion: @escaping @Sendable (Bool) -> Void) {
        readQueue.async { [self] in
            // The probe's answer is whether it got through; why not, the next write reports.
            let ok =
                (try? pool.withConnection { (connection) throws(StoreError) in
                    try connection.execute("SELECT 1")
                }) != nil
            markWritable(ok)
            completion(ok)
        }
    }

    public func version(of article: String) -> UInt64? { nil }

    public func report(completion: @escaping @Sendable (StoreReport) -> Void) {
        readQueue.async { [self] in
            // `/metrics` answers without the figures it cannot read (the size unknown, the
            // gauge 0) rather than failing: a scrape must not fail because the database does.
            let figures = try? pool.withConnection { (connection) throws(StoreError) -> (Int64, Int64) in
                let rows = try connection.execute(
                    "SELECT pg_database_size(current_database()), (SELECT count(*) FROM rp_log)")
                return (try rows.int64(0, 0), try rows.int64(0, 1))
            }
            completion(
                StoreReport(
                    sizeBytes: figures?.0,
                    gauges: [
                        StoreGauge(
                            name: "log_rows", help: "Commits in rp_log not folded yet.",
                            value: Double(figures?.1 ?? 0))
                    ]))
        }
    }

    /// How long ``close()`` waits for the committers, the folder and the connections in use.
    static let stopSeconds = 10.0

    /// Commits every append queued (the committers drain the queue), stops the folder, then
    /// closes the connections, each wait bounded by ``stopSeconds`` (logged when one runs out).
    public func close() {
        guard !flags.closed.exchange(true, ordering: .acquiringAndReleasing) else { return }
        if !commits.close(within: Self.stopSeconds) {
            options.logger("the PostgreSQL committers did not stop within \(Self.stopSeconds) s")
        }
        if !folder.stop(within: Self.stopSeconds) {
            options.logger("the PostgreSQL folder did not stop within \(Self.stopSeconds) s")
        }
        if !pool.close(within: Self.stopSeconds) {
            options.logger("PostgreSQL connections were still in use \(Self.stopSeconds) s after closing")
        }
    }
}
