import Foundation

/// The real `reading-progress` executable, started on a free port with its own store.
final class ServerProcess: @unchecked Sendable {
    let process = Process()
    let port: UInt16
    let storeURL: String
    /// The server's standard error goes to a file, not a pipe: nothing reads it while the server
    /// runs, and a full pipe (a crash's backtrace is larger than one holds) would stall it.
    private let stderrURL = FileManager.default.temporaryDirectory.appendingPathComponent(
        "reading-progress-stderr-\(UUID().uuidString).log")

    /// The executable `scripts/test` built, or the debug build next to this package.
    static var executable: URL {
        if let path = ProcessInfo.processInfo.environment["READING_PROGRESS_BIN"] {
            return URL(fileURLWithPath: path)
        }
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        return root.appendingPathComponent(".build/debug/reading-progress")
    }

    /// Starts the server and waits for its `listening on` line.
    init(store: String, arguments: [String] = [], environment: [String: String] = [:]) throws {
        storeURL = store
        process.executableURL = Self.executable
        process.arguments = ["serve", "--port", "0", "--store", store, "--log-requests", "false"] + arguments
        var env = ProcessInfo.processInfo.environment
        // A crash prints its backtrace to standard error, which `stop()` shows.
        env["SWIFT_BACKTRACE"] = "enable=yes,interactive=no"
        for (key, value) in environment { env[key] = value }
        process.environment = env
        let stdout = Pipe()
        process.standardOutput = stdout
        _ = FileManager.default.createFile(atPath: stderrURL.path, contents: nil)
        process.standardError = try FileHandle(forWritingTo: stderrURL)
        try process.run()
        let line = Self.readLine(stdout.fileHandleForReading, of: process, timeout: 30)
        guard line.hasPrefix("listening on http://"),
            let port = line.split(separator: ":").last.flatMap({ UInt16($0) })
        else {
            process.terminate()
            process.waitUntilExit()
            let log = Self.text(of: stderrURL)
            throw TestFailure("server did not start: '\(line)', exit \(process.terminationStatus): \(log)")
        }
        self.port = port
    }

    /// An empty read is EOF only once the server has exited: while tests start and stop other
    /// servers, a signal can interrupt the read and make it come back empty.
    private static func readLine(_ handle: FileHandle, of process: Process, timeout: TimeInterval) -> String {
        var data = Data()
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            let chunk = handle.availableData
            if chunk.isEmpty {
                if !process.isRunning { break }
                // Polled until the deadline: the line comes when the server has started.
                Thread.sleep(forTimeInterval: 0.01)
                continue
            }
            data.append(chunk)
            if data.contains(0x0A) { break }
        }
        return String(decoding: data, as: UTF8.self).split(separator: "\n").first.map(String.init) ?? ""
    }

    func client() -> HTTPClient { HTTPClient(port: port) }

    /// What the server has written to standard error so far.
    var standardError: String { Self.text(of: stderrURL) }

    private static func text(of url: URL) -> String {
        (try? String(contentsOf: url, encoding: .utf8)) ?? ""
    }

    /// SIGTERM, then waits for the exit status. A server that did not exit with status 0 (a
    /// crash, say) has its standard error printed into the test's output.
    @discardableResult
    func stop() -> Int32 {
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
        }
        if process.terminationReason == .uncaughtSignal || process.terminationStatus != 0 {
            let log = standardError
            let how = process.terminationReason == .uncaughtSignal ? "signal" : "status"
            print("reading-progress ended with \(how) \(process.terminationStatus); standard error:\n\(log)")
        }
        return process.terminationStatus
    }

    /// SIGKILL: no chance to flush anything.
    func kill() {
        if process.isRunning {
            Foundation.kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
    }

    deinit {
        if process.isRunning {
            Foundation.kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
        try? FileManager.default.removeItem(at: stderrURL)
    }
}

struct TestFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// A temporary folder removed when the value goes away.
final class TemporaryDirectory: @unchecked Sendable {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent(
            "reading-progress-e2e-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    var sqliteStore: String { "sqlite:" + url.appendingPathComponent("data/test.sqlite3").path }

    deinit { try? FileManager.default.removeItem(at: url) }
}
