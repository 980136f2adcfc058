import Foundation
import ProgressStore

/// The write side of ``EmbeddedStore``: deduplication, the journal append and the index update,
/// one append at a time, on the caller's thread.
///
/// An append copies one journal entry — the counted events, encoded — into the journal's
/// shared mapping under `lock` (no system call but, once per MiB, allocating the file ahead
/// and giving back the pages behind), then the events join the in-memory index; the
/// checkpointer saves the index into SQLite later. No thread hand-off and no waiting: with the
/// default durability the caller can answer as soon as `append` returns. With
/// `fsyncEachCommit`, appends hand their completions to one sync thread, which runs one
/// `fdatasync` for everything written meanwhile (a group commit) and then completes them all.
final class StoreWriter: @unchecked Sendable {
    private let lock = SpinningLock()
    private let journal: EventJournal
    private let options: EmbeddedStore.Options
    private let writable: Flag
    private let index: MemoryIndex
    private let syncer: GroupCommitQueue<SyncRequest>?
    // Guarded by `lock`, like everything below.
    private var isClosed = false
    /// The ids remembered so that a repeat counts once, in generations of `idRetentionMs`.
    private var recentIDs: IDGenerations
    /// The keys of the ids acknowledged since the last checkpoint capture, which saves them.
    private var uncapturedIDs = IDKeyList()
    /// The erasures since the last capture, whose ids the checkpoint takes out of the saved ones.
    private var uncapturedErasures: [Erasure] = []
    private var lastPruneMs: Int64
    /// The ids the current append has claimed, so that a failed write can give them back.
    private var claimed: [IDDigest] = []
    /// Set when a write failed for lack of space: until the file system has
    /// ``minimumFreeBytes`` free again, appends are refused without trying. A write that no
    /// longer fits can leave room for a smaller one, and a store that took every small event
    /// on a full disk (and answered "healthy") while refusing every batch would be no help to
    /// anyone; this way the store says it is full until it really has room again.
    private var waitingForRoom = false
    static let minimumFreeBytes: Int64 = 1 << 20

    /// A completion waiting for the next `fdatasync`.
    struct SyncRequest: Sendable {
        var complete: @Sendable (Result<Void, StoreError>) -> Void
    }

    init(
        journal: EventJournal, options: EmbeddedStore.Options, writable: Flag, index: MemoryIndex,
        startupIDs: RecentIDTable
    ) {
        self.journal = journal
        self.options = options
        self.writable = writable
        self.index = index
        // Saved already, or handed to the checkpointer by start-up: none is uncaptured.
        let now = options.clock()
        self.recentIDs = IDGenerations(generationMs: options.idRetentionMs, nowMs: now, previous: startupIDs)
        self.lastPruneMs = now
        syncer = options.fsyncEachCommit ? GroupCommitQueue(name: "EmbeddedStore sync") : nil
    }

    /// Starts the sync thread, when every commit is fsynced.
    func start() {
        syncer?.start { [journal, writable] _, group in
            let outcome = Result { () throws(StoreError) in try journal.sync() }
            if case .failure = outcome { writable.set(false) }
            for request in group { request.complete(outcome) }
        }
    }

    /// Counts `events` that are not repeats, writes them to the journal and folds them into the
    /// index; `completion` runs once they are durable — before `append` returns, unless every
    /// commit is fsynced. If the write fails, none of them counted.
    ///
    /// With an fsync per commit, the index (and so every read) has the events as soon as they
    /// are written, before their `fdatasync`: a read may show an event whose acknowledgement is
    /// still on its way, and a power cut before the sync would take back what a read showed —
    /// but nothing acknowledged. What must wait for the sync is every acknowledgement: also that
    /// of a batch of repeats only, whose "already stored" may refer to an entry written a moment
    /// ago and not synced yet. So every successful append joins the group commit.
    func append(
        _ events: [EventRecord], completion: @escaping @Sendable (Result<AppendResult, StoreError>) -> Void
    ) {
        let outcome = lock.withLock { () -> Result<AppendResult, StoreError>? in
            guard !isClosed else { return .failure(.closed) }
            let outcome = write(events)
            guard let syncer, case .success(let result) = outcome else { return outcome }
            // Queued under `lock`: ``close()`` takes it before it closes the queue, so a written
            // entry's completion is always queued and waited for — not refused as "closed" while
            // its events count (and would count again when the client retries).
            let queued = syncer.enqueue(SyncRequest { synced in completion(synced.map { result }) })
            // Only ``close()`` closes the queue, after setting `isClosed`: this cannot fail.
            precondition(queued, "the sync queue closed while the writer was open")
            return nil
        }
        if let outcome { completion(outcome) }
    }

