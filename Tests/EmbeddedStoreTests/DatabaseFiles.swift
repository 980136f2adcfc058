import Foundation
import ProgressStore

@testable import EmbeddedStore

/// A database of the earlier release (schema 1, `reader_days` and `event_ids`) where `folder`'s
/// store goes, with article 1 named "/old", open for the test to fill and close.
func legacyDatabase(in folder: TemporaryFolder) throws -> SQLiteConnection {
    try FileManager.default.createDirectory(
        atPath: URL(fileURLWithPath: folder.databasePath).deletingLastPathComponent().path,
        withIntermediateDirectories: true)
    let old = try SQLiteConnection(filename: folder.databasePath, busyTimeoutMs: 1_000)
    try Schema.migrate(old, with: Array(Schema.migrations.prefix(1)))
    try old.execute("INSERT INTO articles (id, name) VALUES (1, '/old')")
    return old
}

/// The rows of `table` (and whatever follows it in the query) in `folder`'s database, counted
/// through a connection of the test's own, as another process would.
func rowCount(_ table: String, in folder: TemporaryFolder) throws -> Int {
    let connection = try SQLiteConnection(filename: folder.databasePath, busyTimeoutMs: 1_000)
    defer { connection.close() }
    return Int(try connection.integer("SELECT count(*) FROM \(table)"))
}
