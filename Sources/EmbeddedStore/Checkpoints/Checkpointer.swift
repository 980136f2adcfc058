import Foundation
import ProgressStore

/// Saves the in-memory index into the SQLite database, in the background, so that the journal
/// can be cut and a restart loads articles whole instead of replaying events.
///
/// A checkpoint writes one row per changed article (`snapshots`: the article's records,
/// encoded), the ids of the last 24 hours, and `folded_seq` — the last journal entry they
/// include — in ONE transaction (fsynced: `synchronous=FULL`), then removes the journal
/// segments before it. A crash at any point leaves either the previous checkpoint and the whole
/// journal after it, or the new one: start-up loads the snapshots and replays the entries after
/// `folded_seq`, so no event is lost or counted twice.
///
/// The work is in proportion to the articles that changed, not to the events: an article with
/// a million readers costs the same whether it had one new event or a million. Checkpoints run
/// when the journal has grown to ``replayBoundBytes`` — replaying an event costs a restart more
/// than loading a saved reader does, so the journal is kept short rather than let grow as large
/// as the saved articles —, at most ``Options/checkpointIntervalMs`` after the last one when
/// anything changed, and at ``stop()``. The thread runs at nice 10: catch-up work, never ahead
/// of answering; past ``catchUpBytes`` (a burst into a very large article outruns it) a second
/// thread, at the answering threads' priority, takes the checkpoints over until the journal is
/// short again.
final class Checkpointer: @unchecked Sendable {
    let state: SQLiteConnection
    let options: EmbeddedStore.Options
    private let folded: Locked<Int64>
    /// Why the last checkpoint failed, or `nil` when it did not (the journal keeps everything
    /// meanwhile).
    let failure = Locked<String?>(nil)
    /// The last journal seq whose events are in the database.
    var foldedSeq: Int64 { folded.current }

    /// Serialises checkpoints (the thread's, ``stop()``'s and tests') and guards below.
    private let checkpointLock = NSLock()
    /// Each article's version as the last checkpoint saved it.
    private var saved: [ExactKey: UInt64] = [:]
    /// Articles whose snapshot is in parts (see ``writeSnapshot(name:hadParts:in:encode:)``).
    var parted: Set<ExactKey> = []
    /// The sources in the `sources` table, `(direct)` and `(other)` counted.
    var savedSourceCount = 2
    /// Ids captured for checkpoints that failed, to save with the next.
    private var pendingIDs = IDKeyList()
    /// Erasures and erased articles captured for checkpoints that failed, for the next.
    private var pendingErasures: [Erasure] = []
    private var pendingErasedArticles: Set<ExactKey> = []
    private var lastCheckpointMs: Int64

    private var journal: EventJournal?
    private var capture: (@Sendable ([ExactKey: UInt64]) -> CheckpointCapture)?
    /// Hourly upkeep (retention, salts); true when it changed what a checkpoint saves.
    private var upkeep: (@Sendable () -> Bool)?
    /// Work done on every wake, about once a second, that must be cheap when there is nothing to do.
    private var tick: (@Sendable () -> Void)?
    private var lastUpkeepMs: Int64 = 0
    /// The journal that makes a checkpoint due whatever the time: about a million events, which
    /// a restart replays in about a second (docs/performance.md, "Restart at 10 million pairs").
    /// The default of ``Options/checkpointJournalBytes``, which tests lower.
    static let replayBoundBytes: Int64 = 64 << 20
    /// The journal past which checkpoints run on the catch-up thread, at the priority of the
    /// threads that answer: a burst into a very large article outruns a nice-10 thread, and
    /// what it has not saved a restart replays.
    var catchUpBytes: Int64 { 2 * options.checkpointJournalBytes }
    /// How often ``upkeep`` runs.
    static let upkeepIntervalMs: Int64 = 3_600_000
    // `condition` guards `stopping`.
    let condition = NSCondition()
    var stopping = false
    private var thread: Thread?
    private var catchUpThread: Thread?
    private let stopped = DispatchSemaphore(value: 0)

    init(state: SQLiteConnection, options: EmbeddedStore.Options) throws(StoreError) {
        self.state = state
        self.options = options
        folded = Locked(
            try state.integer("SELECT coalesce((SELECT value FROM meta WHERE key = 'folded_seq'), 0)"))
        lastCheckpointMs = options.clock()
    }

