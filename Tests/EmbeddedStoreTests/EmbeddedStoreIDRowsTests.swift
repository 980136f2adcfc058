import Foundation
import ProgressStore
import Testing

@testable import EmbeddedStore

/// How checkpoints keep the ids of the last 24 hours: in blobs of many in `recent_id_chunks`,
/// added as they are acknowledged and deleted once the newest in a blob has expired.
@Suite("EmbeddedStore keeps event ids in saved chunks")
struct EmbeddedStoreIDRowsTests {
    @Test("a checkpoint adds the ids acknowledged since the last one and deletes expired ones")
    func idRows() async throws {
        let folder = try TemporaryFolder()
        let clock = TestClock(0)
        let options = EmbeddedStore.Options(pruneIntervalMs: 0, clock: clock.read)
        let store = try EmbeddedStore.open(path: folder.databasePath, options: options)
        _ = try await store.append((0..<100).map { event(id: "old-\($0)") })
        try store.checkpointNow()
        #expect(try savedIDs(in: folder) == 100)
        clock.advance(byMs: dayMs / 2)
        _ = try await store.append((0..<5).map { event(id: "young-\($0)") })
        try store.checkpointNow()
        #expect(try savedIDs(in: folder) == 105)
        clock.advance(byMs: dayMs / 2)  // the "old" ids expire
        _ = try await store.append([event(id: "now")])
        try store.checkpointNow()
        #expect(try savedIDs(in: folder) == 6)
        store.close()

        let reopened = try EmbeddedStore.open(path: folder.databasePath, options: options)
        defer { reopened.close() }
        let again = try await reopened.append([event(id: "old-7"), event(id: "young-3"), event(id: "now")])
        #expect(again == AppendResult(counted: 1, duplicates: 2))
    }

    @Test("ids replayed from the journal at start-up are saved by the next checkpoint")
    func replayedIDs() async throws {
        let folder = try TemporaryFolder()
        let store = try EmbeddedStore.open(path: folder.databasePath)
        _ = try await store.append([event(id: "before-the-kill")])
        store.abandon()  // as kill -9 does: no checkpoint, the id only in the journal
        let reopened = try EmbeddedStore.open(path: folder.databasePath)
        defer { reopened.close() }
        _ = try await reopened.append([event()])
        try reopened.checkpointNow()
        #expect(try savedIDs(in: folder) == 1)
    }

    @Test("the ids of a checkpoint that failed are saved by the next")
    func idsAfterFailedCheckpoint() async throws {
        let folder = try TemporaryFolder()
        let store = try EmbeddedStore.open(path: folder.databasePath, options: .init(busyTimeoutMs: 50))
        defer { store.close() }
        _ = try await store.append([event(id: "first")])
        let blocker = try SQLiteConnection(filename: folder.databasePath, busyTimeoutMs: 1_000)
        try blocker.execute("BEGIN EXCLUSIVE")
        #expect(throws: StoreError.self) { try store.checkpointNow() }
        try blocker.execute("COMMIT")
        blocker.close()
        _ = try await store.append([event(id: "second")])
        try store.checkpointNow()
        #expect(try savedIDs(in: folder) == 2)
    }

    @Test("once the writer drops a long run of expired ids, the ids after them are still saved")
    func idsAfterPruning() async throws {
        let folder = try TemporaryFolder()
        let clock = TestClock(0)
        let store = try EmbeddedStore.open(
            path: folder.databasePath, options: .init(pruneIntervalMs: 0, clock: clock.read))
        defer { store.close() }
        _ = try await store.append((0..<5_000).map { event(id: "early-\($0)") })
        try store.checkpointNow()
        clock.advance(byMs: dayMs + 1)
        _ = try await store.append([event(id: "late")])
        try store.checkpointNow()
        #expect(try savedIDs(in: folder) == 1)
    }

    @Test("a checkpoint saves many ids in a few rows, and a damaged chunk stops start-up")
    func chunkRows() async throws {
        let folder = try TemporaryFolder()
        let store = try EmbeddedStore.open(path: folder.databasePath)
        _ = try await store.append((0..<1_000).map { event(id: "many-\($0)") })
        try store.checkpointNow()
        store.close()
        #expect(try rowCount("recent_id_chunks", in: folder) == 1)
        #expect(try savedIDs(in: folder) == 1_000)

        let connection = try SQLiteConnection(filename: folder.databasePath, busyTimeoutMs: 1_000)
        try connection.execute("UPDATE recent_id_chunks SET data = substr(data, 1, length(data) - 3)")
        connection.close()
        #expect(throws: StoreError.self) { try EmbeddedStore.open(path: folder.databasePath).close() }
    }
}

/// How many ids the saved chunks hold.
private func savedIDs(in folder: TemporaryFolder) throws -> Int {
    let connection = try SQLiteConnection(filename: folder.databasePath, busyTimeoutMs: 1_000)
    defer { connection.close() }
    let rows = try connection.cached("SELECT data FROM recent_id_chunks")
    defer { rows.reset() }
    var count = 0
    while try rows.step() { count += try IDKeyList(blob: rows.blob(0)).count }
    return count
}
