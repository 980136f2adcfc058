import Foundation

/// A few read connections, each lent to one caller at a time.
///
/// In WAL mode a reader sees the last committed snapshot and never waits for the writer, so
/// reads stay fast while a group commits.
final class SQLiteReadPool: @unchecked Sendable {
    // `condition` guards `idle` and `isClosed`.
    private let condition = NSCondition()
    private var idle: [SQLiteConnection]
    private var all: [SQLiteConnection]
    private var isClosed = false

    init(connections: [SQLiteConnection]) {
        self.idle = connections
        self.all = connections
    }

    /// Runs `body` with a connection no one else uses meanwhile; waits when all are lent out.
    func withConnection<Result>(
        _ body: (SQLiteConnection) throws(StoreError) -> Result
    ) throws(StoreError) -> Result {
        let connection = try borrow()
        defer { giveBack(connection) }
        return try body(connection)
    }

    /// Waits for lent connections to come back, then closes every one; later reads fail.
    func close() {
        condition.lock()
        isClosed = true
        while idle.count < all.count { condition.wait() }
        let connections = all
        all.removeAll()
        idle.removeAll()
        condition.unlock()
        for connection in connections { connection.close() }
    }

    private func borrow() throws(StoreError) -> SQLiteConnection {
        condition.lock()
        defer { condition.unlock() }
        while true {
            if isClosed { throw StoreError.closed }
            if let connection = idle.popLast() { return connection }
            condition.wait()
        }
    }

    private func giveBack(_ connection: SQLiteConnection) {
        condition.lock()
        idle.append(connection)
        condition.broadcast()
        condition.unlock()
    }
}
