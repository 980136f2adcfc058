import Foundation
import ProgressStore

/// A few connections shared by the threads that read, erase and make salts: a caller takes one
/// for the length of a call and gives it back.
///
/// A caller that finds none idle waits in line, and a connection given back goes straight to
/// the first in line — no caller polls, and none is overtaken by later ones. After ``close()``,
/// idle connections are closed at once and those in use when they come back.
final class ConnectionPool: @unchecked Sendable {
    /// One caller waiting for a connection; woken with one, or with none when the pool closes.
    private final class Waiter: @unchecked Sendable {
        let woken = DispatchSemaphore(value: 0)
        // Set before `woken` is signalled, read after it is waited for.
        var connection: PGConnection?
    }

    private let lock = NSLock()
    // Guarded by `lock`.
    private var idle: [PGConnection]
    private var waiters: [Waiter] = []
    private var inUse = 0
    private var isClosed = false
    private let returned = NSCondition()

    /// `size` connections to `uri`, connected at their first use, sharing `reconnection`.
    init(uri: String, size: Int, reconnection: Reconnection) throws(StoreError) {
        var connections: [PGConnection] = []
        for _ in 0..<max(1, size) {
            connections.append(try PGConnection(uri: uri, reconnection: reconnection))
        }
        idle = connections
    }

    /// Runs `body` with a connection of the pool's, waiting in line for one if all are taken.
    func withConnection<Value>(_ body: (PGConnection) throws(StoreError) -> Value) throws(StoreError) -> Value
    {
        let connection = try take()
        defer { giveBack(connection) }
        connection.dropIfClosedByServer()
        return try body(connection)
    }

    /// Callers waiting in line for a connection.
    var waitingCount: Int { lock.withLock { waiters.count } }

    /// Closes the idle connections and wakes every caller in line (with ``StoreError/closed``);
    /// connections in use are closed when they come back. Waits up to `seconds` for them;
    /// whether they all came back.
    @discardableResult
    func close(within seconds: Double = 0) -> Bool {
        lock.lock()
        isClosed = true
        let closing = idle
        idle = []
        let woken = waiters
        waiters = []
        lock.unlock()
        for connection in closing { connection.close() }
        for waiter in woken { waiter.woken.signal() }
        let deadline = Date().addingTimeInterval(seconds)
        returned.lock()
        defer { returned.unlock() }
        while lock.withLock({ inUse }) > 0 {
            if !returned.wait(until: deadline) { return lock.withLock { inUse } == 0 }
        }
        return true
    }

    private func take() throws(StoreError) -> PGConnection {
        lock.lock()
        guard !isClosed else {
            lock.unlock()
            throw StoreError.closed
        }
        if let connection = idle.popLast() {
            inUse += 1
            lock.unlock()
            return connection
        }
        let waiter = Waiter()
        waiters.append(waiter)
        lock.unlock()
        waiter.woken.wait()
        // `giveBack` counted it in use when it handed it over.
        guard let connection = waiter.connection else { throw StoreError.closed }
        return connection
    }

    private func giveBack(_ connection: PGConnection) {
        lock.lock()
        if isClosed {
            inUse -= 1
            lock.unlock()
            connection.close()
            returned.lock()
            returned.broadcast()
            returned.unlock()
            return
        }
        if waiters.isEmpty {
            inUse -= 1
            idle.append(connection)
            lock.unlock()
            return
        }
        let next = waiters.removeFirst()
        next.connection = connection
        lock.unlock()
        next.woken.signal()
    }
}