    /// Writes one empty entry to learn whether the journal still takes writes.
    func probe() -> Bool {
        let outcome = lock.withLock { () -> Result<Int64, StoreError> in
            guard !isClosed else { return .failure(.closed) }
            return Result { () throws(StoreError) in
                try checkRoom()
                let seq = try journal.append(payload: EventLogCodec.encode([]), committedMs: options.clock())
                waitingForRoom = false
                return seq
            }
        }
        // The probe's answer is whether it took; why not is the append's or sync's error,
        // which the next append reports in full.
        var ok = (try? outcome.get()) != nil
        if ok, syncer != nil { ok = (try? journal.sync()) != nil }
        writable.set(ok)
        return ok
    }

    /// What a checkpoint saves, at one instant between two appends: the journal's last seq, the
    /// articles whose version differs from `saved` and the ids acknowledged since the last
    /// capture (or since start-up, which hands the checkpointer those it found in the journal).
    /// The journal moves to a new segment, so that the checkpoint can remove the ones before (unless an earlier one is
    /// still there: see ``EventJournal/rotate()``).
    func capture(changedSince saved: [ExactKey: UInt64]) -> CheckpointCapture {
        lock.withLock {
            do throws(StoreError) {
                try journal.rotate()
            } catch {
                // The checkpoint still saves everything; only the segments it could remove stay
                // (the next capture tries again).
                options.logger("cannot start a new event journal segment for a checkpoint: \(error)")
            }
            let newIDs = uncapturedIDs
            uncapturedIDs = IDKeyList()
            let erased = uncapturedErasures
            uncapturedErasures = []
            let articles = index.captureArticles(changedSince: saved)
            return CheckpointCapture(
                seq: journal.upcomingSeq - 1, articles: articles, newIDs: newIDs, erasures: erased,
                erasedArticles: index.takeErasedArticles(), sources: index.sourceNames())
        }
    }

    /// Takes what `erasure` names out of every statistic: an entry in the journal first (so that
    /// a restart replays it in its place, after the events it erases), then out of the index and
    /// out of the ids waiting for a checkpoint; `completion` runs once it is durable.
    func erase(_ erasure: Erasure, completion: @escaping @Sendable (Result<ErasureCount, StoreError>) -> Void)
    {
        let outcome = lock.withLock { () -> Result<ErasureCount, StoreError>? in
            guard !isClosed else { return .failure(.closed) }
            let now = options.clock()
            guard let payload = EventLogCodec.encode(erasure) else {
                return .failure(.posix(EINVAL, "the id to erase is longer than the journal takes"))
            }
            let count: ErasureCount
            do throws(StoreError) {
                try checkRoom()
                _ = try journal.append(payload: payload, committedMs: now)
                count = index.erase(erasure)
            } catch {
                if error.posixCode == ENOSPC || error.posixCode == EDQUOT { waitingForRoom = true }
                writable.set(false)
                return .failure(error)
            }
            writable.ensure(true)
            forget(erasure, at: now)
            guard let syncer else { return .success(count) }
            let queued = syncer.enqueue(SyncRequest { synced in completion(synced.map { count }) })
            precondition(queued, "the sync queue closed while the writer was open")
            return nil
        }
        if let outcome { completion(outcome) }
    }

    /// Drops every record of a UTC day before `day` (retention); returns how many.
    func dropDays(before day: Int32) -> Int {
        lock.withLock { index.dropDays(before: day) }
    }