    /// Marks what `index` holds now as saved (after ``restore(into:)``, before the
    /// journal is replayed into it).
    func markSaved(_ index: MemoryIndex) {
        checkpointLock.withLock { saved = index.versionsByArticle() }
    }

    /// Starts the thread: checkpoints of what `capture` takes, `upkeep` every hour (start-up
    /// has just done its share) and `tick` about every second.
    func start(
        journal: EventJournal, capture: @escaping @Sendable ([ExactKey: UInt64]) -> CheckpointCapture,
        upkeep: (@Sendable () -> Bool)? = nil, tick: (@Sendable () -> Void)? = nil
    ) {
        self.journal = journal
        self.capture = capture
        self.upkeep = upkeep
        self.tick = tick
        lastUpkeepMs = options.clock()
        // The thread holds the checkpointer (not the store) until ``stop(within:saving:)``.
        let thread = Thread { [self] in
            run()
            stopped.signal()
        }
        thread.name = "EmbeddedStore checkpointer"
        self.thread = thread
        // Started from this thread, it keeps its priority (a thread can raise its nice value but,
        // without privileges, never lower it again).
        let catchUp = Thread { [self] in
            catchUpWhenBehind(journal)
            stopped.signal()
        }
        catchUp.name = "EmbeddedStore checkpoint catch-up"
        catchUpThread = catchUp
        thread.start()
        catchUp.start()
    }

    /// Stops the thread, waiting up to `seconds` for a checkpoint under way, and (unless
    /// `saving` is false) saves a last checkpoint, so that the next start replays nothing.
    /// Whether the thread stopped in time; if not, it is left to finish (it still uses the
    /// database) and what it has not saved is in the journal.
    @discardableResult
    func stop(within seconds: Double = .infinity, saving: Bool = true) -> Bool {
        condition.lock()
        stopping = true
        condition.broadcast()
        condition.unlock()
        if thread != nil {
            let deadline = DispatchTime.now() + min(seconds, 1e9)
            guard stopped.wait(timeout: deadline) == .success, stopped.wait(timeout: deadline) == .success
            else {
                options.logger(
                    "the checkpointer did not stop within \(seconds) s: its work waits in the journal")
                return false
            }
        }
        thread = nil
        catchUpThread = nil
        if saving {
            do throws(StoreError) {
                try checkpointNow()
            } catch {
                // Nothing is lost: the journal keeps what the checkpoint would have saved.
                options.logger("the last checkpoint failed (the journal keeps its events): \(error)")
            }
        }
        state.close()
        return true
    }

    /// Each article's version as the last checkpoint saved it.
    var savedVersions: [ExactKey: UInt64] { checkpointLock.withLock { saved } }

    /// Has the next checkpoint save `ids` too (ids start-up found in the journal, in no chunk
    /// yet), and take the ids `erasures` name (erasures start-up replayed) out of the chunks.
    func saveWithNext(_ ids: IDKeyList, erasures: [Erasure] = []) {
        checkpointLock.withLock {
            pendingIDs.append(contentsOf: ids)
            pendingErasures += erasures
        }
    }

    /// Takes a checkpoint now if anything changed since the last one.
    func checkpointNow() throws(StoreError) {
        guard let capture else { return }
        checkpointLock.lock()
        defer { checkpointLock.unlock() }
        let taken = capture(saved)
        guard
            taken.seq > foldedSeq || !taken.articles.isEmpty || !taken.erasedArticles.isEmpty
                || !pendingErasures.isEmpty || !pendingErasedArticles.isEmpty
        else {
            pendingIDs.append(contentsOf: taken.newIDs)
            pendingErasures += taken.erasures
            return
        }
        try save(taken)
    }

    /// Saves a capture made outside the writer (start-up, before there is one).
    func checkpoint(_ taken: CheckpointCapture) throws(StoreError) {
        checkpointLock.lock()
        defer { checkpointLock.unlock() }
        try save(taken)
    }

