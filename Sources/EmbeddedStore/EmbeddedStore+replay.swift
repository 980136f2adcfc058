import Foundation
import ProgressStore

/// Start-up's reading of the journal, on a thread of its own while this one loads the saved
/// articles: the journal opened (every entry checked, a torn end cut off), then the entries
/// after the last checkpoint decoded and handed over in order, a batch at a time, with at most
/// ``limit`` batches waiting. ``fold(into:)`` applies them as they come: events fold into the
/// index, erasures take out what they name (from the index, and from the ids replayed before
/// them, which the reading thread collects).
final class JournalReplay: @unchecked Sendable {
    enum Batch {
        case events([EventRecord])
        case erasure(Erasure)
    }

    /// What the reading thread ends with: the journal, the ids replayed (with when each was
    /// acknowledged, in that order), the erasures, and when the journal was open.
    struct Outcome {
        var journal: EventJournal
        var ids: IDKeyList
        var erasures: [Erasure]
        var opened: ContinuousClock.Instant
    }

    /// Events put in one batch, at least (an entry is never split).
    static let batchEvents = 4096
    /// Batches decoded ahead of the fold, at most.
    static let limit = 32

    private let condition = NSCondition()
    // `condition` guards the three below.
    private var batches: [Batch] = []
    private var ended: Result<Outcome, StoreError>?
    private var abandoned = false

    /// Starts the thread: `open` opens the journal (and may refuse it), then the entries after
    /// `foldedSeq` are read and decoded.
    static func start(after foldedSeq: Int64, open: @escaping @Sendable () throws(StoreError) -> EventJournal)
        -> JournalReplay
    {
        let replay = JournalReplay()
        let thread = Thread { replay.read(after: foldedSeq, open: open) }
        thread.name = "EmbeddedStore replay"
        thread.start()
        return replay
    }

    /// Folds every batch into `index` as it comes; returns what the thread ended with, or throws
    /// what opening, reading or decoding met (once the thread has ended, either way).
    func fold(into index: MemoryIndex) throws(StoreError) -> Outcome {
        while let batch = take() {
            switch batch {
            case .events(let events): index.apply(events)
            case .erasure(let erasure): _ = index.erase(erasure)
            }
        }
        // `take()` gave nil: the thread has ended.
        return try condition.withLock { ended! }.get()
    }

    /// Stops the thread early (start-up failed meanwhile), waits for it, and closes the journal.
    func abandon() {
        condition.withLock {
            abandoned = true
            batches = []
            condition.broadcast()
        }
        while take() != nil {}
        if case .success(let outcome) = condition.withLock({ ended! }) { outcome.journal.close() }
    }

    private func take() -> Batch? {
        condition.lock()
        defer { condition.unlock() }
        while batches.isEmpty && ended == nil { condition.wait() }
        guard !batches.isEmpty else { return nil }
        condition.broadcast()
        return batches.removeFirst()
    }

    private func put(_ batch: Batch) throws(StoreError) {
        condition.lock()
        defer { condition.unlock() }
        while batches.count >= Self.limit && !abandoned { condition.wait() }
        guard !abandoned else { throw StoreError.closed }
        batches.append(batch)
        condition.broadcast()
    }

    private func read(after foldedSeq: Int64, open: () throws(StoreError) -> EventJournal) {
        let result = Result { () throws(StoreError) -> Outcome in
            let journal = try open()
            var outcome = Outcome(journal: journal, ids: IDKeyList(), erasures: [], opened: .now)
            var pending: [EventRecord] = []
            do throws(StoreError) {
                try journal.entries(after: foldedSeq) { entry throws(StoreError) in
                    switch try EventLogCodec.decodeEntry(entry.payload) {
                    case .events(let events):
                        for event in events {
                            _ = event.withDeduplicationKey {
                                outcome.ids.append($0, seenMs: entry.committedMs)
                            }
                        }
                        pending += events
                        if pending.count >= Self.batchEvents {
                            try put(.events(pending))
                            pending = []
                        }
                    case .erasure(let erasure):
                        if !pending.isEmpty { try put(.events(pending)) }
                        pending = []
                        outcome.ids = outcome.ids.filter { !erasure.covers(key: $0) }
                        outcome.erasures.append(erasure)
                        try put(.erasure(erasure))
                    }
                }
                if !pending.isEmpty { try put(.events(pending)) }
            } catch {
                journal.close()
                throw error
            }
            return outcome
        }
        condition.withLock {
            ended = result
            condition.broadcast()
        }
    }
}
