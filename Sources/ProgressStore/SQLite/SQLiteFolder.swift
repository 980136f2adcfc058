import Foundation

/// Moves acknowledged entries from the event journal into `reader_days`, in the background.
///
/// Acknowledging an event costs one append to the journal; folding it into the per-reader-day
/// table, a random B-tree upsert per event, happens here, on its own thread and its own
/// connection, so that it never delays an answer. Each batch commits its upserts together with
/// `folded_seq` in the state database, so a crash at any point folds no entry twice: start-up
/// replays exactly the journal entries after `folded_seq`. Segments of the journal whose
/// entries are all folded are removed.
final class SQLiteFolder: @unchecked Sendable {
    /// Journal entries folded in one transaction at most.
    static let entriesPerBatch = 512

    private let state: SQLiteConnection
    private var journal: EventJournal?
    private var cursor: EventJournal.Cursor?
    private let options: SQLiteStore.Options
    private var articleIDs: [ExactKey: Int64] = [:]
    private let folded: Locked<Int64>
    /// Whether the last batch failed (the events wait in the log meanwhile, safe but unfolded).
    let failing = Locked(false)
    /// The last log sequence number whose events are in `reader_days`.
    var foldedSeq: Int64 { folded.current }
    private var lastPruneMs: Int64?

    // `condition` guards `stopping` and `wakeups`.
    private let condition = NSCondition()
    private var stopping = false
    private var wakeups = 0
    private var thread: Thread?
    private let stopped = DispatchSemaphore(value: 0)

    init(state: SQLiteConnection, options: SQLiteStore.Options) throws(StoreError) {
        self.state = state
        self.options = options
        folded = Locked(try Self.foldedSeq(in: state))
    }

    /// The last log sequence number whose events are in `reader_days`.
    static func foldedSeq(in state: SQLiteConnection) throws(StoreError) -> Int64 {
        try state.integer("SELECT coalesce((SELECT value FROM meta WHERE key = 'folded_seq'), 0)")
    }

    /// Starts folding what `journal` holds after ``foldedSeq``.
    func start(journal: EventJournal) {
        self.journal = journal
        let thread = Thread { [self] in
            run()
            stopped.signal()
        }
        thread.name = "SQLiteStore folder"
        self.thread = thread
        thread.start()
    }

    /// A group was committed to the log: there is work.
    func notify() {
        condition.lock()
        wakeups += 1
        condition.signal()
        condition.unlock()
    }

    /// Finishes the batch under way and stops; what is left stays in the log for next time.
    func stop() {
        condition.lock()
        stopping = true
        condition.signal()
        condition.unlock()
        if thread != nil { stopped.wait() }
        thread = nil
        state.close()
    }