    /// Callers hold `checkpointLock`.
    private func save(_ taken: CheckpointCapture) throws(StoreError) {
        let horizon = options.clock() - options.idRetentionMs
        let erasures = pendingErasures + taken.erasures
        let erasedArticles = pendingErasedArticles.union(taken.erasedArticles)
        var ids = pendingIDs
        ids.append(contentsOf: taken.newIDs)
        ids = ids.seen(after: horizon)
        if !erasures.isEmpty { ids = ids.filter { key in !erasures.contains { $0.covers(key: key) } } }
        // The articles this save puts in parts.
        let partSize = Self.partSize(options.snapshotPartBytes)
        var split: Set<ExactKey> = []
        do throws(StoreError) {
            try state.transaction { () throws(StoreError) in
                // First, so that an article erased and begun again is saved as it is now.
                for name in erasedArticles where !taken.articles.contains(where: { $0.key == name }) {
                    try Self.deleteSnapshot(name: name.string, in: state)
                }
                if !erasures.isEmpty { try Self.eraseIDs(of: erasures, in: state) }
                // Encoded as written, a part at a time (10M readers encode to ~470 MB); encoding
                // reads the captured snapshots, which nothing else touches.
                for article in taken.articles {
                    let size = try Self.writeSnapshot(
                        name: article.key.string, hadParts: parted.contains(article.key), in: state
                    ) { (sink) throws(StoreError) in
                        try MemoryIndex.encode(article, seq: taken.seq, pieceBytes: partSize, into: sink)
                    }
                    if size > partSize { split.insert(article.key) }
                    try Self.writeSections(name: article.key.string, article.index.sections, in: state)
                }
                let meta = try state.cached(
                    "INSERT INTO meta (key, value) VALUES (?1, ?2) "
                        + "ON CONFLICT (key) DO UPDATE SET value = excluded.value")
                try meta.bind(1, "folded_seq")
                try meta.bind(2, max(taken.seq, foldedSeq))
                try meta.run()
                try Self.saveIDs(ids, forgettingThrough: horizon, in: state)
                try Self.saveSources(taken.sources, from: savedSourceCount, in: state)
            }
        } catch {
            pendingIDs = ids
            pendingErasures = erasures
            pendingErasedArticles = erasedArticles
            // A commit that reported failure may still have written parts: look for spare
            // ones when these articles are saved next.
            parted.formUnion(split)
            throw error
        }
        savedSourceCount = max(savedSourceCount, taken.sources.count)
        pendingIDs = IDKeyList()
        pendingErasures = []
        pendingErasedArticles = []
        for name in erasedArticles {
            saved[name] = nil
            parted.remove(name)
        }
        folded.withLock { $0 = max($0, taken.seq) }
        for article in taken.articles { saved[article.key] = article.version }
        for article in taken.articles { parted.remove(article.key) }
        parted.formUnion(split)
        lastCheckpointMs = options.clock()
        // Left in SQLite's write-ahead log, a large save (hundreds of MB) would be read again by a
        // restart after a crash; copied into the database and cut, it is not. Best effort: the
        // commit is in the log either way, and a restart reads it from there.
        do throws(StoreError) {
            try state.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        } catch {
            options.logger("cannot move the checkpoint out of SQLite's write-ahead log: \(error)")
        }
        journal?.removeSegments(foldedThrough: foldedSeq)
    }

    private func run() {
        // Checkpoints are catch-up work: on a busy machine they should take a small share of
        // the cores (at nice 10 about a tenth of a nice-0 thread's), not compete with
        // answering. On Linux a nice value set with `who` 0 is the calling thread's alone.
        #if os(Linux)
            _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, 10)
        #endif
        while true {
            condition.lock()
            if !stopping { _ = condition.wait(until: Date().addingTimeInterval(1)) }
            let done = stopping
            condition.unlock()
            if done { return }
            tick?()
            var changed = false
            if let upkeep, options.clock() - lastUpkeepMs >= Self.upkeepIntervalMs {
                lastUpkeepMs = options.clock()
                changed = upkeep()
            }
            guard let journal, changed || isDue(journal) else { continue }
            checkpointNoting()
        }
    }

    private func isDue(_ journal: EventJournal) -> Bool {
        let lastMs = checkpointLock.withLock { lastCheckpointMs }
        // Past ``catchUpBytes`` the catch-up thread has it.
        let size = journal.sizeBytes
        if size >= options.checkpointJournalBytes { return size < catchUpBytes }
        return journal.upcomingSeq - 1 > foldedSeq && options.clock() - lastMs >= options.checkpointIntervalMs
    }
}
