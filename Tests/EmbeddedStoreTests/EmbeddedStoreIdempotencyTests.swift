import ProgressStore
import Testing

@testable import EmbeddedStore

@Suite("EmbeddedStore counts an event id once in 24 hours")
struct EmbeddedStoreIdempotencyTests {
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
        let store = try EmbeddedStore.open(path: ":memory:", options: .init(clock: clock.read))
        defer { store.close() }
        _ = try await store.append([event(id: "old")])
        clock.advance(byMs: 2 * dayMs)
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
        let store = try EmbeddedStore.open(path: folder.databasePath)
        let long = String(repeating: "a", count: 70_000)
        await #expect(throws: StoreError.self) {
            try await store.append([event(id: "with-it"), event(long, id: "long")])
        }
        #expect(store.isWritable)
        #expect(try await store.append([event(id: "with-it")]) == AppendResult(counted: 1, duplicates: 0))
        store.abandon()  // as kill -9 does: the restart replays the journal
        let reopened = try EmbeddedStore.open(path: folder.databasePath)
        defer { reopened.close() }
        #expect(try reopened.reader("r1", of: "/a")?.events == 1)
        #expect(try reopened.readers(of: long, in: .allTime) == nil)
    }

    @Test("ids survive a restart")
    func acrossRestart() async throws {
        let folder = try TemporaryFolder()
        let first = try EmbeddedStore.open(path: folder.databasePath)
        _ = try await first.append([event(id: "e1")])
        first.close()

        let second = try EmbeddedStore.open(path: folder.databasePath)
        defer { second.close() }
        #expect(try await second.append([event(id: "e1")]) == AppendResult(counted: 0, duplicates: 1))
        #expect(try second.reader("r1", of: "/a")?.events == 1)
    }

    @Test("an id is a repeat for at least 24 hours and counts again by 48, by the wall clock")
    func windowExpires() async throws {
        let opened = 1_000 * dayMs
        let clock = TestClock(opened)
        // Event times stay put: the window runs on the clock at append time, not on `time`.
        let store = try EmbeddedStore.open(path: ":memory:", options: .init(clock: clock.read))
        defer { store.close() }
        /// Appends `id` at `ms` after the store opened: whether it counted.
        func counts(_ id: String, at ms: Int64) async throws -> Bool {
            clock.advance(byMs: opened + ms - clock.read())
            let result = try await store.append([event(id: id)])
            #expect(result.counted + result.duplicates == 1)
            return result.counted == 1
        }
        // Acknowledged at the first instant the ids of a day are held, at an hour, at the last.
        let acknowledged: [(id: String, ms: Int64)] = [
            ("first", 0), ("hour", 3_600_000), ("last", dayMs - 1),
        ]
        for (id, ms) in acknowledged { #expect(try await counts(id, at: ms)) }
        var repeats: [(id: String, ms: Int64, age: Int64)] = []
        for (id, ms) in acknowledged {
            for age in [1, dayMs / 2, dayMs - 1] { repeats.append((id, ms, age)) }
        }
        for (id, ms, age) in repeats.sorted(by: { $0.ms + $0.age < $1.ms + $1.age }) {
            #expect(try await !counts(id, at: ms + age), "\(id) at \(age) ms")
        }
        // However the days fall, none is held 48 hours: each counts again then, and is held anew.
        for (id, ms) in acknowledged {
            #expect(try await counts(id, at: ms + 2 * dayMs), "\(id) at 48 h")
        }
        #expect(try await !counts("first", at: 3 * dayMs - 1))
        #expect(try store.reader("r1", of: "/a")?.events == 6)
    }

    @Test("ids saved before a restart are repeats until 24 hours after they came, and count by 48")
    func windowAcrossRestart() async throws {
        let folder = try TemporaryFolder()
        let clock = TestClock(1_000 * dayMs)
        let options = EmbeddedStore.Options(clock: clock.read)
        let first = try EmbeddedStore.open(path: folder.databasePath, options: options)
        _ = try await first.append([event(id: "saved")])
        clock.advance(byMs: dayMs / 2)
        _ = try await first.append([event(id: "journal")])
        first.abandon()  // "saved" only in the journal too: replayed, like "journal"
        clock.advance(byMs: dayMs / 4)
        let second = try EmbeddedStore.open(path: folder.databasePath, options: options)
        _ = try await second.append([event(id: "after")])
        try second.checkpointNow()
        second.close()
        clock.advance(byMs: dayMs / 8)
        let third = try EmbeddedStore.open(path: folder.databasePath, options: options)
        defer { third.close() }
        // "saved" at 0, "journal" at 12 h, "after" at 18 h; now 21 h.
        let repeats = [event(id: "saved"), event(id: "journal"), event(id: "after")]
        #expect(try await third.append(repeats) == AppendResult(counted: 0, duplicates: 3))
        clock.advance(byMs: dayMs * 3 / 8 - 1)  // 24 h less 1 ms after "saved"
        #expect(try await third.append(repeats) == AppendResult(counted: 0, duplicates: 3))
        clock.advance(byMs: dayMs + 1)  // 48 h after "saved", 36 h after "journal", 30 h after "after"
        #expect(try await third.append(repeats) == AppendResult(counted: 3, duplicates: 0))
    }

    @Test("after an erasure, its pairs' earlier ids count again, and once each")
    func erasureThenRepeats() async throws {
        let clock = TestClock(1_000 * dayMs)
        let store = try EmbeddedStore.open(path: ":memory:", options: .init(clock: clock.read))
        defer { store.close() }
        let events = [
            event("/a", "gone", id: "e1"), event("/b", "gone", id: "e1"), event("/a", "kept", id: "e1"),
        ]
        _ = try await store.append(events)
        clock.advance(byMs: dayMs + 1)  // into the next generation: held in the previous one
        _ = try await store.append([event("/c", "gone", id: "e1")])
        _ = try waitFor { store.erase(.reader("gone"), completion: $0) }
        let again = events + [event("/c", "gone", id: "e1")]
        // In the same millisecond as the erasure, and later: the same answers.
        #expect(try await store.append(again) == AppendResult(counted: 3, duplicates: 1))
        #expect(try await store.append(again) == AppendResult(counted: 0, duplicates: 4))
        // A generation later, what counted after the erasure is still held; "kept", 48 hours
        // old, is not.
        clock.advance(byMs: dayMs)
        #expect(try await store.append(again) == AppendResult(counted: 1, duplicates: 3))
        #expect(try store.reader("gone", of: "/a")?.events == 1)
        #expect(try store.reader("kept", of: "/a")?.events == 2)
    }
}
