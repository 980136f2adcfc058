internal import CSystem
import Dispatch
import EmbeddedStore
import Foundation
import HTTPServer
import PostgresStore
import ProgressService
import ProgressStore

/// Runs the service until SIGTERM or SIGINT, then stops (docs/architecture.md, "Lifecycle"):
///
/// 1. the log, then the store (opened, then started: its threads, today's and tomorrow's
///    salts), then the server, which listens last;
/// 2. at the signal, in the reverse order: the server stops accepting and finishes the requests
///    in flight (up to 10 s, then answers what is left 503); the store commits what is queued,
///    saves a checkpoint and closes its files (each wait bounded); the log writes out its last
///    lines and stops.
///
/// Should stopping take longer than ``stopBudgetSeconds`` all the same, the process exits
/// with status 1: everything acknowledged is in the journal or the database by then, as after
/// a `kill -9`.
func serve(_ options: Options) -> Int32 {
    // Blocked before any thread starts, so that every thread inherits the block: a stop signal
    // sent at any moment from here on waits, pending, for the `sigwait` below. Ignored and handed
    // to a dispatch source instead, one sent right after the listening line was lost whenever it
    // came before the dispatch manager thread, in its own time, had registered the source.
    var stopSignals = sigset_t()
    sigemptyset(&stopSignals)
    sigaddset(&stopSignals, SIGTERM)
    sigaddset(&stopSignals, SIGINT)
    pthread_sigmask(SIG_BLOCK, &stopSignals, nil)
    tuneAllocator()
    let log = RequestLog(enabled: options.logRequests)
    log.start()
    defer { log.stop() }
    let offsetMs = options.clockOffsetSeconds * 1000
    let clock: @Sendable () -> Int64 = { wallClockMs() + offsetMs }
    let store: any ProgressStore
    do {
        store = try openStore(
            options.store, fsyncCommits: options.fsyncCommits, retentionDays: options.retentionDays,
            clock: clock, logger: { log.lifecycle("store: " + $0) })
    } catch {
        log.lifecycle("cannot open store \(describe(options.store)): \(error)")
        return 1
    }
    do {
        try store.start()
    } catch {
        log.lifecycle("cannot start store \(describe(options.store)): \(error)")
        store.close()
        return 1
    }
    if options.demo {
        do {
            let (readers, events) = try DemoData.fill(store, nowMs: clock())
            log.lifecycle(
                "demo: \(readers) sample readers, \(events) events over \(DemoData.days) days in the in-memory store"
            )
        } catch {
            log.lifecycle("cannot fill the demo store: \(error)")
            store.close()
            return 1
        }
    }
    let service = ProgressService(
        configuration: ServiceConfiguration(
            apiToken: options.apiToken, completionThreshold: options.completionThreshold,
            maxBodyBytes: options.maxBodyBytes, allowedOrigins: options.allowedOrigins,
            rateLimit: options.rateLimit > 0 ? options.rateLimit : nil,
            trustedProxies: options.trustedProxies, retentionDays: options.retentionDays, version: version,
            storePath: options.store.hasPrefix("sqlite:")
                ? String(options.store.dropFirst("sqlite:".count)) : nil),
        store: store, metrics: Metrics(), log: log, clock: clock)
    let server = HTTPServer(
        configuration: HTTPServerConfiguration(
            host: options.host, port: options.port, threads: options.threads,
            maxBodyBytes: options.maxBodyBytes,
            connectionTimeoutSeconds: options.connectionTimeout,
            perIPConnectionLimit: options.perIPConnectionLimit,
            connectionMemoryBytes: options.connectionMemory,
            acceptsUnprovenFraming: options.acceptUnprovenFraming),
        responder: service)

    let port: UInt16
    do {
        port = try server.start()
    } catch {
        // Each reason names what failed: the address (`cannot listen on …`), the framing proof
        // (`not serving: …`) or the daemon.
        log.lifecycle("cannot start the server: \(error)")
        store.close()
        return 1
    }
    if let unproven = server.unprovenFraming {
        log.lifecycle("warning: --accept-unproven-framing: \(unproven)")
    }
    let shownHost = options.host.contains(":") ? "[\(options.host)]" : options.host
    log.lifecycle("started reading-progress \(version), store \(describe(options.store))")
    if options.store.hasPrefix("sqlite:"),
        let caveat = EmbeddedStore.fileSystemCaveat(path: String(options.store.dropFirst("sqlite:".count)))
    {
        log.lifecycle(caveat)
    }
    if options.clockOffsetSeconds != 0 {
        log.lifecycle(
            "warning: the clock is shifted by \(options.clockOffsetSeconds) s (--clock-offset-seconds), a testing aid"
        )
    }
    // The one line on standard output, written in one call so that nothing buffers it.
    let line = Array("listening on http://\(shownHost):\(port)\n".utf8)
    _ = line.withUnsafeBytes { write(1, $0.baseAddress, $0.count) }

    var received: Int32 = 0
    while sigwait(&stopSignals, &received) != 0 {}
    DispatchQueue.global().asyncAfter(deadline: .now() + stopBudgetSeconds) {
        log.lifecycle("stopping took longer than \(Int(stopBudgetSeconds)) s: exiting now")
        log.flush()
        _exit(1)
    }
    log.lifecycle("stopping: no new connections, finishing requests in flight")
    server.stop()
    log.lifecycle("requests finished: committing and closing the store")
    store.close()
    log.lifecycle("stopped")
    return 0
}

