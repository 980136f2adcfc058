import Foundation
import ProgressStore
import Testing

@testable import EmbeddedStore

/// The store when something goes wrong around it: checkpoints that fail, an open that fails,
/// a close in the middle of appends.
@Suite("EmbeddedStore in trouble")
struct EmbeddedStoreTroubleTests {
    private func journalFiles(_ folder: TemporaryFolder) throws -> [String] {
        let path = URL(fileURLWithPath: folder.databasePath).deletingLastPathComponent().path
        return try FileManager.default.contentsOfDirectory(atPath: path).filter { $0.contains("-journal.") }
    }

    @Test(
        "checkpoints that keep failing (SQLite busy) do not start a journal segment each, and catch up later")
    func failingCheckpoints() async throws {
        let folder = try TemporaryFolder()
        let store = try EmbeddedStore.open(path: folder.databasePath, options: .init(busyTimeoutMs: 10))
        _ = try await store.append([event("/a", "first")])
        try store.checkpointNow()
        // Another connection holds the write lock: every checkpoint fails with SQLITE_BUSY.
        let blocker = try SQLiteConnection(filename: folder.databasePath, busyTimeoutMs: 10)
        try blocker.execute("BEGIN IMMEDIATE")
        for round in 0..<20 {
            _ = try await store.append([event("/a", "r\(round)")])
            #expect(throws: StoreError.self) { try store.checkpointNow() }
        }
        // Each segment is a file and a descriptor held open: one per failed attempt would run
        // the process out of descriptors during a long outage, and the next start with it.
        #expect(try journalFiles(folder).count <= 3)
        try blocker.execute("ROLLBACK")
        blocker.close()

        try store.checkpointNow()
        #expect(store.checkpointSeq == store.committedSeqValue)
        _ = try await store.append([event("/a", "last")])
        try store.checkpointNow()
        #expect(try journalFiles(folder).count == 1)
        store.abandon()
        let reopened = try EmbeddedStore.open(path: folder.databasePath)
        defer { reopened.close() }
        #expect(try reopened.readers(of: "/a", in: .allTime)?.count == 22)
    }

    @Test("a database older than its journal (restored from a backup) refuses to open, naming the gap")
    func databaseOlderThanJournal() async throws {
        let folder = try TemporaryFolder()
        let path = folder.databasePath
        let files = FileManager.default
        let store = try EmbeddedStore.open(path: path)
        _ = try await store.append([event("/a", "r1"), event("/a", "r2")])
        store.close()  // checkpoints through entry 1 (one append); the journal now begins at 2
        try files.copyItem(atPath: path, toPath: path + ".backup")

        let later = try EmbeddedStore.open(path: path)
        _ = try await later.append([event("/a", "r3"), event("/a", "r4"), event("/a", "r5")])
        try later.checkpointNow()  // through entry 2, which only the database now holds
        _ = try await later.append([event("/a", "r6")])  // entry 3, in the journal only
        later.abandon()  // as kill -9 would: the journal keeps entry 3
        for suffix in ["", "-wal", "-shm"] { try? files.removeItem(atPath: path + suffix) }
        try files.moveItem(atPath: path + ".backup", toPath: path)

        do {
            _ = try EmbeddedStore.open(path: path)
            Issue.record("a database without journal entry 2 opened")
        } catch {
            #expect(error.message.contains("journal entry 2 is in neither"), "\(error.message)")
            #expect(error.message.contains("begins at entry 3"), "\(error.message)")
        }
        // The way out the message names: the journal aside, the database alone.
        for name in try files.contentsOfDirectory(atPath: (path as NSString).deletingLastPathComponent)
        where name.contains("-journal.") {
            let folderPath = (path as NSString).deletingLastPathComponent
            try files.moveItem(atPath: folderPath + "/" + name, toPath: folder.url.path + "/" + name)
        }
        let reopened = try EmbeddedStore.open(path: path)
        defer { reopened.close() }
        #expect(try reopened.readers(of: "/a", in: .allTime)?.count == 2)
    }

    @Test("an open that fails lets go of the lock file, so that a later one can succeed")
    func failedOpenReleasesLock() throws {
        let folder = try TemporaryFolder()
        try EmbeddedStore.open(path: folder.databasePath).close()
        let connection = try SQLiteConnection(filename: folder.databasePath, busyTimeoutMs: 1_000)
        try connection.execute("PRAGMA user_version = 99")
        #expect(throws: StoreError.self) { try EmbeddedStore.open(path: folder.databasePath) }
        try connection.execute("PRAGMA user_version = \(Schema.currentVersion)")
        connection.close()
        let store = try EmbeddedStore.open(path: folder.databasePath)
        store.close()
    }

