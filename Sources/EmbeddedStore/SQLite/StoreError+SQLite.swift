import CSQLite
import ProgressStore

extension StoreError {
    /// The error SQLite reports for `code` on `db`, with `sqlite3_errmsg` when there is a handle.
    init(sqlite code: Int32, db: OpaquePointer?, context: String? = nil) {
        let detail = db.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(code))
        self = .sqlite(code, context.map { "\($0): \(detail)" } ?? detail)
    }
}

/// Turns a failed `sqlite3_*` call into a thrown ``StoreError`` — the one place that does, in the
/// manner of NIO's `syscall { }`. `SQLITE_ROW` and `SQLITE_DONE` are not failures; the code is
/// returned so that `sqlite3_step` callers can tell them apart.
@discardableResult
func sqliteCall(
    _ db: OpaquePointer?, _ context: @autoclosure () -> String? = nil, _ body: () -> Int32
) throws(StoreError) -> Int32 {
    let code = body()
    guard code == SQLITE_OK || code == SQLITE_ROW || code == SQLITE_DONE else {
        throw StoreError(sqlite: code, db: db, context: context())
    }
    return code
}
