import ProgressStore
import Testing

@testable import EmbeddedStore

@Suite("EmbeddedStore counts an event id once in 24 hours")
struct SQLiteStoreIdempotencyTests {
    @Test("a repeat within one append is acknowledged, not counted", arguments: StoreKind.allCases)
    func withinOneGroup(kind: StoreKind) async throws {
        let folder = try TemporaryFolder()
        let store = try EmbeddedStore.open(kind, in: folder)
        defer { store.close() }
        let result = try await store.append([
            event(engagedMs: 1, id: "e1"), event(engagedMs: 10, id: "e1"), event(engagedMs: 100, id: "e2"),
            event(engagedMs: 1_000), event(engagedMs: 10_000),
        ])
        #expect(result == AppendResult(counted: 4, duplicates: 1))
        let reader = try #require(try store.reader("r1", of: "/a"))
        #expect(reader.events == 4)
        #expect(reader.engagedMs == 11_101)
    }

    @Test("a repeat in a later append is not counted", arguments: StoreKind.allCases)
    func acrossGroups(kind: StoreKind) async throws {
        let folder = try TemporaryFolder()
        let store = try EmbeddedStore.open(kind, in: folder)
        defer { store.close() }
        _ = try await store.append([event(id: "e1")])
        let again = try await store.append([event(progress: 0.9, id: "e1"), event(id: "e2")])
        #expect(again == AppendResult(counted: 1, duplicates: 1))
        let reader = try #require(try store.reader("r1", of: "/a"))
        #expect(reader.events == 2)
        #expect(reader.maxProgress == 0.5)
    }

    @Test("a write that fails gives back the ids it claimed, also one whose window had passed")
    func failedWriteGivesIDsBack() async throws {
        let clock = TestClock(1_000 * dayMs)
        let store = try EmbeddedStore(path: ":memory:", options: .init(clock: clock.read))
        defer { store.close() }
        _ = try await store.append([event(id: "old")])
        clock.advance(byMs: dayMs)
        store.setJournalCapacity(0)
        await #expect(throws: StoreError.self) {
            try await store.append([event(id: "old"), event(id: "new")])
        }
        store.setJournalCapacity(nil)
        #expect(
            try await store.append([event(id: "old"), event(id: "new")])
                == AppendResult(counted: 2, duplicates: 0))
        #expect(
            try await store.append([event(id: "old"), event(id: "new")])
                == AppendResult(counted: 0, duplicates: 2))
        #expect(try store.reader("r1", of: "/a")?.events == 3)
    }

    @Test("a string longer than the journal holds is refused, claims nothing and breaks nothing")
    func tooLongForTheJournal() async throws {
        let folder = try TemporaryFolder()
        let store = try EmbeddedStore(path: folder.databasePath)
        let long = String(repeating: "a", count: 70_000)
        await #expect(throws: StoreError.self) {
            try await store.append([event(id: "with-it"), event(long, id: "long")])
        }
        #expect(store.isWritable)
        #expect(try await store.append([event(id: "with-it")]) == AppendResult(counted: 1, duplicates: 0))
        store.abandon()  // as kill -9 does: the restart replays the journal
        let reopened = try EmbeddedStore(path: folder.databasePath)
        defer { reopened.close() }
        #expect(try reopened.reader("r1", of: "/a")?.events == 1)
        #expect(try reopened.readers(of: long, in: .allTime) == nil)
    }

    @Test("ids survive a restart")
    func acrossRestart() async throws {
        let folder = try TemporaryFolder()
        let first = try EmbeddedStore(path: folder.databasePath)
        _ = try await first.append([event(id: "e1")])
        first.close()

        let second = try EmbeddedStore(path: folder.databasePath)
        defer { second.close() }
        #expect(try await second.append([event(id: "e1")]) == AppendResult(counted: 0, duplicates: 1))
        #expect(try second.reader("r1", of: "/a")?.events == 1)
    }

    @Test("an id counts again once 24 hours have passed by the wall clock")
    func windowExpires() async throws {
        let clock = TestClock(1_000 * dayMs)
        // Event times stay put: the window runs on the clock at append time, not on `time`.
        let store = try EmbeddedStore(path: ":memory:", options: .init(clock: clock.read))
        defer { store.close() }
        _ = try await store.append([event(id: "e1")])
        clock.advance(byMs: dayMs - 1)
        #expect(try await store.append([event(id: "e1")]) == AppendResult(counted: 0, duplicates: 1))
        clock.advance(byMs: 1)
        #expect(try await store.append([event(id: "e1")]) == AppendResult(counted: 1, duplicates: 0))
        // Counting it again opened a new window.
        clock.advance(byMs: dayMs - 1)
        #expect(try await store.append([event(id: "e1")]) == AppendResult(counted: 0, duplicates: 1))
        #expect(try store.reader("r1", of: "/a")?.events == 2)
    }
}
