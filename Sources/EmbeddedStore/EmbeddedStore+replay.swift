import Foundation
import ProgressStore

/// The journal opened at start-up on a thread of its own — every entry of every segment read
/// and checked, a torn end cut off — while the calling thread loads the saved articles.
final class JournalOpening: @unchecked Sendable {
    private let condition = NSCondition()
    // `condition` guards `ended`.
    private var ended: Result<EventJournal, StoreError>?
    /// When the journal was open (or opening failed).
    private(set) var openedAt = ContinuousClock.now

    /// Starts the thread, which calls `open`.
    static func start(_ open: @escaping @Sendable () throws(StoreError) -> EventJournal) -> JournalOpening {
        let opening = JournalOpening()
        let thread = Thread {
            let result = Result { () throws(StoreError) in try open() }
            opening.condition.withLock {
                opening.openedAt = .now
                opening.ended = result
                opening.condition.broadcast()
            }
        }
        thread.name = "EmbeddedStore journal opening"
        thread.start()
        return opening
    }

    /// The journal, once open, or what opening it threw.
    func journal() throws(StoreError) -> EventJournal {
        condition.lock()
        defer { condition.unlock() }
        while ended == nil { condition.wait() }
        return try ended!.get()
    }

    /// Waits for the thread (start-up failed meanwhile) and closes the journal it opened.
    func abandon() {
        if let journal = try? journal() { journal.close() }
    }
}

extension EmbeddedStore {
    /// Applies the journal entries after the last checkpoint, in order, as they were
    /// acknowledged: events fold into the index, erasures take out what they name (from the
    /// index and from the ids replayed before them). Returns the ids replayed, with when each
    /// was acknowledged, in that order, and the erasures.
    static func replay(
        _ journal: EventJournal, after foldedSeq: Int64, into index: MemoryIndex
    ) throws(StoreError) -> (ids: IDKeyList, erasures: [Erasure]) {
        var ids = IDKeyList()
        var erasures: [Erasure] = []
        try journal.entries(after: foldedSeq) { entry throws(StoreError) in
            switch try EventLogCodec.decodeEntry(entry.payload) {
            case .events(let events):
                for event in events {
                    _ = event.withDeduplicationKey { ids.append($0, seenMs: entry.committedMs) }
                }
                index.apply(events)
            case .erasure(let erasure):
                _ = index.erase(erasure)
                ids = ids.filter { !erasure.covers(key: $0) }
                erasures.append(erasure)
            }
        }
        return (ids, erasures)
    }
}
