import Foundation

/// The embedded store: one SQLite database file in WAL mode.
///
/// Writes go through a group commit: ``append(_:completion:)`` queues its events and returns;
/// one writer thread commits everything queued in one transaction and then calls the
/// completions, so a completion means the events are durable. Reads use a small pool of their
/// own connections and never wait for the writer.
///
/// Completions run on the writer thread: keep them short, and do not wait there for the store
/// (``setMaxPageCount(_:)`` from a completion would never return).
public final class SQLiteStore: ProgressStore {
    /// The path given to `init`, or `:memory:`.
    public let path: String
    private let isInMemory: Bool
    private let queue: GroupCommitQueue<WriteRequest>
    private let folder: SQLiteFolder
    /// The log sequence number of the last committed group.
    private let committedSeq = Locked<Int64>(0)
    /// Every statistic is read from here; SQLite is where it survives restarts.
    let index = MemoryIndex()
    private let writable = Locked(true)
    private let closed = Locked(false)

    /// Opens (creating if needed, with its parent folder) the database at `path`; `:memory:`
    /// makes a private in-memory database that lives until ``close()``.
    public convenience init(path: String) throws(StoreError) {
        try self.init(path: path, options: Options())
    }

    /// Like ``init(path:)``, capping the database at `maxPageCount` pages (a test hook that
    /// simulates a full disk).
    public convenience init(path: String, maxPageCount: Int?) throws(StoreError) {
        try self.init(path: path, options: Options(maxPageCount: maxPageCount))
    }

    /// Opens the database at `path` with `options`.
    public init(path: String, options: Options) throws(StoreError) {
        self.path = path
        self.isInMemory = path == ":memory:"
        let (stateName, logName) = try Self.filenames(for: path)

        let state = try SQLiteConnection(filename: stateName, busyTimeoutMs: options.busyTimeoutMs)
        try configure(state, options: options, inMemory: isInMemory)
        if !isInMemory {
            // The folder deletes log rows once their state commit is in; without an fsync of
            // that commit, a power cut could keep the delete and lose the rows it relied on.
            // Folding is off the answer's path, so the fsync per batch costs no request anything.
            try state.execute("PRAGMA synchronous = FULL")
        }
        // The folder upserts reader days in random order: a page cache of 64 MiB keeps the
        // upper levels of the tree and the recently touched leaves, without holding a copy of
        // what the in-memory index already holds (the page cache counts in resident memory).
        try state.execute("PRAGMA cache_size = -65536")
        try SQLiteSchema.migrate(state)

        let log = try SQLiteConnection(filename: logName, busyTimeoutMs: options.busyTimeoutMs)
        try configure(log, options: options, inMemory: isInMemory)
        try SQLiteSchema.migrate(log, with: SQLiteSchema.logMigrations)
        if let pages = options.maxPageCount {
            try log.execute("PRAGMA max_page_count = \(pages)")
        }
        let folderLog = try SQLiteConnection(filename: logName, busyTimeoutMs: options.busyTimeoutMs)

        let folder = try SQLiteFolder(state: state, log: folderLog, options: options)
        try Self.continueNumbering(log, after: folder.foldedSeq)
        try Self.restore(index, from: state)
        var recentIDs = try Self.recentIDs(in: state, since: options.clock() - options.idRetentionMs)
        try Self.replay(log, after: folder.foldedSeq, into: index, recentIDs: &recentIDs)
        let lastSeq = try log.integer("SELECT coalesce(max(seq), 0) FROM event_log")
        committedSeq.withLock { $0 = max(lastSeq, folder.foldedSeq) }

        let writer = SQLiteWriter(
            connection: log, options: options, writable: writable, index: index, folder: folder,
            recentIDs: recentIDs, committedSeq: committedSeq)
        self.folder = folder
        queue = GroupCommitQueue(
            name: "SQLiteStore writer", process: { writer.process($0) }, finish: { writer.finish() })
        folder.start()
    }

    deinit {
        close()
    }

    /// Queues `events` for the next group commit; see ``ProgressStore/append(_:completion:)``.
    /// After ``close()`` the completion gets ``StoreError/closed`` at once.
    public func append(
        _ events: [EventRecord],
        completion: @escaping @Sendable (Result<AppendResult, StoreError>) -> Void
    ) {
        if !queue.enqueue(.append(events, completion: completion)) {
            completion(.failure(.closed))
        }
    }

    /// Whether the last transaction the writer tried committed. It turns false when a group
    /// fails (disk full, I/O error, file moved or read-only) and true again at the next
    /// successful commit — of an append or of a ``probe(completion:)``.
    public var isWritable: Bool {
        writable.current && !closed.current
    }

    /// Commits a one-row transaction (a heartbeat in the `meta` table) through the writer and
    /// reports whether it took, updating ``isWritable``. For `/healthz` when no events arrive:
    /// otherwise a store that failed once would stay "unwritable" until the next append, which
    /// a load balancer that has taken the node out of service would never send.
    ///
    /// The heartbeat rewrites one row in place, so it shows that a transaction can commit
    /// (WAL append, fsync, file still there and writable), not that there is room to grow.
    public func probe(completion: (@Sendable (Bool) -> Void)? = nil) {
        if !queue.enqueue(.probe(completion: completion ?? { _ in })) {
            completion?(false)
        }
    }

