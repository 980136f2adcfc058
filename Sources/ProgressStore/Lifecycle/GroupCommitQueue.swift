import Foundation

/// A queue drained by dedicated threads, a whole group at a time: the embedded store's sync
/// thread (one `fdatasync` for every append written meanwhile) and PostgreSQL's committers (one
/// transaction for every append waiting).
///
/// Producers ``enqueue(_:)`` and return at once. A worker takes everything queued (up to
/// `maxWeight`), hands it to `process` as one group, and while `process` runs (a commit, a
/// sync), new items queue up to form the next group. Under load the groups grow by themselves;
/// when idle, a lone item is processed at once, without waiting for company.
///
/// Nothing runs until ``start(process:finish:)``; ``close(within:)`` stops taking items, lets
/// the workers drain what is queued and joins them. The workers hold only the queue's inner
/// state, never the queue or its owner: dropping the queue closes it.
package final class GroupCommitQueue<Item: Sendable>: Sendable {
    private let state: State
    private let name: String
    private let workers: Int

    /// A queue of `workers` threads named after `name`, each taking groups of at most
    /// `maxWeight` by `weight` (but always at least one item).
    package init(
        name: String, workers: Int = 1, maxWeight: Int = .max,
        weight: @escaping @Sendable (Item) -> Int = { _ in 1 }
    ) {
        self.name = name
        self.workers = max(1, workers)
        state = State(maxWeight: maxWeight, weight: weight)
    }

    deinit {
        state.close()
    }

    /// Starts the workers. `process(worker, group)` runs on worker `worker` (0 ..< workers) for
    /// each group it takes; `finish(worker)` runs on it once, after its last group, when the
    /// queue has been closed and drained. Starting twice starts nothing more.
    package func start(
        process: @escaping @Sendable (_ worker: Int, _ group: [Item]) -> Void,
        finish: @escaping @Sendable (_ worker: Int) -> Void = { _ in }
    ) {
        guard state.markStarted(workers: workers) else { return }
        for worker in 0..<workers {
            let thread = Thread { [state] in
                state.run(worker: worker, process: process)
                finish(worker)
                state.markFinished()
            }
            thread.name = workers == 1 ? name : "\(name) \(worker)"
            thread.start()
        }
    }

    /// Queues `item`; `false` (and nothing queued) once the queue is closing or closed.
    package func enqueue(_ item: Item) -> Bool {
        state.enqueue(item)
    }

    /// Stops accepting items, lets the workers process what is queued, and waits up to
    /// `seconds` until each has run `finish`; whether they all did. Called from a worker
    /// itself, it waits for nothing (that worker finishes after its current group).
    @discardableResult
    package func close(within seconds: Double = .infinity) -> Bool {
        state.close()
        return state.waitUntilFinished(deadline: Date().addingTimeInterval(min(seconds, 1e9)))
    }
}

extension GroupCommitQueue {
    /// What the workers share with the queue.
    private final class State: @unchecked Sendable {
        // `condition` guards everything below.
        private let condition = NSCondition()
        private var pending: [Item] = []
        private var isClosed = false
        private var running = 0
        private var started = false
        private var threads: [ObjectIdentifier] = []
        private let maxWeight: Int
        private let weight: @Sendable (Item) -> Int

        init(maxWeight: Int, weight: @escaping @Sendable (Item) -> Int) {
            self.maxWeight = maxWeight
            self.weight = weight
        }

        func markStarted(workers: Int) -> Bool {
            condition.lock()
            defer { condition.unlock() }
            guard !started, !isClosed else { return false }
            started = true
            running = workers
            return true
        }

        func enqueue(_ item: Item) -> Bool {
            condition.lock()
            defer { condition.unlock() }
            guard !isClosed else { return false }
            pending.append(item)
            condition.signal()
            return true
        }

        func close() {
            condition.lock()
            isClosed = true
            condition.broadcast()
            condition.unlock()
        }

        func waitUntilFinished(deadline: Date) -> Bool {
            condition.lock()
            defer { condition.unlock() }
            // A worker closing its own queue would wait for itself.
            if threads.contains(ObjectIdentifier(Thread.current)) { return running == 0 }
            while running > 0 {
                if !condition.wait(until: deadline) { return running == 0 }
            }
            return true
        }

        func run(worker: Int, process: (Int, [Item]) -> Void) {
            condition.lock()
            threads.append(ObjectIdentifier(Thread.current))
            condition.unlock()
            while true {
                let group = take()
                if group.isEmpty { return }  // closed, and nothing left
                process(worker, group)
            }
        }

        func markFinished() {
            condition.lock()
            running -= 1
            threads.removeAll { $0 == ObjectIdentifier(Thread.current) }
            condition.broadcast()
            condition.unlock()
        }

        /// The next group; waits for one. Empty once closed and drained.
        private func take() -> [Item] {
            condition.lock()
            defer { condition.unlock() }
            while pending.isEmpty && !isClosed { condition.wait() }
            guard maxWeight != .max else {
                defer { pending.removeAll(keepingCapacity: true) }
                return pending
            }
            var taken = 0
            var total = 0
            while taken < pending.count, taken == 0 || total + weight(pending[taken]) <= maxWeight {
                total += weight(pending[taken])
                taken += 1
            }
            defer { pending.removeFirst(taken) }
            return Array(pending.prefix(taken))
        }
    }
}
