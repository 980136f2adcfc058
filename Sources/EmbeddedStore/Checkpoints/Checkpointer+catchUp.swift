import Foundation
import ProgressStore

/// The catch-up thread, and the checkpoint both threads run with its failures noted.
extension Checkpointer {
    /// The catch-up thread: checkpoints while the journal is past ``catchUpBytes``, checked four
    /// times a second.
    func catchUpWhenBehind(_ journal: EventJournal) {
        while true {
            condition.lock()
            if !stopping { _ = condition.wait(until: Date().addingTimeInterval(0.25)) }
            let done = stopping
            condition.unlock()
            if done { return }
            if journal.sizeBytes >= catchUpBytes { checkpointNoting() }
        }
    }

    /// A checkpoint, its failure logged when it starts failing and when the cause changes (not
    /// at every try), and when it succeeds again.
    func checkpointNoting() {
        do throws(StoreError) {
            try checkpointNow()
            let was = failure.withLock { failure in
                defer { failure = nil }
                return failure
            }
            if was != nil { options.logger("checkpoints succeed again") }
        } catch {
            let cause = "\(error)"
            let was = failure.withLock { failure in
                defer { failure = cause }
                return failure
            }
            if was != cause {
                options.logger("a checkpoint failed (the journal keeps its events, retried): \(cause)")
            }
        }
    }
}
