import Foundation
import ProgressStore
import Testing

@testable import EmbeddedStore

/// Erasure and retention on the embedded store's own files: what a checkpoint leaves on disk.
@Suite("The embedded store's files after erasure and retention")
struct EmbeddedStorePrivacyTests {
    static let now: Int64 = 1_764_500_000_000
    static var today: Int32 { Int32(now / dayMs) }

    /// Whether any file under `folder` holds `text`'s bytes.
    private func filesHold(_ text: String, in folder: TemporaryFolder) throws -> Bool {
        let needle = Array(text.utf8)
        let root = URL(fileURLWithPath: folder.databasePath).deletingLastPathComponent().path
        for name in try FileManager.default.contentsOfDirectory(atPath: root) {
            let data = try [UInt8](Data(contentsOf: URL(fileURLWithPath: root + "/" + name)))
            guard data.count >= needle.count else { continue }
            for start in 0...(data.count - needle.count) where data[start] == needle[0] {
                if Array(data[start..<start + needle.count]) == needle { return true }
            }
        }
        return false
    }

    private func options(_ clock: TestClock, retentionDays: Int = 0) -> EmbeddedStore.Options {
        EmbeddedStore.Options(
            checkpointIntervalMs: 3_600_000, retentionDays: retentionDays, clock: clock.read)
    }

    private func load(_ store: EmbeddedStore) async throws {
        for index in 0..<40 {
            _ = try await store.append([
                event("/kept", "reader-\(index % 5)", at: Self.now - Int64(index) * 1_000, id: "id-\(index)"),
                event("/erased-article-zq", "reader-\(index % 5)", at: Self.now, id: "other-\(index)"),
                event("/kept", "erased-reader-xq", at: Self.now - 5_000, id: "erased-id-\(index)"),
            ])
        }
    }

    @Test("after the next checkpoint an erased reader's and article's ids are in no file")
    func erasedIDsLeaveTheFiles() async throws {
        let folder = try TemporaryFolder()
        let clock = TestClock(Self.now)
        let store = try EmbeddedStore.open(path: folder.databasePath, options: options(clock))
        defer { store.close() }
        try await load(store)
        try store.checkpointNow()
        #expect(try filesHold("erased-reader-xq", in: folder), "the ids were saved before the erasure")
        #expect(try filesHold("erased-id-7", in: folder))
        _ = try waitFor { store.erase(.reader("erased-reader-xq"), completion: $0) }
        _ = try waitFor { store.erase(.article("/erased-article-zq"), completion: $0) }
        try store.checkpointNow()
        for text in ["erased-reader-xq", "erased-id-7", "/erased-article-zq", "other-3"] {
            #expect(try !filesHold(text, in: folder), "\(text) is still in a file")
        }
        #expect(try filesHold("reader-3", in: folder), "what was not erased stays")
        #expect(try store.reader("erased-reader-xq", of: "/kept") == nil)
    }

    @Test("an erasure survives a kill before any checkpoint, and start-up cleans the files")
    func erasureAfterKill() async throws {
        let folder = try TemporaryFolder()
        let clock = TestClock(Self.now)
        let store = try EmbeddedStore.open(path: folder.databasePath, options: options(clock))
        try await load(store)
        try store.checkpointNow()
        _ = try waitFor { store.erase(.reader("erased-reader-xq"), completion: $0) }
        store.abandon()
        let reopened = try EmbeddedStore.open(path: folder.databasePath, options: options(clock))
        defer { reopened.close() }
        #expect(try reopened.reader("erased-reader-xq", of: "/kept") == nil)
        #expect(try reopened.reader("reader-2", of: "/kept") != nil)
        #expect(try !filesHold("erased-reader-xq", in: folder))
        #expect(try !filesHold("erased-id-7", in: folder))
        // The erased reader's ids count anew.
        let again = event("/kept", "erased-reader-xq", at: Self.now, id: "erased-id-7")
        #expect(try await reopened.append([again]).counted == 1)
    }

    @Test("a restart with a shorter retention drops the older days from memory and files")
    func retention() async throws {
        let folder = try TemporaryFolder()
        let clock = TestClock(Self.now)
        let store = try EmbeddedStore.open(path: folder.databasePath, options: options(clock))
        _ = try await store.append([
            event("/r", "old-reader-kq", at: Self.now - 10 * dayMs),
            event("/r", "both", at: Self.now - 10 * dayMs, progress: 0.9),
            event("/r", "both", at: Self.now, progress: 0.2),
            event("/old-only", "old-reader-kq", at: Self.now - 9 * dayMs),
        ])
        store.close()
        let reopened = try EmbeddedStore.open(
            path: folder.databasePath, options: options(clock, retentionDays: 7))
        defer { reopened.close() }
        let readers = try #require(try reopened.readers(of: "/r", in: .allTime))
        #expect(readers.map(\.reader) == ["both"])
        #expect(readers.first?.maxProgress == 0.2)
        #expect(try reopened.readers(of: "/old-only", in: .allTime) == nil)
        #expect(try !filesHold("old-reader-kq", in: folder))
        // The window moves with the clock: within the hour the next day's records go too.
        clock.advance(byMs: 7 * dayMs)
        #expect(reopened.writer.dropDays(before: Int32(clock.read() / dayMs) - 6) == 1)
        #expect(try reopened.readers(of: "/r", in: .allTime) == nil)
    }
}
