import Foundation
public import ProgressStore

/// The embedded store: an event journal that makes each acknowledgement durable, and one
/// SQLite database file in WAL mode where checkpoints save the in-memory index.
///
/// ``append(_:completion:)`` deduplicates, writes the counted events to the journal as one
/// entry (copied into its shared mapping), folds them into the in-memory index every read is
/// served from, and completes — on the calling thread, before it returns, unless every commit
/// is fsynced (then on the sync thread, after the group's `fdatasync`). A checkpointer thread
/// saves the articles that changed into the database and cuts the journal; start-up loads the
/// saved articles and replays the journal entries after the checkpoint.
///
/// Completions may run on the sync thread: keep them short.
public final class EmbeddedStore: ProgressStore {
    /// The path given to `init`, or `:memory:`.
    public let path: String
    let options: Options
    private let isInMemory: Bool
    let journal: EventJournal
    let writer: StoreWriter
    private let checkpointer: Checkpointer
    /// The daily salts of derived reader ids.
    let salts: SaltBook
    /// Every statistic is read from here; SQLite is where it survives restarts.
    let index = MemoryIndex()
    /// Folds over many readers or articles run here, off the caller's thread.
    let readQueue = DispatchQueue(label: "reading-progress.embedded-store.reads", attributes: .concurrent)
    private let writable = Flag(true)
    private let closed = Locked(false)
    /// An exclusive `flock` on `<path>.lock`, held while open: two processes appending to one
    /// journal and checkpointing into one database would lose events. (`nil` in memory.) Let go
    /// of at ``close()``, and when an `init` that took it fails.
    private let lockFile: LockFile?

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
        self.options = options
        self.isInMemory = path == ":memory:"
        let (stateName, plainPath) = try Self.filenames(for: path)
        lockFile = try plainPath.map(LockFile.init)

        let state = try SQLiteConnection(filename: stateName, busyTimeoutMs: options.busyTimeoutMs)
        if !isInMemory {
            try state.execute("PRAGMA journal_mode = WAL")
            // A checkpoint removes journal segments once its commit is in; without an fsync of
            // that commit, a power cut could keep the removal and lose the entries it relied on.
            // Checkpoints are off the answer's path, so the fsync costs no request anything.
            try state.execute("PRAGMA synchronous = FULL")
        }
        try Schema.migrate(state)
        // Erased ids and expired salts leave the file's pages too, not only its tables.
        try state.execute("PRAGMA secure_delete = ON")
        let salts = try SaltBook(filename: stateName, busyTimeoutMs: options.busyTimeoutMs)
        try salts.prune(today: UTCDay.of(ms: options.clock()))
        self.salts = salts

        let checkpointer = try Checkpointer(state: state, options: options)
        try checkpointer.restore(into: index)
        checkpointer.markSaved(index)

        let journal = try EventJournal(
            databasePath: plainPath, minimumSeq: checkpointer.foldedSeq, syncs: options.fsyncEachCommit,
            positioned: options.positionedJournalWrites)
        journal.setCapacity(options.journalCapacityBytes)
        // A checkpoint removes only segments whose entries it has folded, so the journal begins
        // at or before the first entry the database lacks — unless the database is older than
        // the journal (restored from an earlier backup): then acknowledged events are missing,
        // and starting would drop them without a word.
        let journalBegins = journal.firstSeq
        guard journalBegins <= checkpointer.foldedSeq + 1 else {
            let (from, through) = (checkpointer.foldedSeq + 1, journalBegins - 1)
            let missing = from == through ? "entry \(from) is" : "entries \(from)…\(through) are"
            journal.close()
            throw StoreError.corrupt(
                "the database has folded its event journal through entry "
                    + "\(checkpointer.foldedSeq), but the journal begins at entry \(journalBegins): "
                    + "journal \(missing) in neither (was the database restored from an older backup?). "
                    + "Restore the database and its -journal.* files from the same moment, or move the "
                    + "journal files aside to start from the database alone")
        }
        // The ids the journal adds are in no checkpoint yet: the next one saves them (the writer
        // hands it only the ids that come after).
        let (replayed, erasures) = try Self.replay(journal, after: checkpointer.foldedSeq, into: index)
        checkpointer.saveWithNext(replayed, erasures: erasures)
        let startupIDs = try Self.startupIDs(
            saved: checkpointer, replayed: replayed, erasures: erasures,
            since: options.clock() - options.idRetentionMs)
        self.journal = journal
        self.checkpointer = checkpointer
        let writer = StoreWriter(
            journal: journal, options: options, writable: writable, index: index, startupIDs: startupIDs)
        self.writer = writer
        // Days before the retention window leave at start-up: from memory here, from the files
        // with a checkpoint right away — as what replayed erasures took does.
        let expired = options.firstKeptDay(atMs: options.clock()).map { writer.dropDays(before: $0) } ?? 0
        if expired > 0 || !erasures.isEmpty,
            (try? checkpointer.checkpoint(writer.capture(changedSince: checkpointer.savedVersions))) != nil
        {
            journal.removeSegments(foldedThrough: checkpointer.foldedSeq)
        }
        checkpointer.start(
            journal: journal, capture: { saved in writer.capture(changedSince: saved) },
            upkeep: { [salts, options] in
                let now = options.clock()
                try? salts.prune(today: UTCDay.of(ms: now))
                return options.firstKeptDay(atMs: now).map { writer.dropDays(before: $0) > 0 } ?? false
            })
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

