import Foundation
import ProgressStore

/// A queue drained by one dedicated thread, a whole group at a time.
///
/// Producers ``enqueue(_:)`` and return at once. The thread takes *everything* queued, hands it
/// to `process` as one group, and while `process` runs (a transaction and its fsync), new items
/// queue up to form the next group. Under load the groups grow by themselves, so one commit's
/// cost is shared by everything that arrived during the previous one; when idle, a lone item
/// is processed at once, without waiting for company.
final class GroupCommitQueue<Item: Sendable>: @unchecked Sendable {
    private enum State {
        case running
        case closing
        case finished
    }

    // `condition` guards `pending` and `state`.
    private let condition = NSCondition()
    private var pending: [Item] = []
    private var state = State.running
    private var thread: Thread?

    /// Starts the thread. `process` runs on it for each group, in order; `finish` runs on it
    /// once, after the last group, when the queue has been closed and drained.
    init(name: String, process: @escaping @Sendable ([Item]) -> Void, finish: @escaping @Sendable () -> Void)
    {
        // The thread holds the queue strongly until it finishes; `markFinished` then lets go of
        // the thread, which breaks the cycle.
        let thread = Thread { [self] in
            run(process: process)
            finish()
            markFinished()
        }
        thread.name = name
        self.thread = thread
        thread.start()
    }

    /// Queues `item`; `false` (and nothing queued) once the queue is closing or closed.
    func enqueue(_ item: Item) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        guard case .running = state else { return false }
        pending.append(item)
        condition.signal()
        return true
    }

    // Callers hold `condition`.
    private var runsOnQueueThread: Bool {
        thread.map { $0 === Thread.current } ?? false
    }

    /// Stops accepting items, lets the thread process what is queued, and waits until `finish`
    /// has run — unless called from the queue's own thread, where waiting would never end; then
    /// the thread finishes after its current group.
    func close() {
        condition.lock()
        if case .running = state { state = .closing }
        condition.broadcast()
        if !runsOnQueueThread {
            while case .closing = state { condition.wait() }
        }
        condition.unlock()
    }

    private func run(process: ([Item]) -> Void) {
        while true {
            condition.lock()
            while pending.isEmpty, case .running = state { condition.wait() }
            let group = pending
            pending.removeAll(keepingCapacity: true)
            condition.unlock()
            if group.isEmpty { return }  // closing, and nothing left
            process(group)
        }
    }

    private func markFinished() {
        condition.lock()
        state = .finished
        thread = nil
        condition.broadcast()
        condition.unlock()
    }
}
