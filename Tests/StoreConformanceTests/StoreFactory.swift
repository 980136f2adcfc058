import EmbeddedStore
import Foundation
import ProgressStore
import Testing

@testable import PostgresStore

/// A kind of store the suite runs against: it makes a fresh, empty place for one, where the
/// store can be opened — and, when the store keeps its data, opened again after a close.
struct StoreFactory: Sendable, CustomTestStringConvertible {
    let name: String
    /// Whether a store opened again at the same place finds what the last one held.
    let keepsData: Bool
    let makePlace: @Sendable () throws -> StorePlace

    var testDescription: String { name }

    /// Every store this build has: PostgreSQL too when `READING_PROGRESS_TEST_POSTGRES` names a
    /// server's database to make test databases from (scripts/test starts one).
    static let all: [StoreFactory] = [embeddedFile, embeddedMemory] + (postgres.map { [$0] } ?? [])

    /// Those that keep their data across a close and an open.
    static var lasting: [StoreFactory] { all.filter(\.keepsData) }

    static let embeddedFile = embeddedFile(EmbeddedStore.Options())

    /// The embedded store in a file, opened with `options`.
    static func embeddedFile(_ options: EmbeddedStore.Options) -> StoreFactory {
        StoreFactory(name: "embedded, file", keepsData: true) {
            let folder = FileManager.default.temporaryDirectory
                .appendingPathComponent("StoreConformance-\(UUID().uuidString)", isDirectory: true)
            let path = folder.appendingPathComponent("store.sqlite3").path
            return StorePlace(open: { try EmbeddedStore.open(path: path, options: options) }) {
                try? FileManager.default.removeItem(at: folder)
            }
        }
    }

    static let postgres = postgres(PostgresStore.Options())

    /// PostgreSQL opened with `options`, when `READING_PROGRESS_TEST_POSTGRES` names a server.
    static func postgres(_ options: PostgresStore.Options) -> StoreFactory? {
        ProcessInfo.processInfo.environment["READING_PROGRESS_TEST_POSTGRES"].map { admin in
            StoreFactory(name: "PostgreSQL", keepsData: true) {
                let name = "rp_test_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
                let server = try PGConnection(uri: admin, connectNow: true)
                try server.execute("CREATE DATABASE \(name)")
                server.close()
                let uri = Self.uri(admin, database: name)
                return StorePlace(open: { try PostgresStore.open(uri: uri, options: options) }) {
                    let server = try? PGConnection(uri: admin, connectNow: true)
                    _ = try? server?.execute("DROP DATABASE IF EXISTS \(name) WITH (FORCE)")
                    server?.close()
                }
            }
        }
    }

    /// `uri` with its database replaced by `database`.
    static func uri(_ uri: String, database: String) -> String {
        guard
            let slash = uri.range(
                of: "/", options: .backwards, range: uri.range(of: "://")!.upperBound..<uri.endIndex)
        else { return uri + "/" + database }
        let rest = uri[slash.upperBound...]
        let query = rest.firstIndex(of: "?").map { String(rest[$0...]) } ?? ""
        return String(uri[..<slash.upperBound]) + database + query
    }

    static let embeddedMemory = embeddedMemory(EmbeddedStore.Options())

    /// The embedded store in memory, opened with `options`.
    static func embeddedMemory(_ options: EmbeddedStore.Options) -> StoreFactory {
        StoreFactory(name: "embedded, memory:", keepsData: false) {
            StorePlace(open: { try EmbeddedStore.open(path: ":memory:", options: options) }) {}
        }
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
