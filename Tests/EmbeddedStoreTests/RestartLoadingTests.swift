import Foundation
import ProgressStore
import Testing

@testable import EmbeddedStore

/// A start loads the articles saved in parts on a thread of its own, through a connection of its
/// own, while the others load in batches on every core: every article comes back whole whichever
/// finishes first, and a damaged article stops start-up wherever it is.
@Suite("Restart loads large and small articles side by side")
struct RestartLoadingTests {
    private static let larges = ["/large-1", "/large-2", "/large-3"]
    /// Small articles of 2 readers each: some 11 MB of snapshots, more than one batch of 8 MiB.
    private static let smalls = 72_000

    private func options() -> EmbeddedStore.Options { EmbeddedStore.Options(snapshotPartBytes: 2_000) }

    /// A store saved with three articles in parts and `smalls` small ones, closed.
    private func saved(in folder: TemporaryFolder) async throws -> [String: [ReaderSummary]] {
        let store = try EmbeddedStore.open(path: folder.databasePath, options: options())
        defer { store.close() }
        for (number, article) in Self.larges.enumerated() {
            _ = try await store.append(
                (0..<(200 * (number + 1))).map { event(article, "reader-\($0)", at: Int64($0)) })
        }
        for start in stride(from: 0, to: Self.smalls, by: 1_000) {
            _ = try await store.append(
                (start..<start + 1_000).flatMap { [event("/small-\($0)", "a"), event("/small-\($0)", "b")] })
        }
        try store.checkpointNow()
        var expected: [String: [ReaderSummary]] = [:]
        let sampled = stride(from: 0, to: Self.smalls, by: 997).map { "/small-\($0)" }
        for article in Self.larges + sampled {
            let readers = try store.readers(of: article, in: .allTime) ?? []
            #expect(!readers.isEmpty, "\(article)")
            expected[article] = readers
        }
        return expected
    }

    @Test("articles in parts and many small ones come back whole")
    func largeAndSmall() async throws {
        let folder = try TemporaryFolder()
        let expected = try await saved(in: folder)
        #expect(try rowCount("snapshot_parts", in: folder) > 10)
        let connection = try SQLiteConnection(filename: folder.databasePath, busyTimeoutMs: 1_000)
        let smallBytes = try connection.integer(
            "SELECT sum(length(data)) FROM snapshots WHERE name LIKE '/small-%'")
        connection.close()
        #expect(smallBytes > 8 << 20)
        let store = try EmbeddedStore.open(path: folder.databasePath, options: options())
        defer { store.close() }
        #expect(store.pairCount == 200 + 400 + 600 + 2 * Self.smalls)
        for (article, readers) in expected {
            #expect(try store.readers(of: article, in: .allTime) == readers, "\(article)")
        }
        _ = try await store.append([event("/large-2", "late"), event("/small-5", "c")])
        #expect(try store.readers(of: "/large-2", in: .allTime)?.count == 401)
        #expect(try store.readers(of: "/small-5", in: .allTime)?.count == 3)
    }

    @Test(
        "a damaged article stops start-up, in parts or among the small ones",
        arguments: ["/large-2", "/small-70000"])
    func damaged(article: String) async throws {
        let folder = try TemporaryFolder()
        _ = try await saved(in: folder)
        let connection = try SQLiteConnection(filename: folder.databasePath, busyTimeoutMs: 1_000)
        // One bit of the first row flipped, within the checksum's reach.
        let read = try connection.cached("SELECT data FROM snapshots WHERE name = ?1")
        try read.bind(1, article)
        #expect(try read.step())
        var data = Array(read.blob(0))
        read.reset()
        data[data.count / 2] ^= 1
        let update = try connection.cached("UPDATE snapshots SET data = ?2 WHERE name = ?1")
        try update.bind(1, article)
        try update.bind(2, blob: data)
        try update.run()
        connection.close()
        do {
            try EmbeddedStore.open(path: folder.databasePath, options: options()).close()
            Issue.record("a store with a damaged article opened")
        } catch {
            #expect(error.message.contains("article snapshot refused"), "\(error.message)")
        }
    }
}
