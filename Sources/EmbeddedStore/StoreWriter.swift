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
    /// The ids acknowledged within the retention window, by digest, with when.
    private let recentIDs = RecentIDTable()
    /// The same ids in the order they were acknowledged — which is the order of their times —
    /// so that forgetting expired ones starts at the front and stops at the first young one.
    private var recentOrder: [(digest: IDDigest, seenMs: Int64)]
    private var recentStart = 0
    /// The keys of the ids acknowledged since the last checkpoint capture, which saves them.
    private var uncapturedIDs = IDKeyList()
    private var lastPruneMs: Int64
    /// The ids the current append has claimed, with the time each replaced (if any), so that a
    /// failed write can give them back.
    private var claimed: [(digest: IDDigest, replaced: Int64?)] = []
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
        recentIDs: [ExactKey: Int64]
    ) {
        self.journal = journal
        self.options = options
        self.writable = writable
        self.index = index
        // Saved already, or handed to the checkpointer by start-up: none is uncaptured.
        self.recentOrder = recentIDs.map { (IDDigest(of: $0.key), $0.value) }.sorted { $0.seenMs < $1.seenMs }
        for (digest, seenMs) in recentOrder { self.recentIDs.updateValue(seenMs, for: digest) }
        self.lastPruneMs = options.clock()
        if options.fsyncEachCommit {
            syncer = GroupCommitQueue(
                name: "EmbeddedStore sync",
                process: { [journal, writable] group in
                    let outcome = Result { () throws(StoreError) in try journal.sync() }
                    if case .failure = outcome { writable.set(false) }
                    for request in group { request.complete(outcome) }
                }, finish: {})
        } else {
            syncer = nil
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
            try? journal.rotate()
            let newIDs = uncapturedIDs
            uncapturedIDs = IDKeyList()
            return CheckpointCapture(
                seq: journal.upcomingSeq - 1, articles: index.captureArticles(changedSince: saved),
                newIDs: newIDs)
        }
    }

    /// The ids remembered to count a repeat once: those acknowledged within the retention window
    /// (and, until the next prune, some just past it).
    var rememberedIDCount: Int { lock.withLock { recentIDs.count } }

    /// Takes no more appends, and waits until every fsync under way has completed.
    func close() {
        lock.withLock { isClosed = true }
        syncer?.close()
    }

    /// Callers hold `lock`.
    private func write(_ events: [EventRecord]) -> Result<AppendResult, StoreError> {
        let now = options.clock()
        var result = AppendResult(counted: 0, duplicates: 0)
        claimed.removeAll(keepingCapacity: true)
        // The keys go with the next capture, unless the write fails.
        let uncapturedBefore = uncapturedIDs.mark
        var counted = events  // shared, not copied, unless an event turns out to be a repeat
        if events.contains(where: { $0.eventID != nil }) {
            counted.removeAll(keepingCapacity: true)
            for event in events {
                let isRepeat = event.withDeduplicationKey { key -> Bool in
                    let digest = IDDigest(of: key)
                    // A repeat within this append finds the claim of its first.
                    if let seen = recentIDs[digest], seen > now - options.idRetentionMs { return true }
                    let replaced = recentIDs.updateValue(now, for: digest)
                    claimed.append((digest, replaced))
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
        for claim in claimed { recentOrder.append((claim.digest, now)) }
        // Under `lock`, so that the index never lacks an entry the journal has before it (a
        // snapshot of both agrees), and so that a read after this returns sees the events.
        index.apply(counted)
        if now - lastPruneMs >= options.pruneIntervalMs {
            forgetExpiredIDs(now: now)
            lastPruneMs = now
        }
        return .success(result)
    }

    /// Nothing counted: the ids the write claimed go back, last first (an id is claimed twice in
    /// one append only when the retention is not positive). Callers hold `lock`.
    private func giveBack(_ uncapturedBefore: (bytes: Int, count: Int, newestMs: Int64)) {
        for claim in claimed.reversed() {
            if let replaced = claim.replaced {
                recentIDs.updateValue(replaced, for: claim.digest)
            } else {
                recentIDs.remove(claim.digest)
            }
        }
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

    /// Drops ids older than the retention window: work in proportion to what expired, not to
    /// what is held, so a large set of ids never stalls an append.
    private func forgetExpiredIDs(now: Int64) {
        let horizon = now - options.idRetentionMs
        while recentStart < recentOrder.count, recentOrder[recentStart].seenMs <= horizon {
            let (digest, seenMs) = recentOrder[recentStart]
            // An id acknowledged again later has a newer entry further on: keep it.
            if recentIDs[digest] == seenMs { recentIDs.remove(digest) }
            recentStart += 1
        }
        recentIDs.shrinkIfSparse()
        if recentStart > 4096 && recentStart * 2 > recentOrder.count {
            recentOrder.removeFirst(recentStart)
            recentStart = 0
        }
        // Uncaptured ids grow old only while no capture runs (a checkpoint stuck behind a busy
        // database); a capture hands them over, and a failed save keeps them for the next.
        if let first = uncapturedIDs.firstSeenMs, first <= horizon {
            uncapturedIDs = uncapturedIDs.seen(after: horizon)
        }
    }
}