    /// Forgets the ids `erasure` took: those waiting for a capture, and (for the next ones)
    /// those remembered. Callers hold `lock`.
    private func forget(_ erasure: Erasure, at ms: Int64) {
        uncapturedIDs = uncapturedIDs.filter { !erasure.covers(key: $0) }
        recentIDs.advance(to: ms)
        recentIDs.erase(erasure)
        uncapturedErasures.append(erasure)
    }

    /// The ids remembered to count a repeat once: those of the current generation and of the
    /// one before (see ``IDGenerations``).
    var rememberedIDCount: Int { lock.withLock { recentIDs.count } }

    /// Takes no more appends, and waits up to `seconds` until every fsync under way has
    /// completed; whether they did.
    @discardableResult
    func close(within seconds: Double = .infinity) -> Bool {
        lock.withLock { isClosed = true }
        return syncer?.close(within: seconds) ?? true
    }

    /// Callers hold `lock`.
    private func write(_ events: [EventRecord]) -> Result<AppendResult, StoreError> {
        let now = options.clock()
        var result = AppendResult(counted: 0, duplicates: 0)
        recentIDs.advance(to: now)
        claimed.removeAll(keepingCapacity: true)
        // The keys go with the next capture, unless the write fails.
        let uncapturedBefore = uncapturedIDs.mark
        var counted = events  // shared, not copied, unless an event turns out to be a repeat
        if events.contains(where: { $0.eventID != nil }) {
            counted.removeAll(keepingCapacity: true)
            for event in events {
                let isRepeat = event.withDeduplicationKey { key -> Bool in
                    guard let digest = recentIDs.claim(key, of: event) else { return true }
                    claimed.append(digest)
                    uncapturedIDs.append(key, seenMs: now)
                    return false
                }
                if isRepeat == true {
                    result.duplicates += 1
                    continue
                }
                counted.append(event)
            }
        }
        result.counted = counted.count
        guard !counted.isEmpty else { return .success(result) }
        do {
            guard let payload = EventLogCodec.encodeIfFits(counted) else {
                giveBack(uncapturedBefore)
                return .failure(
                    StoreError.posix(
                        EINVAL,
                        "an article, reader or id is longer than the journal's "
                            + "\(EventLogCodec.maximumStringBytes) bytes"))
            }
            try checkRoom()
            _ = try journal.append(payload: payload, committedMs: now)
        } catch {
            if error.posixCode == ENOSPC || error.posixCode == EDQUOT { waitingForRoom = true }
            writable.set(false)
            giveBack(uncapturedBefore)
            return .failure(error)
        }
        waitingForRoom = false
        writable.ensure(true)
        // Under `lock`, so that the index never lacks an entry the journal has before it (a
        // snapshot of both agrees), and so that a read after this returns sees the events.
        index.apply(counted)
        if now - lastPruneMs >= options.pruneIntervalMs {
            forgetExpiredIDs(now: now)
            lastPruneMs = now
        }
        return .success(result)
    }

    /// Nothing counted: the ids the write claimed go back. Callers hold `lock`.
    private func giveBack(_ uncapturedBefore: (bytes: Int, count: Int, newestMs: Int64)) {
        for digest in claimed { recentIDs.giveBack(digest) }
        uncapturedIDs.truncate(to: uncapturedBefore)
    }

    /// After a write failed for lack of space, fails until the file system has room again.
    /// Callers hold `lock`.
    private func checkRoom() throws(StoreError) {
        guard waitingForRoom, journal.freeBytes < Self.minimumFreeBytes else { return }
        throw StoreError.posix(
            ENOSPC,

            "the disk is full: events are taken again once \(Self.minimumFreeBytes >> 20) MiB are free")
    }

    /// Drops the keys waiting for a capture that are older than the retention window (the
    /// remembered ids go a generation at a time, see ``IDGenerations/advance(to:)``). They grow
    /// old only while no capture runs (a checkpoint stuck behind a busy database); a capture
    /// hands them over, and a failed save keeps them for the next.
    private func forgetExpiredIDs(now: Int64) {
        let horizon = now - options.idRetentionMs
        if let first = uncapturedIDs.firstSeenMs, first <= horizon {
            uncapturedIDs = uncapturedIDs.seen(after: horizon)
        }
    }
}
