import Foundation
import ProgressService

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
    /// core to another process), and a second one per core keeps the core busy meanwhile
    /// (docs/performance.md).
    var threads = min(256, 2 * ProcessInfo.processInfo.activeProcessorCount)
    var logRequests = true
    var fsyncCommits = false
    /// 0: no limit.
    var rateLimit = 0
    var trustedProxies = TrustedProxies.none
    /// 0: keep every day.
    var retentionDays = 0
    /// Added to the wall clock everywhere the service reads it (a testing aid).
    var clockOffsetSeconds: Int64 = 0
    /// Fill an in-memory store with a sample of readers (see Demo.swift).
    var demo = false
    /// Serve even when the framing refusals cannot be proven on this libmicrohttpd.
    var acceptUnprovenFraming = false
    /// Whether `--store` was given on the command line: `--demo` refuses any store but `memory:`.
    private var storeGiven = false

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
        (
            "--trusted-proxies", "LIST",
            "IPv4 and IPv6 CIDR blocks and addresses, comma separated, of proxies whose X-Forwarded-For names the client (default none)"
        ),
        (
            "--retention-days", "N",
            "days of statistics kept, today's included; older days are dropped within an hour and at start-up, and older events refused; 0 keeps every day (default 0)"
        ),
        (
            "--clock-offset-seconds", "SECONDS",
            "a testing aid: shifts the service's clock (days, event times, retention, salts, id windows) by this many seconds (default 0)"
        ),
        ("--log-requests", "true|false", "one log line per request on standard error (default true)"),
        (
            "--fsync-commits", "true|false",
            "fdatasync the event journal before each answer (grouped), so acknowledged events survive a power cut too, not only kill -9 (default false)"
        ),
        (
            "--accept-unproven-framing", "",
            "start even when the check at start finds that a framing refusal of docs/proxies.md does not hold on this libmicrohttpd (logged as a warning); without it the service refuses to start, saying which (default false)"
        ),
        (
            "--demo", "",
            "start with a sample of four weeks of readers on several articles, in an in-memory store (READING_PROGRESS_STORE is ignored, another --store refused), to look around the dashboard (default false)"
        ),
    ]

    /// Flags that take no value on the command line (`--demo`, or `--demo=false`).
    static let switches: Set<String> = ["--demo", "--accept-unproven-framing"]

    static func environmentName(of flag: String) -> String {
        "READING_PROGRESS_" + flag.dropFirst(2).uppercased().replacingOccurrences(of: "-", with: "_")
    }

    /// Reads the environment first, then `arguments` (those after `serve`).
    init(arguments: [String], environment: [String: String]) throws(Invalid) {
        for (flag, _, _) in Self.table {
            if let value = environment[Self.environmentName(of: flag)] { try set(flag, value) }
        }
        // A store from the environment (a container's, say) gives way to --demo; one given on
        // the command line beside it is a mistake.
        storeGiven = false
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
            if value == nil { value = Self.switches.contains(flag) ? "true" : remaining.popFirst() }
            guard let value else { throw Invalid(message: "\(flag) needs a value") }
            try set(flag, value)
        }
        if demo {
            guard !storeGiven || store == "memory:" else {
                throw Invalid(
                    message:
                        "--demo fills an in-memory store with sample readers; it cannot be combined with --store \(store)"
                )
            }
            store = "memory:"
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
            storeGiven = true
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
        case "--trusted-proxies":
            do {
                trustedProxies = try TrustedProxies(parsing: value)
            } catch {
                throw Invalid(
                    message: "invalid value for \(flag): '\(error.entry)' is no IP address or CIDR block")
            }
        case "--retention-days":
            guard let days = Int(value), (0...36_500).contains(days) else { throw bad() }
            retentionDays = days
        case "--clock-offset-seconds":
            guard let seconds = Int64(value), seconds.magnitude <= 100 * 366 * 86_400 else { throw bad() }
            clockOffsetSeconds = seconds
        case "--log-requests":
            guard let enabled = Bool(value) else { throw bad() }
            logRequests = enabled
        case "--fsync-commits":
            guard let enabled = Bool(value) else { throw bad() }
            fsyncCommits = enabled
        case "--demo":
            guard let enabled = Bool(value) else { throw bad() }
            demo = enabled
        case "--accept-unproven-framing":
            guard let enabled = Bool(value) else { throw bad() }
            acceptUnprovenFraming = enabled
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
            text +=
                "  \(flag)\(value.isEmpty ? "" : " " + value)\n      \(help)\n      env \(environmentName(of: flag))\n"
        }
        return text
    }
}
