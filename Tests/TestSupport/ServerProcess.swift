public import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The real `reading-progress` executable, started on a free port with its own store.
public final class ServerProcess: @unchecked Sendable {
    public let process: ChildProcess
    public let port: UInt16
    public let storeURL: String
    /// The server's standard error goes to a file, not a pipe: nothing reads it while the server
    /// runs, and a full pipe (a crash's backtrace is larger than one holds) would stall it.
    private let stderrPath = FileManager.default.temporaryDirectory.appendingPathComponent(
        "reading-progress-stderr-\(UUID().uuidString).log"
    ).path

    /// The executable `READING_PROGRESS_BIN` names, or else the one built beside the tests.
    public static var executable: URL {
        if let path = ProcessInfo.processInfo.environment["READING_PROGRESS_BIN"] {
            return URL(fileURLWithPath: path)
        }
        return BuildProducts.folder.appendingPathComponent("reading-progress")
    }

    /// Starts the server and waits for its `listening on` line. The request log is off unless
    /// `arguments` turn it on.
    public init(store: String, arguments: [String] = [], environment: [String: String] = [:]) throws {
        storeURL = store
        var env = ProcessInfo.processInfo.environment
        // A crash prints its backtrace to standard error, which `stop()` shows.
        env["SWIFT_BACKTRACE"] = "enable=yes,interactive=no"
        for (key, value) in environment { env[key] = value }
        let logging = arguments.contains("--log-requests") ? [] : ["--log-requests", "false"]
        process = try ChildProcess(
            Self.executable.path, ["serve", "--port", "0", "--store", store] + logging + arguments,
            environment: env, standardOutput: .pipe, standardError: .file(stderrPath))
        let line = try process.readLine(timeout: .seconds(30)) ?? ""
        guard line.hasPrefix("listening on http://"),
            let port = line.split(separator: ":").last.flatMap({ UInt16($0) })
        else {
            process.signal(SIGTERM)
            let exit = process.wait()
            let log = Self.text(ofFile: stderrPath)
            Self.remove(stderrPath)
            throw TestFailure("server did not start: '\(line)', \(exit): \(log)")
        }
        self.port = port
    }

    public func client() -> HTTPClient { HTTPClient(port: port) }

    /// What the server has written to standard error so far.
    public var standardError: String { Self.text(ofFile: stderrPath) }

    /// The text of the file at `path`; empty when it cannot be read, as a log not written yet.
    public static func text(ofFile path: String) -> String {
        (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
    }

    private static func remove(_ path: String) {
        // Nothing to lose: a log left behind in the temporary directory is only untidy.
        try? FileManager.default.removeItem(atPath: path)
    }

    /// SIGTERM, then waits for the exit status. A server that did not exit with status 0 (a
    /// crash, say) has its standard error printed into the test's output.
    @discardableResult
    public func stop() -> Int32 {
        process.signal(SIGTERM)
        let exit = process.wait()
        if exit.signaled || exit.status != 0 {
            let how = exit.signaled ? "signal" : "status"
            print("reading-progress ended with \(how) \(exit.status); standard error:\n\(standardError)")
        }
        return exit.status
    }

    /// SIGKILL: no chance to flush anything.
    public func kill() {
        process.signal(SIGKILL)
        process.wait()
    }

    deinit {
        kill()
        Self.remove(stderrPath)
    }
}

/// Where the package's products were built: beside the test bundle, in `.build/<configuration>`.
public enum BuildProducts {
    public static let folder: URL = {
        // Linux runs the tests as an executable in that folder; macOS loads them as a bundle
        // (`ReadingProgressPackageTests.xctest`) from it.
        if let bundle = Bundle.allBundles.first(where: { $0.bundleURL.pathExtension == "xctest" }) {
            return bundle.bundleURL.deletingLastPathComponent()
        }
        return URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
            .deletingLastPathComponent()
    }()
}