    /// Sets `PRAGMA max_page_count` of the write connection (`nil`: SQLite's maximum), between
    /// two groups, and waits until it is set. A test hook to fill the database and free it again.
    /// Throws rather than deadlock when called from a completion (on the writer thread).
    public func setMaxPageCount(_ pages: Int?) throws(StoreError) {
        guard !queue.isCurrentThread else {
            throw StoreError(code: 0, message: "setMaxPageCount called from the writer thread")
        }
        let done = DispatchSemaphore(value: 0)
        let outcome = Locked<Result<Void, StoreError>>(.failure(.closed))
        let body: @Sendable (SQLiteConnection) throws(StoreError) -> Void = { connection throws(StoreError) in
            // SQLite clamps the value to its compile-time maximum.
            try connection.execute("PRAGMA max_page_count = \(pages ?? Int(Int32.max))")
        }
        let queued = queue.enqueue(
            .configure(
                body,
                completion: { result in
                    outcome.withLock { $0 = result }
                    done.signal()
                }))
        guard queued else { throw StoreError.closed }
        done.wait()
        try outcome.current.get()
    }

    /// Makes the log number its next row after `foldedSeq`. A log that was lost or replaced
    /// (deleted as if it were a cache, or not restored with the state file) would otherwise
    /// start again at 1, below the state's mark, and its rows would be neither folded nor
    /// replayed.
    static func continueNumbering(_ log: SQLiteConnection, after foldedSeq: Int64) throws(StoreError) {
        guard foldedSeq > 0 else { return }
        try log.transaction { () throws(StoreError) in
            let current = try log.integer(
                "SELECT coalesce((SELECT seq FROM sqlite_sequence WHERE name = 'event_log'), 0)")
            guard current < foldedSeq else { return }
            try log.execute("DELETE FROM sqlite_sequence WHERE name = 'event_log'")
            try log.execute("INSERT INTO sqlite_sequence (name, seq) VALUES ('event_log', \(foldedSeq))")
        }
    }

    var committedSeqValue: Int64 { committedSeq.current }
    var folderSeq: Int64 { folder.foldedSeq }
    var folderFailing: Bool { folder.failing.current }

    /// Throws ``StoreError/closed`` once ``close()`` has begun.
    func requireOpen() throws(StoreError) {
        if closed.current { throw StoreError.closed }
    }

    /// Blocks until the folder has moved everything committed so far into `reader_days` (a
    /// test hook: what is in the log and what is folded are otherwise none of a caller's concern).
    func waitUntilFolded() {
        let target = committedSeq.current
        for _ in 0..<2_000 where folder.foldedSeq < target {
            usleep(5_000)
        }
    }

    /// Bytes on disk: the state database, the event log, and their write-ahead logs (0 for
    /// memory stores).
    public var sizeBytes: Int64 {
        guard !isInMemory else { return 0 }
        return [path, path + "-wal", path + "-events", path + "-events-wal"].reduce(0) { total, file in
            let size = (try? FileManager.default.attributesOfItem(atPath: file)[.size]) as? NSNumber
            return total + (size?.int64Value ?? 0)
        }
    }

    /// Commits everything queued, stops the writer thread and closes every connection. Later
    /// appends and reads fail with ``StoreError/closed``. Idempotent.
    public func close() {
        let wasClosed = closed.withLock { closed in
            defer { closed = true }
            return closed
        }
        guard !wasClosed else { return }
        queue.close()
        folder.stop()
    }

    /// The names SQLite opens for the state database and the event log of `path` (connections
    /// open with `SQLITE_OPEN_URI`): `path` itself and `path-events` beside it.
    private static func filenames(for path: String) throws(StoreError) -> (state: String, log: String) {
        if path == ":memory:" {
            // The memdb VFS shares one in-memory database among the connections that name it
            // (a leading "/"), so the folder sees what the writer commits.
            let name = "file:/reading-progress-\(UUID().uuidString)"
            return (name + "?vfs=memdb", name + "-events?vfs=memdb")
        }
        let url = URL(fileURLWithPath: path)
        do {
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        } catch {
            throw StoreError(code: 0, message: "cannot create the folder of \(path): \(error)")
        }
        // A plain path that happens to start with "file:" must not be read as a URI.
        let plain = path.hasPrefix("file:") ? "./" + path : path
        return (plain, plain + "-events")
    }
}

/// WAL, and the durability of a commit.
private func configure(_ connection: SQLiteConnection, options: SQLiteStore.Options, inMemory: Bool)
    throws(StoreError)
{
    guard !inMemory else { return }
    // WAL: the folder reads the log while the writer appends to it.
    // synchronous=NORMAL (the default): a commit is written to the WAL file before its
    // completion runs, so it survives the process being killed (SPEC §4's promise), but the WAL
    // is fsynced only at checkpoints, so a power cut may lose the last commits. FULL fsyncs
    // every commit (about 9 ms on this machine's disk), which caps a 64-connection load near
    // 7,000 requests/s even with group commit.
    try connection.execute("PRAGMA journal_mode = WAL")
    try connection.execute("PRAGMA synchronous = \(options.fsyncEachCommit ? "FULL" : "NORMAL")")
}
