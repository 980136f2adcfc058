import Foundation
import ProgressStore

/// The daily salts, in the database's `salts` table through a connection of their own (the
/// checkpointer's is busy on its thread), each written — and synced — before it is first
/// handed out, so that a restart derives the same reader ids that day.
///
/// Deleted 48 hours after their day ends (``DailySalt/oldestKept(today:)``), with
/// `secure_delete` on, so that the 16 bytes leave the file's pages too.
final class SaltBook: @unchecked Sendable {
    private let lock = NSLock()
    // Guarded by `lock`.
    private let connection: SQLiteConnection
    private var known: [Int32: DailySalt] = [:]
    private var isClosed = false

    init(filename: String, busyTimeoutMs: Int32) throws(StoreError) {
        connection = try SQLiteConnection(filename: filename, busyTimeoutMs: busyTimeoutMs)
        // Synced before a salt is handed out: an id derived with it must be derivable again.
        try connection.execute("PRAGMA synchronous = FULL")
        try connection.execute("PRAGMA secure_delete = ON")
    }

    /// The salt of `day`, made and saved if there is none; refused for a day whose salt is
    /// already past keeping on `today`.
    func salt(forDay day: Int32, today: Int32) throws(StoreError) -> DailySalt {
        lock.lock()
        defer { lock.unlock() }
        guard !isClosed else { throw StoreError.closed }
        guard day >= DailySalt.oldestKept(today: today) else {
            throw StoreError.configuration("the salt of day \(day) is deleted (today is \(today))")
        }
        if let salt = known[day] { return salt }
        let select = try connection.cached("SELECT salt FROM salts WHERE day = ?1")
        defer { select.reset() }
        try select.bind(1, Int64(day))
        if try select.step() {
            let bytes = Array(select.blob(0))
            guard bytes.count == 16 else { throw StoreError.corrupt("the salt of day \(day) is damaged") }
            let salt = DailySalt(day: day, bytes: bytes)
            known[day] = salt
            return salt
        }
        select.reset()
        let salt = DailySalt.random(day: day)
        let insert = try connection.cached("INSERT INTO salts (day, salt) VALUES (?1, ?2)")
        try insert.bind(1, Int64(day))
        try insert.bind(2, blob: salt.bytes)
        try insert.run()
        known[day] = salt
        try deleteExpired(today: today)
        return salt
    }

    /// Deletes the salts past keeping on `today`.
    func prune(today: Int32) throws(StoreError) {
        lock.lock()
        defer { lock.unlock() }
        guard !isClosed else { return }
        try deleteExpired(today: today)
    }

    func close() {
        lock.withLock {
            guard !isClosed else { return }
            isClosed = true
            known = [:]
            connection.close()
        }
    }

    /// Callers hold `lock`.
    private func deleteExpired(today: Int32) throws(StoreError) {
        let oldest = DailySalt.oldestKept(today: today)
        known = known.filter { $0.key >= oldest }
        let delete = try connection.cached("DELETE FROM salts WHERE day < ?1")
        try delete.bind(1, Int64(oldest))
        try delete.run()
    }
}
