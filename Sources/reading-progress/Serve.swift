import EmbeddedStore
import Foundation
import HTTPServer
import PostgresStore
import ProgressService
import ProgressStore

/// Runs the service until SIGTERM or SIGINT, then stops accepting, finishes what is in flight,
/// makes everything acknowledged durable and returns the exit status.
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
    let offsetMs = options.clockOffsetSeconds * 1000
    let clock: @Sendable () -> Int64 = { wallClockMs() + offsetMs }
    let store: any ProgressStore
    do {
        store = try openStore(
            options.store, fsyncCommits: options.fsyncCommits, retentionDays: options.retentionDays,
            clock: clock)
    } catch {
        log.lifecycle("cannot open store \(describe(options.store)): \(error)")
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
            trustedProxies: options.trustedProxies, retentionDays: options.retentionDays),
        store: store, metrics: Metrics(), log: log, clock: clock)
    let server = HTTPServer(
        configuration: HTTPServerConfiguration(
            host: options.host, port: options.port, threads: options.threads,
            maxBodyBytes: options.maxBodyBytes,
            connectionTimeoutSeconds: options.connectionTimeout,
            perIPConnectionLimit: options.perIPConnectionLimit,
            connectionMemoryBytes: options.connectionMemory),
        responder: service)

    let port: UInt16
    do {
        port = try server.start()
    } catch {
        log.lifecycle("cannot listen on \(options.host):\(options.port): \(error)")
        store.close()
        return 1
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
    log.lifecycle("stopping: no new connections, finishing requests in flight")
    server.stop()
    store.close()
    log.lifecycle("stopped")
    log.flush()
    return 0
}

private func openStore(
    _ url: String, fsyncCommits: Bool, retentionDays: Int, clock: @escaping @Sendable () -> Int64
) throws -> any ProgressStore {
    // The service's clock: salts, event ids and retention age by the same days as the service's.
    let options = EmbeddedStore.Options(
        fsyncEachCommit: fsyncCommits, retentionDays: retentionDays, clock: clock)
    if url == "memory:" { return try EmbeddedStore(path: ":memory:", options: options) }
    if url.hasPrefix("sqlite:") {
        return try EmbeddedStore(path: String(url.dropFirst("sqlite:".count)), options: options)
    }
    return try PostgresStore(
        uri: url, options: PostgresStore.Options(retentionDays: retentionDays, clock: clock))
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
private func tuneAllocator() {
    #if os(Linux)
        _ = glibcMallopt(-3, 256 << 10)  // M_MMAP_THRESHOLD
        _ = glibcMallopt(-8, 2)  // M_ARENA_MAX
    #endif
}

#if os(Linux)
    /// glibc's `mallopt(3)`; `<malloc.h>` is not part of the Glibc module.
    @_silgen_name("mallopt")
    private func glibcMallopt(_ parameter: Int32, _ value: Int32) -> Int32
#endif
