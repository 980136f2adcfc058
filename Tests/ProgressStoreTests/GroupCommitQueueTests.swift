import Foundation
import Testing

@testable import ProgressStore

/// The queue both stores commit through: nothing before `start`, groups in order, a close that
/// drains and joins within its bound.
@Suite("The group-commit queue")
struct GroupCommitQueueTests {
    /// What the workers saw, for a test to read.
    final class Seen: @unchecked Sendable {
        private let lock = NSLock()
        private var groups: [[Int]] = []
        private var finished: [Int] = []

        func record(_ group: [Int]) { lock.withLock { groups.append(group) } }
        func finish(_ worker: Int) { lock.withLock { finished.append(worker) } }
        var all: [[Int]] { lock.withLock { groups } }
        var finishedWorkers: [Int] { lock.withLock { finished.sorted() } }
    }

    @Test("nothing is processed before start; close drains every item, in order, and joins")
    func startDrainClose() {
        let seen = Seen()
        let queue = GroupCommitQueue<Int>(name: "test queue")
        for item in 0..<100 { #expect(queue.enqueue(item)) }
        #expect(seen.all.isEmpty)
        queue.start(process: { _, group in seen.record(group) }, finish: { seen.finish($0) })
        #expect(queue.close(within: 10))
        #expect(seen.all.flatMap { $0 } == Array(0..<100))
        #expect(seen.finishedWorkers == [0])
        #expect(!queue.enqueue(100), "a closed queue takes nothing")
    }

    @Test("groups stay within their weight, but an item heavier than it goes alone")
    func weightLimit() {
        let seen = Seen()
        let queue = GroupCommitQueue<Int>(name: "test queue", maxWeight: 10, weight: { $0 })
        for item in [3, 3, 3, 3, 20, 1] { _ = queue.enqueue(item) }
        queue.start(process: { _, group in seen.record(group) })
        #expect(queue.close(within: 10))
        #expect(seen.all.flatMap { $0 } == [3, 3, 3, 3, 20, 1])
        #expect(seen.all.allSatisfy { $0.count == 1 || $0.reduce(0, +) <= 10 })
        #expect(seen.all.contains([20]))
    }

    @Test("every worker finishes once, and a close bounded in time says when one did not")
    func workersAndBound() {
        let seen = Seen()
        let release = DispatchSemaphore(value: 0)
        let queue = GroupCommitQueue<Int>(name: "test queue", workers: 3)
        queue.start(
            process: { _, group in
                if group.contains(-1) { release.wait() }
                seen.record(group)
            }, finish: { seen.finish($0) })
        _ = queue.enqueue(-1)
        #expect(!queue.close(within: 0.2), "a worker is held")
        release.signal()
        #expect(queue.close(within: 10))
        #expect(seen.finishedWorkers == [0, 1, 2])
    }

    @Test("a worker may close its own queue without waiting for itself")
    func closeFromWorker() {
        let seen = Seen()
        let queue = GroupCommitQueue<Int>(name: "test queue")
        let closedInside = DispatchSemaphore(value: 0)
        queue.start(process: { _, group in
            seen.record(group)
            _ = queue.close(within: 10)
            closedInside.signal()
        })
        _ = queue.enqueue(1)
        #expect(closedInside.wait(timeout: .now() + 10) == .success)
        #expect(queue.close(within: 10))
        #expect(seen.all == [[1]])
    }
}
