import Foundation
import ProgressStore

/// The daily salts, in the database's `salts` table through a connection of their own (the
/// checkpointer's is busy on its thread), each written — and synced — before it is first
/// handed out, so that a restart derives the same reader ids that day.
///
/// Deleted 48 hours after their day ends (``DailySalt/oldestKept(today:)``), with
/// `secure_delete` on, so that the 16 bytes leave the file's pages too.
final class SaltBook: @unchecked Sendable {
    /// Guards the connection, and the writes to `known`.
    private let lock = NSLock()
    // Guarded by `lock`.
    private let connection: SQLiteConnection
    private var isClosed = false
    /// The salts in the table, read by requests without waiting for `lock`, which a write of
    /// the next day's salt (an fsync) may hold.
    private let known = Locked<[Int32: DailySalt]>([:])

    init(filename: String, busyTimeoutMs: Int32) throws(StoreError) {
        connection = try SQLiteConnection(filename: filename, busyTimeoutMs: busyTimeoutMs)
        // Synced before a salt is handed out: an id derived with it must be derivable again.
        try connection.execute("PRAGMA synchronous = FULL")
        try connection.execute("PRAGMA secure_delete = ON")
        let rows = try connection.cached("SELECT day, salt FROM salts")
        defer { rows.reset() }
        var found: [Int32: DailySalt] = [:]
        while try rows.step() {
            let day = Int32(truncatingIfNeeded: rows.int64(0))
            let bytes = Array(rows.blob(1))
            guard bytes.count == 16 else { throw StoreError.corrupt("the salt of day \(day) is damaged") }
            found[day] = DailySalt(day: day, bytes: bytes)
        }
        known.withLock { $0 = found }
    }

    /// The salt of `day`, made and saved if there is none; refused for a day whose salt is
    /// already past keeping on `today`. Today's and tomorrow's are made ahead (see
    /// ``prepare(today:)``), so that a request reads them from memory.
    func salt(forDay day: Int32, today: Int32) throws(StoreError) -> DailySalt {
        guard day >= DailySalt.oldestKept(today: today) else {
            throw StoreError.configuration("the salt of day \(day) is deleted (today is \(today))")
        }
        if let salt = known.withLock({ $0[day] }) { return salt }
        lock.lock()
        defer { lock.unlock() }
        return try made(day: day, today: today)
    }

    /// Makes today's and tomorrow's salts if they are not made yet, and deletes those past
    /// keeping: at start and from the checkpointer's thread, so that no request waits on the
    /// write (and its fsync) of a new day's salt. Costs a look in memory when there is nothing to do.
    func prepare(today: Int32) throws(StoreError) {
        let ready = known.withLock { $0[today] != nil && $0[today + 1] != nil }
        guard !ready else { return }
        lock.lock()
        defer { lock.unlock() }
        _ = try made(day: today, today: today)
        _ = try made(day: today + 1, today: today)
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
            known.withLock { $0 = [:] }
            connection.close()
        }
    }

    /// The salt of `day`: the one saved, or a new one saved now. Callers hold `lock`.
    private func made(day: Int32, today: Int32) throws(StoreError) -> DailySalt {
        guard !isClosed else { throw StoreError.closed }
        if let salt = known.withLock({ $0[day] }) { return salt }
        let select = try connection.cached("SELECT salt FROM salts WHERE day = ?1")
        defer { select.reset() }
        try select.bind(1, Int64(day))
        if try select.step() {
            let bytes = Array(select.blob(0))
            guard bytes.count == 16 else { throw StoreError.corrupt("the salt of day \(day) is damaged") }
            let salt = DailySalt(day: day, bytes: bytes)
            known.withLock { $0[day] = salt }
            return salt
        }
        select.reset()
        let salt = DailySalt.random(day: day)
        let insert = try connection.cached("INSERT INTO salts (day, salt) VALUES (?1, ?2)")
        try insert.bind(1, Int64(day))
        try insert.bind(2, blob: salt.bytes)
        try insert.run()
        known.withLock { $0[day] = salt }
        try deleteExpired(today: today)
        return salt
    }

    /// Callers hold `lock`.
    private func deleteExpired(today: Int32) throws(StoreError) {
        let oldest = DailySalt.oldestKept(today: today)
        known.withLock { known in known = known.filter { $0.key >= oldest } }
        let delete = try connection.cached("DELETE FROM salts WHERE day < ?1")
        try delete.bind(1, Int64(oldest))
        try delete.run()
    }
}
