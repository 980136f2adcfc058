import Foundation
public import ProgressStore

/// The embedded store: an event journal that makes each acknowledgement durable, and one
/// SQLite database file in WAL mode where checkpoints save the in-memory index.
///
/// ``append(_:completion:)`` deduplicates, writes the counted events to the journal as one
/// entry (copied into its shared mapping), folds them into the in-memory index every read is
/// served from, and completes — on the calling thread, before it returns, unless every commit
/// is fsynced (then on the sync thread, after the group's `fdatasync`). A checkpointer thread
/// saves the articles that changed into the database and cuts the journal; opening loads the
/// saved articles and replays the journal entries after the checkpoint.
///
/// `init` opens and loads, and starts no thread; ``start()`` starts the checkpointer (and the
/// sync thread when every commit is fsynced), ``close()`` stops them. ``open(path:options:)``
/// does both of the first.
///
/// Completions may run on the sync thread: keep them short.
public final class EmbeddedStore: ProgressStore {
    /// The path given to `init`, or `:memory:`.
    public let path: String
    let options: Options
    let isInMemory: Bool
    let journal: EventJournal
    let writer: StoreWriter
    let checkpointer: Checkpointer
    /// The daily salts of derived reader ids.
    let salts: SaltBook
    /// Every statistic is read from here; SQLite is where it survives restarts.
    let index: MemoryIndex
    /// Folds over many readers or articles run here, off the caller's thread.
    let readQueue = DispatchQueue(label: "reading-progress.embedded-store.reads", attributes: .concurrent)
    let writable = Flag(true)
    let closed = Locked(false)
    private let started = Locked(false)
    /// An exclusive `flock` on `<path>.lock`, held while open: two processes appending to one
    /// journal and checkpointing into one database would lose events. (`nil` in memory.) Let go
    /// of at ``close()``, and when an `init` that took it fails.
    let lockFile: LockFile?

    /// Opens the store at `path` (see ``init(path:options:)``) and starts it.
    public static func open(path: String, options: Options = Options()) throws(StoreError) -> EmbeddedStore {
        let store = try EmbeddedStore(path: path, options: options)
        try store.start()
        return store
    }

    /// Opens (creating if needed, with its parent folder) the database at `path` with
    /// `options`, loads what it holds and replays the journal; `:memory:` makes a private
    /// in-memory database that lives until ``close()``. Starts no thread: ``start()`` does.
    public init(path: String, options: Options = Options()) throws(StoreError) {
        self.path = path
        self.options = options
        self.isInMemory = path == ":memory:"
        index = MemoryIndex(sourceBound: options.sourceBound, dayCountersFrom: options.dayCountersFrom)
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
        let began = ContinuousClock.now
        // The journal is opened and checked on a thread of its own while this one loads the saved
        // articles; its entries fold in once they are loaded.
        let foldedSeq = checkpointer.foldedSeq
        let opening = JournalOpening.start { () throws(StoreError) -> EventJournal in
            let journal = try EventJournal(
                databasePath: plainPath, minimumSeq: foldedSeq, syncs: options.fsyncEachCommit,
                positioned: options.positionedJournalWrites)
            journal.setCapacity(options.journalCapacityBytes)
            // A checkpoint removes only segments whose entries it has folded, so the journal
            // begins at or before the first entry the database lacks — unless the database is
            // older than the journal (restored from an earlier backup): then acknowledged events
            // are missing, and starting would drop them without a word.
            let journalBegins = journal.firstSeq
            guard journalBegins <= foldedSeq + 1 else {
                journal.close()
                throw Self.olderDatabase(foldedSeq: foldedSeq, journalBegins: journalBegins)
            }
            return journal
        }
        do throws(StoreError) {
            try checkpointer.restore(into: index, filename: isInMemory ? nil : stateName)
        } catch {
            opening.abandon()
            throw error
        }
        let restored = ContinuousClock.now
        checkpointer.markSaved(index)
        let journal = try opening.journal()
        let opened = max(restored, opening.openedAt)
        let (replayed, erasures) = try Self.replay(journal, after: foldedSeq, into: index)
        if !isInMemory {
            // Where a start's time goes (docs/performance.md, "Restart at 10 million pairs").
            options.logger(
                "opened: saved articles loaded in \(Self.seconds(restored - began)), the journal "
                    + "checked in \(Self.seconds(opening.openedAt - began)) meanwhile, "
                    + "\(journal.upcomingSeq - 1 - foldedSeq) entries replayed in \(Self.seconds(.now - opened))"
            )
        }
        // The ids the journal adds are in no checkpoint yet: the next one saves them (the writer
        // hands it only the ids that come after).
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
        if expired > 0 || !erasures.isEmpty {
            do throws(StoreError) {
                try checkpointer.checkpoint(writer.capture(changedSince: checkpointer.savedVersions))
                journal.removeSegments(foldedThrough: checkpointer.foldedSeq)
            } catch {
                // The journal still holds the erasures; the checkpointer saves them later.
                options.logger("the checkpoint after start-up's retention and erasures failed: \(error)")
            }
        }
    }

