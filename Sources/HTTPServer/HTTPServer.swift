import CMicroHTTPD
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// An HTTP/1.1 server on libmicrohttpd: a thread pool that hands complete requests to
/// an ``HTTPResponder`` and never blocks a worker while a reply is pending.
public final class HTTPServer: Sendable {
    private enum State {
        case idle
        case running(daemon: OpaquePointer)
        case stopped
    }

    private let configuration: HTTPServerConfiguration
    private let core: ServerCore
    private let state = Mutex(State.idle)

    /// How long ``stop()`` waits for requests in flight before answering them with 503.
    static let drainTimeoutSeconds = 10.0
    /// How long ``stop()`` then gives those 503 answers to go out.
    static let refusalTimeoutSeconds = 1.0

    /// Creates a server; nothing listens until ``start()``.
    public init(configuration: HTTPServerConfiguration, responder: any HTTPResponder) {
        self.configuration = configuration
        self.core = ServerCore(responder: responder, maxBodyBytes: configuration.maxBodyBytes)
    }

    deinit {
        stop()
    }

    /// Binds the listening socket and starts the worker threads.
    ///
    /// - Returns: The port bound, which is the one picked when the configuration says `0`.
    /// - Throws: ``HTTPServerError`` when the address cannot be resolved or bound (for example,
    ///   the port is in use), when the server was started before, or when libmicrohttpd fails.
    public func start() throws -> UInt16 {
        try state.withLock { state in
            guard case .idle = state else { throw HTTPServerError("the server was started before") }
            let socket = try ListenSocket(host: configuration.host, port: configuration.port)
            let serverPointer = Unmanaged.passUnretained(core).toOpaque()
            var options = cmhd_daemon_options(
                listen_fd: socket.descriptor, bind_address: nil, port: 0,
                threads: UInt32(clamping: configuration.threads),
                connection_timeout_seconds: configuration.connectionTimeoutSeconds,
                per_ip_connection_limit: configuration.perIPConnectionLimit,
                connection_limit: configuration.connectionLimit,
                connection_memory_limit: configuration.connectionMemoryBytes,
                uri_log: MHDCallbacks.uriLog, uri_log_cls: serverPointer,
                completed: MHDCallbacks.completed, completed_cls: serverPointer)
            // poll, not epoll: libmicrohttpd 0.9.75's `MHD_quiesce_daemon` and an epoll worker
            // that wakes meanwhile can both take the listening socket out of that worker's epoll
            // set, and the second one's failure aborts the process. Quiescing a poll worker only
            // tells it to stop watching the socket.
            let flags =
                MHD_USE_POLL_INTERNAL_THREAD.rawValue | MHD_USE_ITC.rawValue
                | MHD_ALLOW_SUSPEND_RESUME.rawValue
            guard
                let daemon = cmhd_start_daemon(
                    UInt32(flags), &options, MHDCallbacks.access, serverPointer)
            else {
                let reason = String(cString: strerror(errno))
                close(socket.descriptor)
                throw HTTPServerError("libmicrohttpd could not start the daemon: \(reason)")
            }
            state = .running(daemon: daemon)
            return socket.port
        }
    }

    /// Stops the server: stops accepting connections, waits (up to 10 seconds) for requests
    /// already handed to the responder to be answered, then closes every connection.
    ///
    /// Answers sent while draining carry `Connection: close`. Requests the responder has not
    /// answered in time get an empty 503. Blocks until done; calling it again does nothing.
    public func stop() {
        let running: OpaquePointer? = state.withLock { state in
            defer { state = .stopped }
            if case .running(let daemon) = state { return daemon }
            return nil
        }
        guard let daemon = running else { return }
        core.draining.store(true, ordering: .relaxed)
        // The listening socket is shut down at once, so that new connections are refused while
        // requests drain, but closed only after `MHD_stop_daemon`: libmicrohttpd's worker threads
        // may still be polling it, and a descriptor closed (or reused by another file) under
        // them fails in ways libmicrohttpd aborts the process on (its header: "must not be
        // closed until AFTER MHD_stop_daemon").
        let listener = MHD_quiesce_daemon(daemon)
        if listener >= 0 { shutdown(listener, Int32(SHUT_RDWR)) }
        defer { if listener >= 0 { close(listener) } }
        var drained = waitForPendingRequests(seconds: Self.drainTimeoutSeconds)
        // A keep-alive client may still send a request before it reads `Connection: close`:
        // from here on new requests are answered 503 without reaching the responder, and one
        // that slipped in before is waited for like the rest. Only what is still pending when
        // the wait runs out is answered 503 by the server itself, since libmicrohttpd aborts
        // when stopped with a connection suspended.
        core.refuseNew()
        if drained { drained = waitForPendingRequests(seconds: Self.drainTimeoutSeconds) }
        if !drained {
            core.answerPendingUnavailable()
            _ = waitForPendingRequests(seconds: Self.refusalTimeoutSeconds)
        }
        core.resumeGate.close()
        MHD_stop_daemon(daemon)
    }

    /// Whether every request handed to the responder completed within `seconds`.
    private func waitForPendingRequests(seconds: Double) -> Bool {
        let pollMicroseconds: UInt32 = 5_000
        var waited = 0.0
        while core.dispatching.load(ordering: .sequentiallyConsistent) > 0
            || !core.pending.isEmpty
        {
            guard waited < seconds else { return false }
            usleep(pollMicroseconds)
            waited += Double(pollMicroseconds) / 1_000_000
        }
        return true
    }
}
