import Foundation
import Testing

@testable import ReadingProgressClient

/// The queue's files, on a real file system.
@Suite("Queue files")
struct DirectoryStorageTests {
    @Test("an entry is a file renamed into place; entries come back in name order; removal is by name")
    func roundTrip() throws {
        let folder = try TemporaryDirectory()
        let storage = DirectoryStorage(directory: folder.url.appendingPathComponent("queue"))
        #expect(try storage.loadAll().isEmpty)
        try storage.write(Data("b".utf8), name: "00000000000000000002")
        try storage.write(Data("a".utf8), name: "00000000000000000001")
        try storage.write(Data("c".utf8), name: "00000000000000000003")
        let files = try FileManager.default.contentsOfDirectory(atPath: storage.directory.path).sorted()
        #expect(
            files == [
                "00000000000000000001.event", "00000000000000000002.event", "00000000000000000003.event",
            ])
        #expect(try storage.loadAll().map { String(decoding: $0.data, as: UTF8.self) } == ["a", "b", "c"])
        try storage.remove(["00000000000000000002", "00000000000000000009"])
        #expect(try storage.loadAll().map(\.name) == ["00000000000000000001", "00000000000000000003"])
    }

    @Test("a write that never reached its rename is no entry, and is cleared away at load")
    func partial() throws {
        let folder = try TemporaryDirectory()
        let storage = DirectoryStorage(directory: folder.url)
        try storage.write(Data("{}".utf8), name: "00000000000000000001")
        let torn = folder.url.appendingPathComponent("00000000000000000002.partial")
        try Data("{\"id\":".utf8).write(to: torn)
        #expect(try storage.loadAll().map(\.name) == ["00000000000000000001"])
        #expect(!FileManager.default.fileExists(atPath: torn.path))
    }

    @Test("an entry that cannot be read comes back empty, and the others with it")
    func unreadableEntry() throws {
        let folder = try TemporaryDirectory()
        let storage = DirectoryStorage(directory: folder.url)
        try storage.write(Data("{}".utf8), name: "00000000000000000001")
        // Not a file at all: reading it fails whoever the reader is.
        try FileManager.default.createDirectory(
            at: folder.url.appendingPathComponent("00000000000000000002.event"),
            withIntermediateDirectories: false)
        let loaded = try storage.loadAll()
        #expect(loaded.map(\.name) == ["00000000000000000001", "00000000000000000002"])
        #expect(loaded.map(\.data.count) == [2, 0])
        try storage.remove(["00000000000000000002"])
        #expect(try storage.loadAll().map(\.name) == ["00000000000000000001"])
    }

    @Test("a queue folder removed under the app is made again at the next write")
    func folderRemoved() throws {
        let folder = try TemporaryDirectory()
        let storage = DirectoryStorage(directory: folder.url.appendingPathComponent("queue"))
        _ = try storage.loadAll()
        try FileManager.default.removeItem(at: storage.directory)
        try storage.write(Data("{}".utf8), name: "00000000000000000001")
        #expect(try storage.loadAll().count == 1)
    }
}
