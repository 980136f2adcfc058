import Foundation
public import ProgressStore

/// What the store tells `/healthz` and `/metrics`: whether it takes writes, why checkpoints fail,
/// how far the journal and the checkpoints are, and its size on disk.
extension EmbeddedStore {
    /// Writable while the last journal write succeeded: false when an append fails (disk full,
    /// I/O error) and true again at the next successful write — of an append or of a
    /// ``probe(completion:)``. Its problem: why checkpoints fail, while they do.
    public var health: StoreHealth {
        StoreHealth(
            isWritable: writable.current && !closed.current,
            problem: checkpointer.failure.current.map { "checkpoint failing: \($0)" })
    }

    /// Writes an empty journal entry and reports whether it took, updating ``health``. For
    /// `/healthz` when no events arrive: otherwise a store that failed once would stay
    /// "unwritable" until the next append, which a load balancer that has taken the node out of
    /// service would never send. It shows that a small write succeeds, not that there is room
    /// for a large one.
    public func probe(completion: @escaping @Sendable (Bool) -> Void = { _ in }) {
        completion(writer.probe())
    }

    var committedSeqValue: Int64 { journal.upcomingSeq - 1 }
    var checkpointSeq: Int64 { checkpointer.foldedSeq }
    var checkpointFailing: Bool { checkpointer.failure.current != nil }

    /// Whether ``close()`` has begun.
    var isClosed: Bool { closed.current }

    /// Bytes on disk: the state database, its write-ahead log and the event journal (0 for
    /// memory stores).
    var sizeBytes: Int64 {
        guard !isInMemory else { return 0 }
        return [path, path + "-wal"].reduce(journal.sizeBytes) { total, file in
            // A file that is not there (no write-ahead log yet) takes no room.
            let size = (try? FileManager.default.attributesOfItem(atPath: file)[.size]) as? NSNumber
            return total + (size?.int64Value ?? 0)
        }
    }
}