/// The longest a stop may take: the server's drain (10 s, then 503 answers) and the store's
/// bounded waits, with room to spare.
private let stopBudgetSeconds = 45.0

/// The store `url` names, opened but not started.
private func openStore(
    _ url: String, fsyncCommits: Bool, retentionDays: Int, clock: @escaping @Sendable () -> Int64,
    logger: @escaping StoreLogger
) throws -> any ProgressStore {
    // The service's clock: salts, event ids and retention age by the same days as the service's.
    let options = EmbeddedStore.Options(
        fsyncEachCommit: fsyncCommits, retentionDays: retentionDays, clock: clock, logger: logger)
    if url == "memory:" { return try EmbeddedStore(path: ":memory:", options: options) }
    if url.hasPrefix("sqlite:") {
        return try EmbeddedStore(path: String(url.dropFirst("sqlite:".count)), options: options)
    }
    return try PostgresStore(
        uri: url, options: PostgresStore.Options(retentionDays: retentionDays, clock: clock, logger: logger))
}

/// The store URL without a password, for logs.
/// The store's URI without what could be a secret: the user and password, and the query's
/// settings (`?password=…`).
private func describe(_ url: String) -> String {
    guard let scheme = url.range(of: "://") else { return url }
    var rest = url[scheme.upperBound...]
    if let query = rest.firstIndex(of: "?") { rest = rest[..<query] }
    if let at = rest.lastIndex(of: "@") { rest = "…" + rest[at...] }
    return String(url[..<scheme.upperBound]) + rest
}

/// The index's columns are large arrays that grow by copying, and checkpoints copy an article's
/// columns when it changes while it is being saved. With glibc's default, freeing one large
/// block raises the threshold above which blocks are mapped on their own, so the next copies
/// come from the heap, and memory they free there is not given back: resident memory creeps
/// up. A fixed threshold (setting it turns the adjustment off) keeps large blocks mapped and
/// returned when freed; two arenas (instead of eight per core) keep the service's few threads
/// from holding free memory in many.
/// (Elsewhere than glibc these do nothing.)
private func tuneAllocator() {
    // mallopt answers 0 for a value it refuses; the defaults then stay, which cost memory, not
    // correctness, and a line at start would only say what `/proc/self/status` shows anyway.
    _ = csystem_set_mmap_threshold(256 << 10)
    _ = csystem_set_arena_max(2)
}
