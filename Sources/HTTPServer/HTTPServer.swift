import CMicroHTTPD
import Dispatch
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
    private let unproven = Mutex<String?>(nil)

    /// How long ``stop()`` gives those 503 answers to go out.
    static let refusalTimeoutSeconds = 1.0

    /// Creates a server; nothing listens, and no thread runs, until ``start()``.
    public init(configuration: HTTPServerConfiguration, responder: any HTTPResponder) {
        self.configuration = configuration
        self.core = ServerCore(
            responder: responder, maxBodyBytes: configuration.maxBodyBytes,
            libraryVersion: configuration.libraryVersion)
    }

    deinit {
        stop()
    }

    /// Proves that the framing refusals hold (``FramingProof``), then binds the listening socket
    /// and starts the worker threads.
    ///
    /// - Returns: The port bound, which is the one picked when the configuration says `0`.
    /// - Throws: ``HTTPServerError`` when a framing refusal does not hold on this libmicrohttpd
    ///   (naming each, unless ``HTTPServerConfiguration/acceptsUnprovenFraming``), when the
    ///   address cannot be resolved or bound (for example, the port is in use), when the server
    ///   was started before, or when libmicrohttpd fails.
    public func start() throws -> UInt16 {
        try state.withLock { state in
            guard case .idle = state else { throw HTTPServerError("the server was started before") }
            let proof = FramingProof.make(configuration, version: configuration.libraryVersion)
            if !proof.holds {
                guard configuration.acceptsUnprovenFraming else {
                    throw HTTPServerError(
                        "not serving: \(proof.summary). A proxy in front could read such requests otherwise; "
                            + "to serve anyway, accept unproven framing (reading-progress: --accept-unproven-framing)"
                    )
                }
                unproven.withLock { $0 = proof.summary }
            }
            let socket = try ListenSocket(host: configuration.host, port: configuration.port)
            do {
                state = .running(daemon: try core.startDaemon(configuration, listening: socket.descriptor))
            } catch {
                close(socket.descriptor)
                throw error
            }
            return socket.port
        }
    }

    /// When ``start()`` could not prove the framing refusals and the configuration accepts
    /// that: which refusals do not hold, and why, for the log; `nil` when they all hold.
    public var unprovenFraming: String? {
        unproven.withLock { $0 }
    }

    /// Stops the server: stops accepting connections, waits (up to 10 seconds) for requests
    /// already handed to the responder to be answered, then closes every connection.
    ///
    /// Answers sent while draining carry `Connection: close`. Requests the responder has not
    /// answered in time get 503 `shutting_down` (``RequestRefusal/shuttingDown``, as the
    /// responder renders it), with a second more to go out. Blocks until done; calling it again
    /// does nothing.
    public func stop() {
        let running: OpaquePointer? = state.withLock { state in
            defer { state = .stopped }
            if case .running(let daemon) = state { return daemon }
            return nil
        }
        guard let daemon = running else { return }
        core.draining.store(true, ordering: .sequentiallyConsistent)
        // The listening socket is shut down at once, so that new connections are refused while
        // requests drain, but closed only after `MHD_stop_daemon`: libmicrohttpd's worker threads
        // may still be polling it, and a descriptor closed (or reused by another file) under
        // them fails in ways libmicrohttpd aborts the process on (its header: "must not be
        // closed until AFTER MHD_stop_daemon").
        let listener = MHD_quiesce_daemon(daemon)
        if listener >= 0 { shutdown(listener, Int32(SHUT_RDWR)) }
        defer { if listener >= 0 { close(listener) } }
        let deadline = DispatchTime.now() + configuration.drainSeconds
        var drained = core.waitUntil(deadline) { core.isIdle }
        // A keep-alive client may still send a request before it reads `Connection: close`:
        // from here on new requests are answered 503 without reaching the responder, and one
        // that slipped in before is waited for like the rest. Only what is still pending when
        // the wait runs out is answered 503 by the server itself, since libmicrohttpd aborts
        // when stopped with a connection suspended.
        core.refuseNew()
        if drained { drained = core.waitUntil(deadline) { core.isIdle } }
        if !drained {
            core.answerPendingUnavailable()
            _ = core.waitUntil(.now() + Self.refusalTimeoutSeconds) { core.isIdle }
        }
        core.resumeGate.close()
        MHD_stop_daemon(daemon)
    }
}
