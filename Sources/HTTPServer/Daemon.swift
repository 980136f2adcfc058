import CMicroHTTPD

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension ServerCore {
    /// Starts a libmicrohttpd daemon that calls back into this core, with the options and flags
    /// of `configuration`: listening on `descriptor`, or with none (`nil`) taking only the
    /// connections handed to it with `MHD_add_connection` (as ``FramingProof`` does). The core
    /// must outlive the daemon: libmicrohttpd holds it unretained.
    func startDaemon(_ configuration: HTTPServerConfiguration, listening descriptor: Int32?)
        throws(HTTPServerError)
        -> OpaquePointer
    {
        let serverPointer = Unmanaged.passUnretained(self).toOpaque()
        var options = cmhd_daemon_options(
            listen_fd: descriptor ?? -1, bind_address: nil, port: 0,
            threads: UInt32(clamping: configuration.threads),
            connection_timeout_seconds: configuration.connectionTimeoutSeconds,
            per_ip_connection_limit: configuration.perIPConnectionLimit,
            connection_limit: configuration.connectionLimit,
            connection_memory_limit: configuration.connectionMemoryBytes,
            uri_log: MHDCallbacks.uriLog, uri_log_cls: serverPointer,
            completed: MHDCallbacks.completed, completed_cls: serverPointer)
        // poll, not epoll: libmicrohttpd 0.9.75's `MHD_quiesce_daemon` and an epoll worker that
        // wakes meanwhile can both take the listening socket out of that worker's epoll set, and
        // the second one's failure aborts the process. Quiescing a poll worker only tells it to
        // stop watching the socket.
        var flags =
            MHD_USE_POLL_INTERNAL_THREAD.rawValue | MHD_USE_ITC.rawValue | MHD_ALLOW_SUSPEND_RESUME.rawValue
        if descriptor == nil { flags |= MHD_USE_NO_LISTEN_SOCKET.rawValue }
        guard let daemon = cmhd_start_daemon(UInt32(flags), &options, MHDCallbacks.access, serverPointer)
        else {
            throw HTTPServerError(
                "libmicrohttpd could not start the daemon: \(String(cString: strerror(errno)))")
        }
        return daemon
    }
}
