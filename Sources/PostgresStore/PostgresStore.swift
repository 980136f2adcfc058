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

        public init(
            readConnections: Int = 4, committers: Int = 2, idRetentionMs: Int64 = 86_400_000,
            retentionDays: Int = 0,
            clock: @escaping @Sendable () -> Int64 = Options.wallClockMs
        ) {
            self.readConnections = readConnections
            self.committers = committers
            self.idRetentionMs = idRetentionMs
            self.retentionDays = retentionDays
            self.clock = clock
        }

        /// Milliseconds since the epoch by the system clock.
        @Sendable public static func wallClockMs() -> Int64 {
            Int64((Date().timeIntervalSince1970 * 1000).rounded(.down))
        }
    }

    let options: Options
    let pool: ConnectionPool
    let readQueue = DispatchQueue(label: "reading-progress.postgres.reads", attributes: .concurrent)
    private let commits = CommitQueue()
    private let running = DispatchGroup()
    private let writable = Atomic<Bool>(true)
    private let closed = Atomic<Bool>(false)
    let salts = SaltCache()
    private let uri: String

    /// Connects to the database at `uri` (a libpq connection URI), creating or migrating its
    /// tables; throws when it cannot, or when the tables are of a newer release.
    public init(uri: String, options: Options = Options()) throws(StoreError) {
        self.uri = uri
        self.options = options
        let first = try PGConnection(uri: uri, connectNow: true)
        try PostgresSchema.migrate(first)
        first.close()
        pool = try ConnectionPool(uri: uri, size: options.readConnections)
        try upkeep()
        for index in 0..<max(1, options.committers) {
            let connection = try PGConnection(uri: uri)
            start("postgres committer \(index)") { [self] in commitLoop(connection) }
        }
        start("postgres folder") { [self] in foldLoop() }
    }

    deinit {
        close()
    }

    private func start(_ name: String, _ body: @escaping @Sendable () -> Void) {
        running.enter()
        let thread = Thread { [running] in
            body()
            running.leave()
        }
        thread.name = name
        thread.start()
    }

    var isClosed: Bool { closed.load(ordering: .acquiring) }

    public var isWritable: Bool { writable.load(ordering: .relaxed) && !isClosed }

    func markWritable(_ value: Bool) { writable.store(value, ordering: .relaxed) }

    // MARK: - Appends

    public func append(
        _ events: [EventRecord], completion: @escaping @Sendable (Result<AppendResult, StoreError>) -> Void
    ) {
        guard !isClosed, commits.enqueue(CommitQueue.Append(events: events, completion: completion)) else {
            completion(.failure(.closed))
            return
        }
    }

    private func commitLoop(_ connection: PGConnection) {
        while true {
            let group = commits.take(maxEvents: 20_000)
            if group.isEmpty { break }
            let outcome = Result { () throws(StoreError) in try commit(group, on: connection) }
            switch outcome {
            case .success(let results):
                markWritable(true)
                for (append, result) in zip(group, results) { append.completion(.success(result)) }
            case .failure(let error):
                if case .postgres(nil) = error.cause { markWritable(false) }
                for append in group { append.completion(.failure(error)) }
            }
        }
        connection.close()
    }

    /// Commits `group` — in one transaction when ids must be claimed first, else in one
    /// statement — and returns each append's counts.
    private func commit(_ group: [CommitQueue.Append], on connection: PGConnection) throws(StoreError)
        -> [AppendResult]
    {
        let now = options.clock()
        let hasIDs = group.contains { $0.events.contains { $0.eventID != nil } }
        func write() throws(StoreError) -> [AppendResult] {
            let fresh = hasIDs ? try freshIDs(in: group, at: now, on: connection) : []
            var results: [AppendResult] = []
            var counted: [EventRecord] = []
            var seen: Set<Folding.IDKey> = []
            for append in group {
                var result = AppendResult(counted: 0, duplicates: 0)
                for event in append.events {
                    if let id = event.eventID {
                        let key = Folding.IDKey(article: event.article, reader: event.reader, id: id)
                        guard fresh.contains(key), seen.insert(key).inserted else {
                            result.duplicates += 1
                            continue
                        }
                    }
                    result.counted += 1
                    counted.append(event)
                }
                results.append(result)
            }
            if !counted.isEmpty {
                guard let payload = EventLogCodec.encodeIfFits(counted) else {
                    throw StoreError.configuration("an article, reader or id is longer than the log takes")
                }
                try connection.execute(
                    "INSERT INTO rp_log (committed_ms, payload) VALUES ($1, $2)",
                    [.int(now), .bytes(payload)])
            }
            return results
        }
        // A statement outside a transaction commits on its own (synchronously: durable once it
        // returns), a round trip instead of three.
        return hasIDs ? try connection.transaction(write) : try write()
    }

    /// The ids of `group` to count: new ones, and those last seen longer ago than the window;
    /// each is marked seen now. Sorted, so that two committers lock ids in one order.
    private func freshIDs(in group: [CommitQueue.Append], at now: Int64, on connection: PGConnection)
        throws(StoreError) -> Set<Folding.IDKey>
    {
        var keys: Set<Folding.IDKey> = []
        for append in group {
            for event in append.events {
                if let id = event.eventID {
                    keys.insert(Folding.IDKey(article: event.article, reader: event.reader, id: id))
                }
            }
        }
        guard !keys.isEmpty else { return [] }
        let sorted = keys.sorted()
        let rows = try connection.execute(
            """
            INSERT INTO rp_ids AS i (article, reader, id, seen_ms)
            SELECT article, reader, id, $4 FROM unnest($1::text[], $2::text[], $3::text[]) AS u (article, reader, id)
            ON CONFLICT (article, reader, id) DO UPDATE SET seen_ms = excluded.seen_ms
                WHERE i.seen_ms <= excluded.seen_ms - $5
            RETURNING article, reader, id
            """,
            [
                .textArray(sorted.map(\.article)), .textArray(sorted.map(\.reader)),
                .textArray(sorted.map(\.id)),
                .int(now), .int(options.idRetentionMs),
            ])
        return Set(
            (0..<rows.rowCount).map {
                Folding.IDKey(article: rows.string($0, 0), reader: rows.string($0, 1), id: rows.string($0, 2))
            })
    }

    // MARK: - Folding and upkeep

    /// Folds what the log holds every 50 ms (a read folds what is left before it answers), and
    /// runs the upkeep hourly. Commits send no notification: `NOTIFY` takes a lock every commit
    /// of the database waits for.
    private func foldLoop() {
        var lastUpkeep = options.clock()
        while !isClosed {
            Thread.sleep(forTimeInterval: 0.05)
            if isClosed { break }
            _ = try? pool.withConnection { (connection) throws(StoreError) in
                try foldWhatIsThere(connection, wait: false)
            }
            if options.clock() - lastUpkeep >= 3_600_000 {
                lastUpkeep = options.clock()
                try? upkeep()
            }
        }
    }

    /// Folds the log while it holds rows, a batch a transaction; with `wait` false, gives up at
    /// once when another node is folding. Whether this connection folded everything.
    @discardableResult
    func foldWhatIsThere(_ connection: PGConnection, wait: Bool) throws(StoreError) -> Bool {
        while true {
            let outcome = try connection.transaction { () throws(StoreError) -> Bool? in
                guard try Folding.lock(connection, wait: wait) else { return nil }
                return try Folding.foldPending(connection) > 0
            }
            guard let folded = outcome else { return false }
            if !folded { return true }
        }
    }

    /// Retention, and forgetting expired ids and salts: at start-up and hourly.
    func upkeep() throws(StoreError) {
        let now = options.clock()
        try pool.withConnection { (connection) throws(StoreError) in
            try connection.execute(
                "DELETE FROM rp_ids WHERE seen_ms <= $1", [.int(now - options.idRetentionMs)])
            let today = UTCDay.of(ms: now)
            try connection.execute(
                "DELETE FROM rp_salts WHERE day < $1", [.int(Int64(DailySalt.oldestKept(today: today)))])
            guard options.retentionDays > 0 else { return }
            let firstKept = today - Int32(clamping: options.retentionDays) + 1
            try connection.transaction { () throws(StoreError) in
                _ = try Folding.lock(connection, wait: true)
                try Folding.foldAll(connection)
                try Erasing.dropDays(before: firstKept, on: connection)
            }
        }
    }

    // MARK: - The rest of the protocol

    public func probe(completion: @escaping @Sendable (Bool) -> Void) {
        readQueue.async { [self] in
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
            let figures = try? pool.withConnection { (connection) throws(StoreError) -> (Int64, Int64) in
                let rows = try connection.execute(
                    "SELECT pg_database_size(current_database()), (SELECT count(*) FROM rp_log)")
                return (rows.int64(0, 0), rows.int64(0, 1))
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

    public func close() {
        guard !closed.exchange(true, ordering: .acquiringAndReleasing) else { return }
        commits.close()
        running.wait()
        pool.close()
    }
}
