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
    private let readPool: SQLiteReadPool
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
        let filename = try Self.filename(for: path)

        let writeConnection = try SQLiteConnection(filename: filename, busyTimeoutMs: options.busyTimeoutMs)
        if !isInMemory {
            // WAL: readers keep reading the last commit while the writer writes.
            // synchronous=NORMAL (the default): a commit is written to the WAL file before its
            // completion runs, so it survives the process being killed (SPEC §4's promise),
            // but the WAL is fsynced only at checkpoints, so a power cut may lose the last
            // commits. FULL fsyncs every commit (about 9 ms on this machine's disk), which
            // caps a 64-connection load near 7,000 requests/s even with group commit.
            try writeConnection.execute("PRAGMA journal_mode = WAL")
            try writeConnection.execute("PRAGMA synchronous = \(options.fsyncEachCommit ? "FULL" : "NORMAL")")
            // Reader days are upserted in reader order, which is random: keep the hot part of
            // the tree in memory (256 MiB at most) rather than re-reading pages per event.
            try writeConnection.execute("PRAGMA cache_size = -262144")
        }
        try SQLiteSchema.migrate(writeConnection)
        if let pages = options.maxPageCount {
            try writeConnection.execute("PRAGMA max_page_count = \(pages)")
        }

        var readers: [SQLiteConnection] = []
        for _ in 0..<max(1, options.readConnections) {
            let reader = try SQLiteConnection(filename: filename, busyTimeoutMs: options.busyTimeoutMs)
            try reader.execute("PRAGMA query_only = 1")
            readers.append(reader)
        }
        readPool = SQLiteReadPool(connections: readers)

        let writer = SQLiteWriter(connection: writeConnection, options: options, writable: writable)
        queue = GroupCommitQueue(
            name: "SQLiteStore writer", process: { writer.process($0) }, finish: { writer.finish() })
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

    /// Bytes on disk: the database file plus its write-ahead log (for memory stores, the pages).
    public var sizeBytes: Int64 {
        if isInMemory {
            let bytes = try? readPool.withConnection { connection throws(StoreError) in
                try connection.integer("PRAGMA page_count") * connection.integer("PRAGMA page_size")
            }
            return bytes ?? 0
        }
        return [path, path + "-wal"].reduce(0) { total, file in
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
        readPool.close()
    }

    /// Reads run here, on a pooled read connection.
    func read<Result>(_ body: (SQLiteConnection) throws(StoreError) -> Result) throws(StoreError) -> Result {
        try readPool.withConnection(body)
    }

    /// The name SQLite opens for `path` (connections open with `SQLITE_OPEN_URI`).
    private static func filename(for path: String) throws(StoreError) -> String {
        if path == ":memory:" {
            // The memdb VFS shares one in-memory database among the connections that name it
            // (a leading "/"), so the read pool sees what the writer commits.
            return "file:/reading-progress-\(UUID().uuidString)?vfs=memdb"
        }
        let url = URL(fileURLWithPath: path)
        do {
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        } catch {
            throw StoreError(code: 0, message: "cannot create the folder of \(path): \(error)")
        }
        // A plain path that happens to start with "file:" must not be read as a URI.
        return path.hasPrefix("file:") ? "./" + path : path
    }
}
