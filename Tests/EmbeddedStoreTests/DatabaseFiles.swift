import Foundation
import ProgressStore

@testable import EmbeddedStore

/// The rows of `table` (and whatever follows it in the query) in `folder`'s database, counted
/// through a connection of the test's own, as another process would.
func rowCount(_ table: String, in folder: TemporaryFolder) throws -> Int {
    let connection = try SQLiteConnection(filename: folder.databasePath, busyTimeoutMs: 1_000)
    defer { connection.close() }
    return Int(try connection.integer("SELECT count(*) FROM \(table)"))
}
