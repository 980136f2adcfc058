import Foundation
import ProgressStore

/// A few connections shared by the threads that read, erase and make salts: a caller takes one
/// for the length of a call and gives it back.
final class ConnectionPool: @unchecked Sendable {
    private let condition = NSCondition()
    // Guarded by `condition`.
    private var idle: [PGConnection]
    private var isClosed = false

    init(uri: String, size: Int) throws(StoreError) {
        var connections: [PGConnection] = []
        for _ in 0..<max(1, size) { connections.append(try PGConnection(uri: uri)) }
        idle = connections
    }

    /// Runs `body` with a connection of the pool's, waiting for one if all are taken.
    func withConnection<Value>(_ body: (PGConnection) throws(StoreError) -> Value) throws(StoreError) -> Value
    {
        condition.lock()
        while idle.isEmpty && !isClosed { condition.wait() }
        guard !isClosed, let connection = idle.popLast() else {
            condition.unlock()
            throw StoreError.closed
        }
        condition.unlock()
        defer {
            condition.lock()
            idle.append(connection)
            condition.signal()
            condition.unlock()
        }
        return try body(connection)
    }

    func close() {
        condition.lock()
        isClosed = true
        for connection in idle { connection.close() }
        condition.broadcast()
        condition.unlock()
    }
}

/// Appends waiting for a committer, taken a group at a time.
final class CommitQueue: @unchecked Sendable {
    struct Append {
        var events: [EventRecord]
        var completion: @Sendable (Result<AppendResult, StoreError>) -> Void
    }

    private let condition = NSCondition()
    private var pending: [Append] = []
    private var isClosed = false

    /// Queues `append`; false once the queue is closed.
    func enqueue(_ append: Append) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        guard !isClosed else { return false }
        pending.append(append)
        condition.signal()
        return true
    }

    /// The appends waiting, up to about `maxEvents` events (at least one append); waits for one.
    /// Empty once the queue is closed and drained.
    func take(maxEvents: Int) -> [Append] {
        condition.lock()
        defer { condition.unlock() }
        while pending.isEmpty && !isClosed { condition.wait() }
        var taken: [Append] = []
        var events = 0
        while !pending.isEmpty && (taken.isEmpty || events + pending[0].events.count <= maxEvents) {
            events += pending[0].events.count
            taken.append(pending.removeFirst())
        }
        return taken
    }

    func close() {
        condition.lock()
        isClosed = true
        condition.broadcast()
        condition.unlock()
    }
}
