public import Foundation

/// Whether `condition` holds within `seconds`, asked every few milliseconds: a test waits for
/// what it needs, never for a fixed time to be long enough. Blocks the calling thread (and holds
/// its actor, for a test that means to).
public func eventually(within seconds: Double = 10, _ condition: () throws -> Bool) rethrows -> Bool {
    let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
    while try !condition() {
        if ContinuousClock.now > deadline { return false }
        Thread.sleep(forTimeInterval: 0.005)
    }
    return true
}

/// Polls `condition` until it holds, throwing after `timeout`, without blocking a thread. The
/// deadline is generous: on a loaded machine tasks wait their turn in a cooperative pool as wide
/// as its cores.
public func eventually(
    _ what: String, timeout: Duration = .seconds(120), _ condition: () async throws -> Bool
) async throws {
    let deadline = ContinuousClock.now + timeout
    while !(try await condition()) {
        guard ContinuousClock.now < deadline else { throw TestFailure("timed out waiting for \(what)") }
        try await Task.sleep(for: .milliseconds(20))
    }
}

/// A test's own failure, with what went wrong.
public struct TestFailure: Error, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}

/// A temporary folder removed when the value goes away.
public final class TemporaryDirectory: @unchecked Sendable {
    public let url: URL

    public init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent(
            "reading-progress-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    /// A SQLite store in this folder, as `--store` takes it.
    public var sqliteStore: String { "sqlite:" + url.appendingPathComponent("data/test.sqlite3").path }

    // Nothing to lose: a folder left behind in the temporary directory is only untidy.
    deinit { try? FileManager.default.removeItem(at: url) }
}
