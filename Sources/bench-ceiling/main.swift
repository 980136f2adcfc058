// bench-ceiling: a bare libmicrohttpd server, configured like the service's HTTP layer, that
// answers every request with 204 (or, with `--answer service`, as the service answers an event).
// Its throughput is the ceiling the service is measured against. With `--http-layer` it serves
// through the service's own HTTP layer instead, with nothing behind it (see FixedResponder).
import CMicroHTTPD
import HTTPServer

#if canImport(Glibc)
    import Glibc
#endif

func fail(_ message: String) -> Never {
    let line = Array("bench-ceiling: \(message)\n".utf8)
    _ = line.withUnsafeBytes { write(STDERR_FILENO, $0.baseAddress, $0.count) }
    exit(2)
}

var port: UInt16 = 8090
// The service's per-connection memory (HTTPServerConfiguration.connectionMemoryBytes); 0 keeps
// libmicrohttpd's default, 32 KiB.
var connectionMemory = 24_576
// libmicrohttpd's worker threads; 0: one per core (the service runs two per core, which does
// not help this server, whose workers never wait; docs/performance.md).
var threadCount = 0
// Serve through HTTPServer (the service's HTTP layer) instead of a bare daemon.
var throughHTTPLayer = false
// Busy work before each answer (what a given cost a request does to throughput), and the answer.
let configuration = UnsafeMutablePointer<BareHandler.Configuration>.allocate(capacity: 1)
configuration.initialize(to: BareHandler.Configuration())
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
    switch argument {
    case "--port":
        guard let value = arguments.popFirst().flatMap({ UInt16($0) }) else {
            fail("--port needs a number from 0 to 65535")
        }
        port = value
    case "--connection-memory":
        guard let value = arguments.popFirst().flatMap({ Int($0) }), value >= 0 else {
            fail("--connection-memory needs a number of bytes (0: libmicrohttpd's default)")
        }
        connectionMemory = value
    case "--threads":
        guard let value = arguments.popFirst().flatMap({ Int($0) }), (0...256).contains(value) else {
            fail("--threads needs a number from 0 to 256 (0: one per core)")
        }
        threadCount = value
    case "--busy-ns":
        guard let value = arguments.popFirst().flatMap({ Int($0) }), (0...1_000_000).contains(value) else {
            fail("--busy-ns needs a number of nanoseconds from 0 to 1000000")
        }
        configuration.pointee.busyNanoseconds = value
    case "--answer":
        switch arguments.popFirst() {
        case "204": configuration.pointee.answersLikeService = false
        case "service": configuration.pointee.answersLikeService = true
        default: fail("--answer needs 204 or service")
        }
    case "--http-layer":
        throughHTTPLayer = true
    case "--help", "-h":
        print(
            "usage: bench-ceiling [--port N] [--connection-memory BYTES] [--threads N] [--busy-ns N] [--answer 204|service]\n"
                + "       bench-ceiling --http-layer [--port N] [--connection-memory BYTES] [--threads N]\n"
                + "  --port: default 8090; 0 picks a free port\n"
                + "  --connection-memory: per-connection memory, default 24576 as the service; 0: libmicrohttpd's 32 KiB\n"
                + "  --threads: worker threads, default 0: one per core\n"
                + "  --busy-ns: spin this long before each answer, default 0: a stand-in for a handler's work\n"
                + "  --answer: 204 (default), or service: 202 with a JSON body and header fields like the service's\n"
                + "    answer to one event, the response built for each request\n"
                + "  --http-layer: serve through the service's HTTP layer (HTTPServer, by default with twice as many\n"
                + "    threads as cores, as the service) and answer every request as the service answers an event,\n"
                + "    with nothing behind it: no decoding, no store, no log"
        )
        exit(0)
    default:
        fail("unknown argument \(argument)")
    }
}

// Block the stop signals before any thread starts, so every thread inherits the mask and
// sigwait below is the only place they are delivered.
var stopSignals = sigset_t()
sigemptyset(&stopSignals)
sigaddset(&stopSignals, SIGINT)
sigaddset(&stopSignals, SIGTERM)
pthread_sigmask(SIG_BLOCK, &stopSignals, nil)

let cores = max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))
if throughHTTPLayer {
    let server = HTTPServer(
        configuration: HTTPServerConfiguration(
            port: port, threads: threadCount > 0 ? threadCount : min(256, 2 * cores),
            connectionMemoryBytes: connectionMemory > 0 ? connectionMemory : 32_768),
        responder: FixedResponder())
    let bound: UInt16
    do {
        bound = try server.start()
    } catch {
        fail("cannot listen on 127.0.0.1:\(port): \(error)")
    }
    print("listening on http://127.0.0.1:\(bound)")
    fflush(nil)
    var received: Int32 = 0
    sigwait(&stopSignals, &received)
    server.stop()
    exit(0)
}

var address = sockaddr_in()
address.sin_family = sa_family_t(AF_INET)
address.sin_port = port.bigEndian
address.sin_addr.s_addr = inet_addr("127.0.0.1")

let started: OpaquePointer? = withUnsafePointer(to: &address) { pointer in
    pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { socketAddress in
        var options = cmhd_daemon_options(
            listen_fd: -1, bind_address: socketAddress, port: port,
            threads: UInt32(threadCount > 0 ? threadCount : cores),
            connection_timeout_seconds: 30, per_ip_connection_limit: 256, connection_limit: 10_000,
            connection_memory_limit: connectionMemory, uri_log: nil, uri_log_cls: nil, completed: nil,
            completed_cls: nil)
        // Polled as the service is (HTTPServer says why not epoll).
        let flags =
            MHD_USE_POLL_INTERNAL_THREAD.rawValue | MHD_USE_ITC.rawValue | MHD_ALLOW_SUSPEND_RESUME.rawValue
        return cmhd_start_daemon(
            UInt32(flags), &options, BareHandler.access,
            UnsafeMutableRawPointer(configuration))
    }
}
guard let daemon = started else {
    fail("cannot listen on 127.0.0.1:\(port): \(String(cString: strerror(errno)))")
}

print("listening on http://127.0.0.1:\(cmhd_bound_port(daemon))")
fflush(nil)

var received: Int32 = 0
sigwait(&stopSignals, &received)
MHD_stop_daemon(daemon)
