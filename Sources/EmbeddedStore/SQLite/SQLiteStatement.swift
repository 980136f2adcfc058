import CSQLite
import ProgressStore

/// A prepared statement, reused across executions; owned by one ``SQLiteConnection``.
final class SQLiteStatement {
    let handle: OpaquePointer
    private let db: OpaquePointer

    init(db: OpaquePointer, sql: String) throws(StoreError) {
        var handle: OpaquePointer?
        try sqliteCall(db, "prepare \(sql)") { sqlite3_prepare_v3(db, sql, -1, 0, &handle, nil) }
        guard let handle else {
            throw StoreError.sqlite(SQLITE_MISUSE, "empty statement: \(sql)")
        }
        self.handle = handle
        self.db = db
    }

    deinit {
        sqlite3_finalize(handle)
    }

    func bind(_ index: Int32, _ value: Int64) throws(StoreError) {
        try sqliteCall(db) { sqlite3_bind_int64(handle, index, value) }
    }

    func bind(_ index: Int32, _ value: Double) throws(StoreError) {
        try sqliteCall(db) { sqlite3_bind_double(handle, index, value) }
    }

    func bind(_ index: Int32, _ value: String) throws(StoreError) {
        var value = value
        // With an explicit length, so that a NUL inside a reader id does not cut it short.
        let code = value.withUTF8 { bytes in
            bytes.withMemoryRebound(to: CChar.self) { chars in
                guard let base = chars.baseAddress else {
                    return csqlite_bind_text_transient(handle, index, "", 0)
                }
                return csqlite_bind_text_transient(handle, index, base, Int32(chars.count))
            }
        }
        try sqliteCall(db) { code }
    }

    func bind(_ index: Int32, blob: [UInt8]) throws(StoreError) {
        guard blob.count <= Int32.max else {
            throw StoreError.sqlite(
                SQLITE_TOOBIG, "a blob of \(blob.count) bytes is more than SQLite takes")
        }
        let code = blob.withUnsafeBytes { bytes in
            csqlite_bind_blob_transient(
                handle, index, bytes.baseAddress ?? UnsafeRawPointer(bitPattern: 1), Int32(bytes.count))
        }
        try sqliteCall(db) { code }
    }

    /// Binds `bytes` without copying them: SQLite reads them in place, so they must stay valid
    /// until the statement has run (``run()`` and ``reset()`` clear the binding). For the large
    /// blobs of a checkpoint, where each copy — ours of a part, SQLite's of what is bound — was
    /// hundreds of megabytes more for an article of millions of readers.
    func bind(_ index: Int32, blobInPlace bytes: UnsafeRawBufferPointer) throws(StoreError) {
        guard bytes.count <= Int32.max else {
            throw StoreError.sqlite(
                SQLITE_TOOBIG, "a blob of \(bytes.count) bytes is more than SQLite takes")
        }
        // A nil destructor is SQLITE_STATIC: no copy.
        let start = bytes.baseAddress ?? UnsafeRawPointer(bitPattern: 1)
        try sqliteCall(db) { sqlite3_bind_blob(handle, index, start, Int32(bytes.count), nil) }
    }

    /// Runs one step: `true` when a row is ready to read, `false` when the statement is done.
    func step() throws(StoreError) -> Bool {
        try sqliteCall(db) { sqlite3_step(handle) } == SQLITE_ROW
    }

    /// Runs the statement to its end, ignoring rows, and makes it ready for the next use.
    func run() throws(StoreError) {
        defer { reset() }
        while try step() {}
    }

    /// Ready for the next execution, with its bindings cleared: a statement kept in the cache
    /// would otherwise hold SQLite's copy of the last blob bound to it — a checkpoint's article,
    /// hundreds of megabytes for a large one — until its next use.
    func reset() {
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
    }

    func int64(_ column: Int32) -> Int64 { sqlite3_column_int64(handle, column) }
    func double(_ column: Int32) -> Double { sqlite3_column_double(handle, column) }
    func isNull(_ column: Int32) -> Bool { sqlite3_column_type(handle, column) == SQLITE_NULL }

    /// The bytes of a blob column, valid until the next step or reset.
    func blob(_ column: Int32) -> UnsafeRawBufferPointer {
        let count = Int(sqlite3_column_bytes(handle, column))
        return UnsafeRawBufferPointer(start: sqlite3_column_blob(handle, column), count: count)
    }

    func string(_ column: Int32) -> String {
        guard let text = sqlite3_column_text(handle, column) else { return "" }
        let count = Int(sqlite3_column_bytes(handle, column))
        return String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self)
    }
}
