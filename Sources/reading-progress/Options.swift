import Foundation

/// The options (docs/operations.md), each also readable from its `READING_PROGRESS_*` environment variable.
/// A command-line option wins over the environment.
struct Options {
    var host = "127.0.0.1"
    var port: UInt16 = 8080
    var store = "sqlite:data/reading-progress.sqlite3"
    var apiToken: String?
    var completionThreshold = 0.9
    var maxBodyBytes = 1_048_576
    var allowedOrigins = ["*"]
    var connectionTimeout: UInt32 = 30
    var perIPConnectionLimit: UInt32 = 256
    var connectionMemory = 24_576
    /// Two per core: a worker waits now and then (the store's lock, the scheduler handing its
    /// core to another process), and a second one per core keeps the core busy meanwhile —
    /// measured on 2 cores, 4 workers answer about a third more single events than 2.
    var threads = min(256, 2 * ProcessInfo.processInfo.activeProcessorCount)
    var logRequests = true
    var fsyncCommits = false
    /// 0: no limit.
    var rateLimit = 0

    struct Invalid: Error {
        var message: String
    }

    /// Every option: its flag, what it takes, and what it means (for `--help`).
    static let table: [(flag: String, value: String, help: String)] = [
        ("--host", "ADDRESS", "address to listen on (default 127.0.0.1)"),
        ("--port", "PORT", "port to listen on; 0 picks a free one (default 8080)"),
        (
            "--store", "URL",
            "sqlite:PATH, memory: (tests) or postgres://… (default sqlite:data/reading-progress.sqlite3)"
        ),
        ("--api-token", "TOKEN", "read routes then need 'Authorization: Bearer TOKEN' (default none)"),
        ("--completion-threshold", "0…1", "default completion threshold (default 0.9)"),
        ("--max-body-bytes", "BYTES", "larger request bodies get 413 (default 1048576)"),
        ("--allowed-origins", "LIST", "CORS allowlist, comma separated; * allows all (default *)"),
        ("--connection-timeout", "SECONDS", "idle or slow connections are closed after this (default 30)"),
        ("--per-ip-connection-limit", "N", "open connections one address may hold (default 256)"),
        (
            "--connection-memory", "BYTES",
            "memory per connection for the request head and buffers; a head that does not fit gets 431, one that only just fits a closed connection (default 24576: heads of about 11 KiB)"
        ),
        ("--threads", "N", "HTTP worker threads (default: twice the number of cores)"),
        (
            "--rate-limit", "N",
            "requests a second one client (an IPv4 address, an IPv6 /64) may make, in bursts of as many; more get 429 with Retry-After; /healthz is exempt; 0: no limit (default 0)"
        ),
        ("--log-requests", "true|false", "one log line per request on standard error (default true)"),
        (
            "--fsync-commits", "true|false",
            "fdatasync the event journal before each answer (grouped), so acknowledged events survive a power cut too, not only kill -9 (default false)"
        ),
    ]

    static func environmentName(of flag: String) -> String {
        "READING_PROGRESS_" + flag.dropFirst(2).uppercased().replacingOccurrences(of: "-", with: "_")
    }

    /// Reads the environment first, then `arguments` (those after `serve`).
    init(arguments: [String], environment: [String: String]) throws(Invalid) {
        for (flag, _, _) in Self.table {
            if let value = environment[Self.environmentName(of: flag)] { try set(flag, value) }
        }
        var remaining = arguments[...]
        while let argument = remaining.popFirst() {
            var flag = argument
            var value: String?
            if let equals = argument.firstIndex(of: "=") {
                flag = String(argument[..<equals])
                value = String(argument[argument.index(after: equals)...])
            }
            guard Self.table.contains(where: { $0.flag == flag }) else {
                throw Invalid(message: "unknown option \(flag); see --help")
            }
            if value == nil { value = remaining.popFirst() }
            guard let value else { throw Invalid(message: "\(flag) needs a value") }
            try set(flag, value)
        }
    }

    private mutating func set(_ flag: String, _ value: String) throws(Invalid) {
        func bad() -> Invalid { Invalid(message: "invalid value for \(flag): '\(value)'") }
        switch flag {
        case "--host":
            guard !value.isEmpty else { throw bad() }
            host = value
        case "--port":
            guard let port = UInt16(value) else { throw bad() }
            self.port = port
        case "--store":
            guard
                value.hasPrefix("sqlite:") || value == "memory:" || value.hasPrefix("postgres://")
                    || value.hasPrefix("postgresql://")
            else { throw bad() }
            store = value
        case "--api-token":
            apiToken = value.isEmpty ? nil : value
        case "--completion-threshold":
            guard let threshold = Double(value), (0...1).contains(threshold) else { throw bad() }
            completionThreshold = threshold
        case "--max-body-bytes":
            guard let bytes = Int(value), bytes >= 1024, bytes <= 1 << 30 else { throw bad() }
            maxBodyBytes = bytes
        case "--allowed-origins":
            allowedOrigins = value.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
                .filter { !$0.isEmpty }
        case "--connection-timeout":
            guard let seconds = UInt32(value), seconds >= 1 else { throw bad() }
            connectionTimeout = seconds
        case "--per-ip-connection-limit":
            guard let limit = UInt32(value), limit >= 1 else { throw bad() }
            perIPConnectionLimit = limit
        case "--connection-memory":
            guard let bytes = Int(value), (8192...1 << 20).contains(bytes) else { throw bad() }
            connectionMemory = bytes
        case "--threads":
            guard let threads = Int(value), (1...256).contains(threads) else { throw bad() }
            self.threads = threads
        case "--rate-limit":
            guard let rate = Int(value), (0...10_000_000).contains(rate) else { throw bad() }
            rateLimit = rate
        case "--log-requests":
            guard let enabled = Bool(value) else { throw bad() }
            logRequests = enabled
        case "--fsync-commits":
            guard let enabled = Bool(value) else { throw bad() }
            fsyncCommits = enabled
        default:
            throw Invalid(message: "unknown option \(flag)")
        }
    }

    static var help: String {
        var text = """
            reading-progress — reading progress and completion statistics over HTTP

            Usage:
              reading-progress serve [options]
              reading-progress --help
              reading-progress --version

            Options (each also read from the environment variable shown):

            """
        for (flag, value, help) in table {
            text += "  \(flag) \(value)\n      \(help)\n      env \(environmentName(of: flag))\n"
        }
        return text
    }
}
