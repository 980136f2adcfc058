import CMicroHTTPD

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where and how an ``HTTPServer`` listens, and the limits it enforces.
public struct HTTPServerConfiguration: Sendable {
    /// The address to listen on: an IPv4 or IPv6 literal, or a name such as `"localhost"`.
    public var host: String
    /// The port to listen on; `0` picks a free one (see ``HTTPServer/start()``).
    public var port: UInt16
    /// The number of libmicrohttpd worker threads.
    public var threads: Int
    /// The largest request body accepted; larger ones get ``HTTPResponder/bodyTooLarge(_:)``.
    public var maxBodyBytes: Int
    /// How long a connection may stay idle (or a client may stall mid-request) before it is dropped.
    public var connectionTimeoutSeconds: UInt32
    /// The most connections one client IP address may hold open at once.
    public var perIPConnectionLimit: UInt32
    /// The most connections the server holds open at once.
    public var connectionLimit: UInt32
    /// The memory libmicrohttpd gives each connection for the request line, the header fields
    /// and its buffers. It bounds the size of a request's head: one whose head does not fit gets
    /// 431 — or, when it fits with too little room left to build an answer (a band a few dozen
    /// to a few hundred bytes wide just below the limit), libmicrohttpd closes the connection
    /// without one. libmicrohttpd clears the whole of it after every request, so it is also a cost per
    /// request; 24 KiB (the default is 32) still takes heads of 11 KiB, a cookie of 8 KiB (the
    /// longest line nginx accepts by default) included.
    public var connectionMemoryBytes: Int
    /// Whether ``HTTPServer/start()`` starts even when the framing refusals of docs/proxies.md do
    /// not all hold on the libmicrohttpd it runs on (then ``HTTPServer/unprovenFraming`` says
    /// which, for the log). Off by default: the server then refuses to start.
    public var acceptsUnprovenFraming: Bool
    /// How long ``HTTPServer/stop()`` waits for requests in flight before answering them 503.
    package var drainSeconds = 10.0
    /// The libmicrohttpd version the head checks assume: the one linked, unless a test says
    /// otherwise.
    package var libraryVersion = String(cString: MHD_get_version())

    /// Creates a configuration; every limit has a production-minded default.
    public init(
        host: String = "127.0.0.1", port: UInt16 = 8080,
        threads: Int = HTTPServerConfiguration.activeCores,
        maxBodyBytes: Int = 1_048_576, connectionTimeoutSeconds: UInt32 = 30,
        perIPConnectionLimit: UInt32 = 256, connectionLimit: UInt32 = 10_000,
        connectionMemoryBytes: Int = 24_576, acceptsUnprovenFraming: Bool = false
    ) {
        self.host = host
        self.port = port
        self.threads = threads
        self.maxBodyBytes = maxBodyBytes
        self.connectionTimeoutSeconds = connectionTimeoutSeconds
        self.perIPConnectionLimit = perIPConnectionLimit
        self.connectionLimit = connectionLimit
        self.connectionMemoryBytes = connectionMemoryBytes
        self.acceptsUnprovenFraming = acceptsUnprovenFraming
    }

    /// The number of processor cores currently online (at least 1).
    public static var activeCores: Int {
        max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))
    }
}