    @Test("with an fsync per commit, a failed sync stops every later write until a restart")
    func failedSyncStopsWrites() async throws {
        let folder = try TemporaryFolder()
        let options = EmbeddedStore.Options(fsyncEachCommit: true)
        let store = try EmbeddedStore.open(path: folder.databasePath, options: options)
        _ = try await store.append([event("/a", "before")])
        #expect(store.isWritable)
        store.journal.setFaults(.init(syncFails: true))
        await #expect(throws: StoreError.self) { try await store.append([event("/a", "unsynced")]) }
        // The fault was one sync's, but the disk may have dropped pages a later sync would not
        // report: nothing more is acknowledged, and a probe says so.
        await #expect(throws: StoreError.self) { try await store.append([event("/a", "after")]) }
        #expect(!store.isWritable)
        store.probe { ok in #expect(!ok) }
        #expect(!store.isWritable)
        store.close()

        let reopened = try EmbeddedStore.open(path: folder.databasePath, options: options)
        defer { reopened.close() }
        _ = try await reopened.append([event("/a", "restarted")])
        #expect(reopened.isWritable)
        // The event whose sync failed was in the index, which the checkpoint at close saved (its
        // client was told it failed, and may resend it with its id); the one refused after it
        // was never taken.
        #expect(try reopened.readers(of: "/a", in: .allTime)?.count == 3)
        #expect(try reopened.reader("after", of: "/a") == nil)
    }

    @Test("with an fsync per commit, a repeat is acknowledged only once the first is synced")
    func repeatWaitsForSync() throws {
        let folder = try TemporaryFolder()
        let store = try EmbeddedStore.open(path: folder.databasePath, options: .init(fsyncEachCommit: true))
        defer { store.close() }
        let gate = DispatchSemaphore(value: 0)
        let syncing = DispatchSemaphore(value: 0)
        store.journal.setBeforeSync {
            syncing.signal()
            gate.wait()
        }
        let done = Locked<[String]>([])
        let finished = DispatchSemaphore(value: 0)
        store.append([event(id: "x")]) { result in
            done.withLock { $0.append("first \(result.map(\.counted))") }
            finished.signal()
        }
        store.append([event(id: "x")]) { result in
            done.withLock { $0.append("repeat \(result.map(\.duplicates))") }
            finished.signal()
        }
        // Both appends have returned and the first one's fdatasync is held: a power cut now
        // would lose it, so saying "already stored" to the repeat would acknowledge an event
        // that is not durable.
        #expect(syncing.wait(timeout: .now() + 10) == .success)
        #expect(done.current.isEmpty)
        store.journal.setBeforeSync(nil)
        gate.signal()
        #expect(finished.wait(timeout: .now() + 10) == .success)
        #expect(finished.wait(timeout: .now() + 10) == .success)
        #expect(done.current == ["first success(1)", "repeat success(1)"])
    }

    @Test(
        "an append that races close (and its last checkpoint) is refused and not stored, or acknowledged and stored",
        arguments: [true, false])
    func appendsRacingClose(fsyncEachCommit: Bool) throws {
        for round in 0..<30 {
            let folder = try TemporaryFolder()
            let store = try EmbeddedStore.open(
                path: folder.databasePath, options: .init(fsyncEachCommit: fsyncEachCommit))
            let outcomes = Locked<[String: Bool]>([:])
            let group = DispatchGroup()
            for thread in 0..<8 {
                DispatchQueue.global().async(group: group) {
                    var index = 0
                    while true {
                        let reader = "t\(thread)-\(index)"
                        index += 1
                        let refused = Locked(false)
                        store.append([event("/a", reader)]) { result in
                            outcomes.withLock { $0[reader] = (try? result.get()) != nil }
                            if case .failure = result { refused.withLock { $0 = true } }
                        }
                        if refused.current || !store.isWritable { return }
                    }
                }
            }
            // Close once some appends have been answered — a different number each round — while
            // the threads go on appending.
            let answered = 20 * (round % 5 + 1)
            #expect(eventually { outcomes.current.count >= answered })
            store.close()
            group.wait()
            store.close()
            let stored = try EmbeddedStore.open(path: folder.databasePath)
            let readers = Set(try stored.readers(of: "/a", in: .allTime)?.map(\.reader) ?? [])
            stored.close()
            let acknowledged = Set(outcomes.current.filter(\.value).keys)
            let lost = acknowledged.subtracting(readers)
            let refusedButStored = readers.subtracting(acknowledged)
            #expect(lost.isEmpty, "round \(round): acknowledged but lost")
            #expect(refusedButStored.isEmpty, "round \(round): refused but stored")
        }
    }

}