    /// Makes today's and tomorrow's salts (so that no request waits on writing one), then starts
    /// the checkpointer — which makes each next day's salt ahead of it and runs the hourly upkeep
    /// — and, when every commit is fsynced, the sync thread. Call once.
    public func start() throws(StoreError) {
        guard
            !started.withLock({ started in
                defer { started = true }
                return started
            })
        else { return }
        try salts.prepare(today: UTCDay.of(ms: options.clock()))
        writer.start()
        let (writer, salts, options) = (self.writer, self.salts, self.options)
        checkpointer.start(
            journal: journal, capture: { saved in writer.capture(changedSince: saved) },
            upkeep: {
                let now = options.clock()
                do throws(StoreError) {
                    try salts.prune(today: UTCDay.of(ms: now))
                } catch {
                    // Tried again at the next upkeep; meanwhile an expired salt stays a little longer.
                    options.logger("cannot delete the expired salts: \(error)")
                }
                return options.firstKeptDay(atMs: now).map { writer.dropDays(before: $0) > 0 } ?? false
            },
            tick: {
                do throws(StoreError) {
                    try salts.prepare(today: UTCDay.of(ms: options.clock()))
                } catch {
                    // Tried again within a second; a request meanwhile makes the salt itself.
                    options.logger("cannot make the next day's salt ahead: \(error)")
                }
            })
    }

    /// A store dropped without ``close()`` (a test that failed half-way) still lets go of its
    /// threads and files; the service always closes its store.
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

    /// How long ``close()`` waits for the sync thread, then for a checkpoint under way.
    static let stopSeconds = 20.0

    /// Completes every append written (waiting for its fsync), stops the threads, saves a last
    /// checkpoint and closes every file, in that order, each wait bounded by ``stopSeconds``
    /// (logged when one runs out: the journal then holds what was not saved, as after a
    /// `kill -9`). Later appends and reads fail with ``StoreError/closed``. Idempotent.
    public func close() {
        let wasClosed = closed.withLock { closed in
            defer { closed = true }
            return closed
        }
        guard !wasClosed else { return }
        if !writer.close(within: Self.stopSeconds) {
            options.logger("the journal's fsync did not finish within \(Self.stopSeconds) s")
        }
        // A checkpointer still at work keeps using the files: they stay open (and locked) for it.
        guard checkpointer.stop(within: Self.stopSeconds) else { return }
        salts.close()
        journal.close()
        lockFile?.release()
    }

    static func olderDatabase(foldedSeq: Int64, journalBegins: Int64) -> StoreError {
        let (from, through) = (foldedSeq + 1, journalBegins - 1)
        let missing = from == through ? "entry \(from) is" : "entries \(from)…\(through) are"
        return StoreError.corrupt(
            "the database has folded its event journal through entry "
                + "\(foldedSeq), but the journal begins at entry \(journalBegins): "
                + "journal \(missing) in neither (was the database restored from an older backup?). "
                + "Restore the database and its -journal.* files from the same moment, or move the "
                + "journal files aside to start from the database alone")
    }

    private static func seconds(_ duration: Duration) -> String {
        let (whole, fraction) = duration.components
        return String(format: "%.2f s", Double(whole) + Double(fraction) / 1e18)
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
