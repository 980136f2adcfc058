import Foundation
import ProgressStore
import Testing

@testable import EmbeddedStore

@Suite("EmbeddedStore on a full disk")
struct EmbeddedStoreFailureTests {
    /// Enough distinct readers with long ids that the group is a large journal entry.
    private let bigBatch = (0..<400).map { index in
        event("/big", String(repeating: "x", count: 100) + "\(index)", id: "big-\(index)")
    }

    @Test("a group that does not fit fails whole, keeps earlier data, and works once there is room")
    func fullDatabase() async throws {
        let folder = try TemporaryFolder()
        let store = try EmbeddedStore.open(path: folder.databasePath)
        defer { store.close() }
        _ = try await store.append([event("/a", "r1", engagedMs: 7, id: "early")])
        let before = try store.listing(in: .allTime, threshold: 0.9)

        // A capacity of 0 makes every write fail as on a full disk.
        store.setJournalCapacity(0)
        let error = await #expect(throws: StoreError.self) { try await store.append(bigBatch) }
        #expect(error?.posixCode == ENOSPC)
        #expect(!store.isWritable)
        #expect(try store.listing(in: .allTime, threshold: 0.9) == before)
        #expect(try store.readers(of: "/big", in: .allTime) == nil)

        store.setJournalCapacity(nil)
        // The failed group left no trace: its ids are new, and the earlier one is still known.
        let retry = try await store.append(bigBatch + [event("/a", "r1", id: "early")])
        #expect(retry == AppendResult(counted: 400, duplicates: 1))
        #expect(store.isWritable)
        #expect(try store.readers(of: "/big", in: .allTime)?.count == 400)
        #expect(try store.reader("r1", of: "/a")?.engagedMs == 7)
    }

    @Test("a capacity at open caps the journal from the start")
    func fullFromTheStart() async throws {
        let store = try EmbeddedStore.open(path: ":memory:", options: .journalCapacity(0))
        defer { store.close() }
        await #expect(throws: StoreError.self) { try await store.append(bigBatch) }
        #expect(!store.isWritable)
    }

    @Test("a probe turns the store writable again when nothing is appended")
    func probeRecovers() async throws {
        let folder = try TemporaryFolder()
        let store = try EmbeddedStore.open(path: folder.databasePath, options: .journalCapacity(0))
        defer { store.close() }
        await #expect(throws: StoreError.self) { try await store.append(bigBatch) }
        #expect(!store.isWritable)
        store.setJournalCapacity(nil)
        let probed = await withCheckedContinuation { done in store.probe { done.resume(returning: $0) } }
        #expect(probed)
        #expect(store.isWritable)
    }

    @Test("appends from many threads all complete and all count")
    func concurrentAppends() throws {
        let folder = try TemporaryFolder()
        let store = try EmbeddedStore.open(path: folder.databasePath)
        defer { store.close() }
        let threads = 16
        let perThread = 250
        let finished = DispatchSemaphore(value: 0)
        let failures = LockedCounter()
        DispatchQueue.concurrentPerform(iterations: threads) { thread in
            for index in 0..<perThread {
                let record = event("/a", "t\(thread)", engagedMs: 1, id: "\(thread)-\(index)")
                store.append([record]) { result in
                    if (try? result.get()) != AppendResult(counted: 1, duplicates: 0) { failures.add() }
                    finished.signal()
                }
            }
        }
        for _ in 0..<(threads * perThread) { finished.wait() }
        #expect(failures.value == 0)
        let readers = try #require(try store.readers(of: "/a", in: .allTime))
        #expect(readers.count == threads)
        #expect(readers.allSatisfy { $0.events == Int64(perThread) && $0.engagedMs == Int64(perThread) })
    }
}

/// A counter that completions on the writer thread can bump.
private final class LockedCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0

    func add() { lock.withLock { count += 1 } }
    var value: Int { lock.withLock { count } }
}