    private func run() {
        // Folding is catch-up work: on a busy machine it should take a small share of the
        // cores, not compete with answering (at nice 10 about a tenth of a nice-0 thread's), yet
        // keep up when load eases. On Linux a nice value set with `who` 0 is the calling
        // thread's alone.
        #if os(Linux)
            _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, 10)
        #endif
        while true {
            condition.lock()
            if stopping {
                condition.unlock()
                return
            }
            wakeups = 0
            condition.unlock()
            let folded: Int
            do {
                folded = try foldBatch()
                failing.withLock { $0 = false }
            } catch {
                failing.withLock { $0 = true }
                folded = 0  // a full disk or a lost file: try again after the pause below
            }
            if folded == 0 {
                condition.lock()
                if wakeups == 0 && !stopping { _ = condition.wait(until: Date().addingTimeInterval(1)) }
                condition.unlock()
            }
        }
    }

    /// Folds up to ``entriesPerBatch`` journal entries; returns how many.
    private func foldBatch() throws(StoreError) -> Int {
        guard let journal else { return 0 }
        var position = cursor ?? journal.start
        let entries = try journal.read(from: &position, maxEntries: Self.entriesPerBatch).filter {
            $0.seq > foldedSeq
        }
        guard !entries.isEmpty else {
            cursor = position
            return 0
        }
        try fold(entries)
        cursor = position
        journal.removeSegments(foldedThrough: foldedSeq)
        return entries.count
    }

    /// Folds `entries` (in order, all after ``foldedSeq``) in one transaction that also moves
    /// `folded_seq` to the last of them. Start-up uses it for the entries of an old event log.
    func fold(_ entries: [EventJournal.Entry]) throws(StoreError) {
        guard let last = entries.last?.seq else { return }
        var newArticles: [ExactKey: Int64] = [:]
        let now = options.clock()
        try state.transaction { () throws(StoreError) in
            for entry in entries {
                for event in try EventLogCodec.decode(entry.payload) {
                    try fold(event, seenMs: entry.committedMs, newArticles: &newArticles)
                }
            }
            let mark = try state.cached(
                "INSERT INTO meta (key, value) VALUES ('folded_seq', ?1) "
                    + "ON CONFLICT (key) DO UPDATE SET value = excluded.value")
            try mark.bind(1, last)
            try mark.run()
            if lastPruneMs.map({ now - $0 >= options.pruneIntervalMs }) ?? true {
                lastPruneMs = now
                try pruneEventIDs(now: now)
            }
        }
        folded.withLock { $0 = last }
        if articleIDs.count > 100_000 { articleIDs.removeAll() }
        articleIDs.merge(newArticles) { old, _ in old }
    }

    /// Folds one already acknowledged event into its reader's day, and remembers its id.
    private func fold(_ event: EventRecord, seenMs: Int64, newArticles: inout [ExactKey: Int64])
        throws(StoreError)
    {
        if let key = event.deduplicationKey {
            let remember = try state.cached(
                "INSERT INTO event_ids (id, seen_ms) VALUES (?1, ?2) "
                    + "ON CONFLICT (id) DO UPDATE SET seen_ms = max(seen_ms, excluded.seen_ms)")
            try remember.bind(1, key)
            try remember.bind(2, seenMs)
            try remember.run()
        }
        let article = try articleID(event.article, newArticles: &newArticles)
        let upsert = try state.cached(
            """
            INSERT INTO reader_days (article, reader, day, max_progress, max_seen, scrollable,
                events, engaged_ms, first_ms, last_ms)
            VALUES (?1, ?2, ?3, ?4, ?5, ?6, 1, ?7, ?8, ?8)
            ON CONFLICT (article, reader, day) DO UPDATE SET
                max_progress = max(max_progress, excluded.max_progress),
                max_seen = max(max_seen, excluded.max_seen),
                scrollable = max(scrollable, excluded.scrollable),
                events = events + 1,
                engaged_ms = engaged_ms + excluded.engaged_ms,
                first_ms = min(first_ms, excluded.first_ms),
                last_ms = max(last_ms, excluded.last_ms)
            """)
        try upsert.bind(1, article)
        try upsert.bind(2, event.reader)
        try upsert.bind(3, Int64(event.day))
        try upsert.bind(4, event.progress)
        try upsert.bind(5, event.seenDepth)
        try upsert.bind(6, event.scrollable ? 1 : 0 as Int64)
        try upsert.bind(7, event.engagedMs)
        try upsert.bind(8, event.timeMs)
        try upsert.run()
    }

    /// The id of `name`, adding the article if new. Ids added in the running transaction go to
    /// `newArticles` and join the cache only once it commits — a rollback takes them back.
    private func articleID(_ name: String, newArticles: inout [ExactKey: Int64]) throws(StoreError) -> Int64 {
        let key = ExactKey(name)
        if let id = articleIDs[key] ?? newArticles[key] { return id }
        let lookup = try state.cached("SELECT id FROM articles WHERE name = ?1")
        defer { lookup.reset() }
        try lookup.bind(1, name)
        if try lookup.step() {
            let id = lookup.int64(0)
            newArticles[key] = id
            return id
        }
        let insert = try state.cached("INSERT INTO articles (name) VALUES (?1) RETURNING id")
        defer { insert.reset() }
        try insert.bind(1, name)
        guard try insert.step() else {
            throw StoreError(code: 0, message: "inserting article \(name) returned no id")
        }
        let id = insert.int64(0)
        newArticles[key] = id
        return id
    }

    /// Forgets ids past the retention window, 10,000 at a time, up to 100,000 per call, so
    /// that no transaction grows long yet pruning outpaces any rate of new ids (a call comes
    /// at most every `pruneIntervalMs`; a round that was full makes the next call come at once).
    private func pruneEventIDs(now: Int64) throws(StoreError) {
        let prune = try state.cached(
            "DELETE FROM event_ids WHERE id IN "
                + "(SELECT id FROM event_ids WHERE seen_ms <= ?1 ORDER BY seen_ms LIMIT 10000)")
        for _ in 0..<10 {
            try prune.bind(1, now - options.idRetentionMs)
            try prune.run()
            guard state.changes == 10_000 else { return }
        }
        lastPruneMs = nil  // more is due: prune again with the next batch
    }
}
