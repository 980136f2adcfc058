import Foundation

@testable import ProgressStore

/// A database of the earlier release (schema 1, `reader_days` and `event_ids`) where `folder`'s
/// store goes, with article 1 named "/old", open for the test to fill and close.
func legacyDatabase(in folder: TemporaryFolder) throws -> SQLiteConnection {
    try FileManager.default.createDirectory(
        atPath: URL(fileURLWithPath: folder.databasePath).deletingLastPathComponent().path,
        withIntermediateDirectories: true)
    let old = try SQLiteConnection(filename: folder.databasePath, busyTimeoutMs: 1_000)
    try SQLiteSchema.migrate(old, with: Array(SQLiteSchema.migrations.prefix(1)))
    try old.execute("INSERT INTO articles (id, name) VALUES (1, '/old')")
    return old
}
