import Foundation
import ProgressStore
import Testing

@testable import EmbeddedStore

/// How a test opens its store: a real file in a fresh temporary folder, or in memory.
enum StoreKind: String, CustomTestStringConvertible, Sendable, CaseIterable {
    case file
    case memory

    var testDescription: String { rawValue }
}

/// A fresh temporary folder, removed when the test is done with it.
final class TemporaryFolder {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("EmbeddedStoreTests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }

    /// A database path inside a folder that does not exist yet, so the store has to create it.
    var databasePath: String {
        url.appendingPathComponent("nested/progress.sqlite3").path
    }
}

/// A clock tests can move, for the 24-hour window of event ids.
final class TestClock: @unchecked Sendable {
    private let lock = NSLock()
    private var nowMs: Int64

    init(_ nowMs: Int64) {
        self.nowMs = nowMs
    }

    func advance(byMs ms: Int64) {
        lock.withLock { nowMs += ms }
    }

    @Sendable func read() -> Int64 {
        lock.withLock { nowMs }
    }
}

let dayMs: Int64 = 86_400_000

/// An event with the fields a test cares about; the rest are harmless defaults.
func event(
    _ article: String = "/a", _ reader: String = "r1", at timeMs: Int64 = 1_000, progress: Double = 0.5,
    seen: Double = 0.5, scrollable: Bool = true, engagedMs: Int64 = 0, id: String? = nil
) -> EventRecord {
    EventRecord(
        article: article, reader: reader, timeMs: timeMs, progress: progress, seenDepth: seen,
        scrollable: scrollable, engagedMs: engagedMs, eventID: id)
}

extension ProgressStore {
    /// Appends and waits for the completion, throwing the store's error.
    func append(_ events: [EventRecord]) async throws -> AppendResult {
        try await withCheckedThrowingContinuation { continuation in
            append(events) { continuation.resume(with: $0) }
        }
    }

    /// The one reader `reader` of `article` over `days`, if any.
    func reader(_ reader: String, of article: String, in days: DayRange = .allTime) throws -> ReaderSummary? {
        try readers(of: article, in: days)?.first { $0.reader == reader }
    }
}

extension EmbeddedStore {
    /// Opens a store of `kind`, at `folder`'s database path for files.
    static func open(
        _ kind: StoreKind, in folder: TemporaryFolder, options: Options = Options()
    ) throws -> EmbeddedStore {
        try EmbeddedStore.open(path: kind == .file ? folder.databasePath : ":memory:", options: options)
    }
}

extension EmbeddedStore.Options {
    /// The default options with the journal capped at `bytes` (0 refuses every append).
    static func journalCapacity(_ bytes: Int64?) -> Self {
        var options = Self()
        options.journalCapacityBytes = bytes
        return options
    }
}
