import EmbeddedStore
import Foundation
import ProgressStore
import Testing

/// A kind of store the suite runs against: it makes a fresh, empty place for one, where the
/// store can be opened — and, when the store keeps its data, opened again after a close.
struct StoreFactory: Sendable, CustomTestStringConvertible {
    let name: String
    /// Whether a store opened again at the same place finds what the last one held.
    let keepsData: Bool
    let makePlace: @Sendable () throws -> StorePlace

    var testDescription: String { name }

    /// Every store this build has.
    static let all: [StoreFactory] = [embeddedFile, embeddedMemory]

    /// Those that keep their data across a close and an open.
    static var lasting: [StoreFactory] { all.filter(\.keepsData) }

    static let embeddedFile = StoreFactory(name: "embedded, file", keepsData: true) {
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("StoreConformance-\(UUID().uuidString)", isDirectory: true)
        let path = folder.appendingPathComponent("store.sqlite3").path
        return StorePlace(open: { try EmbeddedStore(path: path) }) {
            try? FileManager.default.removeItem(at: folder)
        }
    }

    static let embeddedMemory = StoreFactory(name: "embedded, memory:", keepsData: false) {
        StorePlace(open: { try EmbeddedStore(path: ":memory:") }) {}
    }
}

/// Where a store under test lives; removed when the test lets go of it.
final class StorePlace: Sendable {
    private let opener: @Sendable () throws -> any ProgressStore
    private let cleanup: @Sendable () -> Void

    init(open: @escaping @Sendable () throws -> any ProgressStore, cleanup: @escaping @Sendable () -> Void) {
        self.opener = open
        self.cleanup = cleanup
    }

    deinit {
        cleanup()
    }

    /// Opens the store here. Close it before opening another at the same place.
    func open() throws -> any ProgressStore {
        try opener()
    }
}
