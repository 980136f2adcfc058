import Foundation

/// The embedded store: an event journal that makes each acknowledgement durable, and one
/// SQLite database file in WAL mode that the journal's entries are folded into.
///
/// ``append(_:completion:)`` deduplicates, writes the counted events to the journal as one
/// entry (one `write(2)`), folds them into the in-memory index every read is served from, and
/// completes — on the calling thread, before it returns, unless every commit is fsynced (then
/// on the sync thread, after the group's `fdatasync`). A folder thread moves journal entries
/// into `reader_days` in the background; start-up restores `reader_days` and replays the
/// journal entries after `folded_seq`.
///
/// Completions may run on the sync thread: keep them short.
public final class SQLiteStore: ProgressStore {
    /// The path given to `init`, or `:memory:`.
    public let path: String
    private let isInMemory: Bool
    private let journal: EventJournal
    private let writer: SQLiteWriter
    private let folder: SQLiteFolder
    /// Every statistic is read from here; SQLite is where it survives restarts.
    let index = MemoryIndex()
    private let writable = Locked(true)
    private let closed = Locked(false)

    /// Opens (creating if needed, with its parent folder) the database at `path`; `:memory:`
    /// makes a private in-memory database that lives until ``close()``.
    public convenience init(path: String) throws(StoreError) {
        try self.init(path: path, options: Options())
    }

    /// Like ``init(path:)``, capping the event journal at `journalCapacityBytes` (a test hook
    /// that simulates a full disk; 0 refuses every append).
    public convenience init(path: String, journalCapacityBytes: Int64?) throws(StoreError) {
        try self.init(path: path, options: Options(journalCapacityBytes: journalCapacityBytes))
    }

    /// Opens the database at `path` with `options`.
    public init(path: String, options: Options) throws(StoreError) {
        self.path = path
        self.isInMemory = path == ":memory:"
        let (stateName, plainPath) = try Self.filenames(for: path)

        let state = try SQLiteConnection(filename: stateName, busyTimeoutMs: options.busyTimeoutMs)
        if !isInMemory {
            try state.execute("PRAGMA journal_mode = WAL")
            // The folder removes journal segments once their state commit is in; without an
            // fsync of that commit, a power cut could keep the removal and lose the entries it
            // relied on. Folding is off the answer's path, so the fsync per batch costs no
            // request anything.
            try state.execute("PRAGMA synchronous = FULL")
        }
        // The folder upserts reader days in random order: a page cache of 64 MiB keeps the
        // upper levels of the tree and the recently touched leaves, without holding a copy of
        // what the in-memory index already holds (the page cache counts in resident memory).
        try state.execute("PRAGMA cache_size = -65536")
        try SQLiteSchema.migrate(state)

        let folder = try SQLiteFolder(state: state, options: options)
        if let plainPath { try Self.foldLegacyLog(of: plainPath, with: folder, options: options) }
        let journal = try EventJournal(
            databasePath: plainPath, minimumSeq: folder.foldedSeq, syncs: options.fsyncEachCommit)
        journal.setCapacity(options.journalCapacityBytes)
        try Self.restore(index, from: state)
        var recentIDs = try Self.recentIDs(in: state, since: options.clock() - options.idRetentionMs)
        try Self.replay(journal, after: folder.foldedSeq, into: index, recentIDs: &recentIDs)

        self.journal = journal
        self.folder = folder
        writer = SQLiteWriter(
            journal: journal, options: options, writable: writable, index: index, folder: folder,
            recentIDs: recentIDs)
        folder.start(journal: journal)
    }

    deinit {
        close()
    }

    /// Counts, journals and indexes `events`; see ``ProgressStore/append(_:completion:)``.
    /// After ``close()`` the completion gets ``StoreError/closed`` at once.
    public func append(
        _ events: [EventRecord],
        completion: @escaping @Sendable (Result<AppendResult, StoreError>) -> Void
    ) {
        writer.append(events, completion: completion)
    }