    /// Why the event journal is written with `pwrite` on the file system that holds `path` (see
    /// ``EventJournal``), or `nil` when it is written through a shared mapping: for a line at
    /// start-up.
    public static func fileSystemCaveat(path: String) -> String? {
        path == ":memory:" ? nil : EventJournal.fileSystemCaveat(databasePath: path)
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
    public func probe(completion: @escaping @Sendable (Bool) -> Void = { _ in }) {
        completion(writer.probe())
    }

    /// Caps the event journal at `bytes` (`nil`: no cap) — a test hook to fill the store and
    /// free it again; 0 refuses every append.
    public func setJournalCapacity(_ bytes: Int64?) {
        journal.setCapacity(bytes)
    }

    var committedSeqValue: Int64 { journal.upcomingSeq - 1 }
    var checkpointSeq: Int64 { checkpointer.foldedSeq }
    var checkpointFailing: Bool { checkpointer.failing.current }

    /// Whether ``close()`` has begun.
    var isClosed: Bool { closed.current }

    /// Takes a checkpoint now (a test hook: when the index is saved is otherwise none of a
    /// caller's concern).
    func checkpointNow() throws(StoreError) {
        try checkpointer.checkpointNow()
    }

    /// Bytes on disk: the state database, its write-ahead log and the event journal (0 for
    /// memory stores).
    var sizeBytes: Int64 {
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
        checkpointer.stop()
        salts.close()
        journal.close()
        lockFile?.release()
    }

    /// Lets go of everything without a last checkpoint, as if the process had been killed —
    /// a test hook for what a restart then replays.
    func abandon() {
        closed.withLock { $0 = true }
        writer.close()
        checkpointer.stop(saving: false)
        salts.close()
        journal.abandon()
        lockFile?.release()
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
            throw StoreError.configuration("cannot create the folder of \(path): \(error)")
        }
        // A plain path that happens to start with "file:" must not be read as a URI.
        return (path.hasPrefix("file:") ? "./" + path : path, url.path)
    }
}

/// The store's lock file, `<path>.lock`, with an exclusive `flock` on it; let go of by
/// ``release()`` or, at the latest, when dropped — also when the `init` that took it fails
/// further on, so that this process can try again.
private final class LockFile: Sendable {
    private let fd: Locked<Int32>

    /// Takes the lock file of the store at `path`, or explains who has it.
    init(_ path: String) throws(StoreError) {
        let fd = open(path + ".lock", O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard fd >= 0 else {
            throw StoreError.posix(
                errno, "cannot open \(path).lock: \(String(cString: strerror(errno)))")
        }
        guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
            _ = Foundation.close(fd)
            throw StoreError.posix(
                EWOULDBLOCK, "\(path) is open in another process (\(path).lock is locked)")
        }
        self.fd = Locked(fd)
    }

    deinit {
        release()
    }

    /// Unlocks and closes the file; idempotent. Unlocked first: a child process forked in the
    /// meantime shares the open file until it executes, and closing alone would leave the lock
    /// held by that share, so that the store could not be opened again at once.
    func release() {
        fd.withLock { fd in
            if fd >= 0 {
                _ = flock(fd, LOCK_UN)
                _ = Foundation.close(fd)
            }
            fd = -1
        }
    }
}
