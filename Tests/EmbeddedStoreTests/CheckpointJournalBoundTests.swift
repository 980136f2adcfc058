import Foundation
import ProgressStore
import TestSupport
import Testing

@testable import EmbeddedStore

/// The checkpoints the journal's size makes due, whatever the time: at the bound by the nice-10
/// checkpointer thread, and past twice the bound by the catch-up thread, which the checkpointer
/// leaves it to. The 30-second rule is kept out of the way by a clock that never moves.
@Suite("Checkpoints come when the journal has grown")
struct CheckpointJournalBoundTests {
    private static let boundBytes: Int64 = 16 << 10

    private func options() -> EmbeddedStore.Options {
        var options = EmbeddedStore.Options(checkpointIntervalMs: 3_600_000, clock: TestClock(1_000).read)
        options.checkpointJournalBytes = Self.boundBytes
        return options
    }

    private func batch(_ number: Int, of count: Int) -> [EventRecord] {
        (0..<count).map { event("/bound", "reader-\(number)-\($0)") }
    }

    @Test("a journal grown to the bound is checkpointed and cut")
    func checkpointAtTheBound() async throws {
        let folder = try TemporaryFolder()
        let store = try EmbeddedStore.open(path: folder.databasePath, options: options())
        defer { store.close() }
        var batches = 0
        // Small entries, each well under the bound: the journal crosses it between two of them.
        while store.journal.sizeBytes < Self.boundBytes {
            _ = try await store.append(batch(batches, of: 20))
            batches += 1
        }
        let last = store.journal.upcomingSeq - 1
        #expect(eventually(within: 60) { store.checkpointer.foldedSeq >= last })
        #expect(eventually(within: 60) { store.journal.sizeBytes < Self.boundBytes })
        let restarted = try reopened(store, at: folder)
        defer { restarted.close() }
        #expect(try restarted.readers(of: "/bound", in: .allTime)?.count == batches * 20)
    }

    @Test("a journal past twice the bound is checkpointed by the catch-up thread")
    func catchUpPastTwiceTheBound() async throws {
        let folder = try TemporaryFolder()
        let store = try EmbeddedStore.open(path: folder.databasePath, options: options())
        defer { store.close() }
        // One entry larger than twice the bound: the journal goes past it at once, and the
        // nice-10 thread never finds a checkpoint due.
        _ = try await store.append(batch(0, of: 1_000))
        #expect(store.journal.sizeBytes >= 2 * Self.boundBytes)
        let last = store.journal.upcomingSeq - 1
        #expect(eventually(within: 60) { store.checkpointer.foldedSeq >= last })
        #expect(eventually(within: 60) { store.journal.sizeBytes < Self.boundBytes })
    }

    /// `store` let go of as if killed, and a store opened again on its files.
    private func reopened(_ store: EmbeddedStore, at folder: TemporaryFolder) throws -> EmbeddedStore {
        store.abandon()
        return try EmbeddedStore.open(path: folder.databasePath, options: options())
    }
}