    /// Whether the last journal write succeeded. It turns false when an append fails (disk
    /// full, I/O error) and true again at the next successful write — of an append or of a
    /// ``probe(completion:)``.
    public var isWritable: Bool {
        writable.current && !closed.current
    }

    /// Writes an empty journal entry and reports whether it took, updating ``isWritable``. For
    /// `/healthz` when no events arrive: otherwise a store that failed once would stay
    /// "unwritable" until the next append, which a load balancer that has taken the node out of
    /// service would never send. It shows that a small write succeeds, not that there is room
    /// for a large one.
    public func probe(completion: (@Sendable (Bool) -> Void)? = nil) {
        let ok = writer.probe()
        completion?(ok)
    }

    /// Caps the event journal at `bytes` (`nil`: no cap) — a test hook to fill the store and
    /// free it again; 0 refuses every append.
    public func setJournalCapacity(_ bytes: Int64?) {
        journal.setCapacity(bytes)
    }

    /// Folds the rows an event log of an earlier release (`<path>-events`, a SQLite database)
    /// left unfolded, then removes it: each batch commits with `folded_seq`, so a crash midway
    /// folds nothing twice.
    static func foldLegacyLog(of path: String, with folder: SQLiteFolder, options: Options) throws(StoreError)
    {
        let name = path + "-events"
        guard FileManager.default.fileExists(atPath: name) else { return }
        let log = try SQLiteConnection(filename: name, busyTimeoutMs: options.busyTimeoutMs)
        let rows = try log.cached(
            "SELECT seq, committed_ms, events FROM event_log WHERE seq > ?1 ORDER BY seq LIMIT 256")
        while true {
            try rows.bind(1, folder.foldedSeq)
            var entries: [EventJournal.Entry] = []
            while try rows.step() {
                entries.append(
                    EventJournal.Entry(
                        seq: rows.int64(0), committedMs: rows.int64(1), payload: Array(rows.blob(2))))
            }
            rows.reset()
            if entries.isEmpty { break }
            try folder.fold(entries)
        }
        log.close()
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: name + suffix) }
    }

    var committedSeqValue: Int64 { journal.upcomingSeq - 1 }
    var folderSeq: Int64 { folder.foldedSeq }
    var folderFailing: Bool { folder.failing.current }

    /// Throws ``StoreError/closed`` once ``close()`` has begun.
    func requireOpen() throws(StoreError) {
        if closed.current { throw StoreError.closed }
    }

    /// Blocks until the folder has moved everything committed so far into `reader_days` (a
    /// test hook: what is in the log and what is folded are otherwise none of a caller's concern).
    func waitUntilFolded() {
        let target = committedSeqValue
        for _ in 0..<2_000 where folder.foldedSeq < target {
            usleep(5_000)
        }
    }

    /// Bytes on disk: the state database, its write-ahead log and the event journal (0 for
    /// memory stores).
    public var sizeBytes: Int64 {
        guard !isInMemory else { return 0 }
        return [path, path + "-wal"].reduce(journal.sizeBytes) { total, file in
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
        writer.close()
        folder.stop()
        journal.close()
    }

    /// The name SQLite opens for the state database of `path` (connections open with
    /// `SQLITE_OPEN_URI`), and the plain path the journal's files start with (`nil` in memory).
    private static func filenames(for path: String) throws(StoreError) -> (state: String, plain: String?) {
        if path == ":memory:" {
            // The memdb VFS gives each name its own in-memory database.
            return ("file:/reading-progress-\(UUID().uuidString)?vfs=memdb", nil)
        }
        let url = URL(fileURLWithPath: path)
        do {
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        } catch {
            throw StoreError(code: 0, message: "cannot create the folder of \(path): \(error)")
        }
        // A plain path that happens to start with "file:" must not be read as a URI.
        return (path.hasPrefix("file:") ? "./" + path : path, url.path)
    }
}
