import CSQLite
import ProgressStore

/// One `sqlite3` connection with its cache of prepared statements.
///
/// Opened in SQLite's multi-thread mode (`SQLITE_OPEN_NOMUTEX`): a connection must only be used
/// by one thread at a time. Its owner guarantees that — the store opens the state connection
/// and, once started, only the checkpointer's thread uses it — hence `@unchecked Sendable`.
final class SQLiteConnection: @unchecked Sendable {
    private(set) var db: OpaquePointer?
    private var statements: [String: SQLiteStatement] = [:]

    /// Opens `filename` (a path, or a `file:` URI) and sets the busy timeout.
    init(filename: String, busyTimeoutMs: Int32) throws(StoreError) {
        var db: OpaquePointer?
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_URI | SQLITE_OPEN_NOMUTEX
        let code = sqlite3_open_v2(filename, &db, flags, nil)
        guard code == SQLITE_OK, let db else {
            let error = StoreError(sqlite: code, db: db, context: "open \(filename)")
            sqlite3_close_v2(db)
            throw error
        }
        self.db = db
        sqlite3_extended_result_codes(db, 1)
        try sqliteCall(db) { sqlite3_busy_timeout(db, busyTimeoutMs) }
    }

    deinit {
        close()
    }

    /// Finalizes the cached statements and closes the connection; idempotent.
    func close() {
        statements.removeAll()
        if let db {
            sqlite3_close_v2(db)
            self.db = nil
        }
    }

    private func openHandle() throws(StoreError) -> OpaquePointer {
        guard let db else { throw StoreError.closed }
        return db
    }

    /// Runs `sql`, one or more statements without parameters, ignoring any rows.
    func execute(_ sql: String) throws(StoreError) {
        let db = try openHandle()
        try sqliteCall(db, String(sql.prefix { $0 != "\n" }.prefix(60))) {
            sqlite3_exec(db, sql, nil, nil, nil)
        }
    }

    /// The first column of the first row of `sql` as an integer (for pragmas and counts).
    func integer(_ sql: String) throws(StoreError) -> Int64 {
        let statement = try cached(sql)
        defer { statement.reset() }
        guard try statement.step() else { return 0 }
        return statement.int64(0)
    }

    /// The prepared statement for `sql`, prepared on first use and kept for the connection's life.
    func cached(_ sql: String) throws(StoreError) -> SQLiteStatement {
        if let statement = statements[sql] { return statement }
        let statement = try SQLiteStatement(db: try openHandle(), sql: sql)
        statements[sql] = statement
        return statement
    }

    /// Rows changed by the last statement this connection ran.
    var changes: Int {
        db.map { Int(sqlite3_changes($0)) } ?? 0
    }

    /// The rowid of the last row this connection inserted.
    var lastInsertRowID: Int64 {
        db.map { sqlite3_last_insert_rowid($0) } ?? 0
    }

    /// Whether the connection is outside any transaction (SQLite may end one by itself on error).
    var isAutocommit: Bool {
        db.map { sqlite3_get_autocommit($0) != 0 } ?? true
    }

    /// Runs `body` in a `BEGIN IMMEDIATE` transaction and commits; on any error rolls back and
    /// rethrows, so either all of `body`'s writes are durable or none is.
    func transaction<Result>(_ body: () throws(StoreError) -> Result) throws(StoreError) -> Result {
        // Prepared once and reused: sqlite3_exec would parse them again for every group.
        try cached("BEGIN IMMEDIATE").run()
        do {
            let result = try body()
            try cached("COMMIT").run()
            return result
        } catch {
            // After some errors (SQLITE_FULL, SQLITE_IOERR …) SQLite has rolled back already.
            // The body's error is the one to report; a rollback that fails leaves the
            // transaction to be rolled back when the connection closes, committing nothing.
            if !isAutocommit { try? execute("ROLLBACK") }
            throw error
        }
    }
}
