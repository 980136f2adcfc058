import CMicroHTTPD

#if canImport(Glibc)
    import Glibc
#endif

/// The whole application of the bare server: read and drop the body, answer 204 — after
/// spinning for the nanoseconds its daemon was given as the handler's argument, if any.
///
/// Kept out of `main.swift`, whose top-level code is main-actor isolated, because
/// libmicrohttpd calls it on its own threads.
enum BareHandler {
    static let access: MHD_AccessHandlerCallback = {
        busy, connection, _, _, _, _, uploadSize, context in
        guard let connection, let uploadSize, let context else { return .NO }
        if context.pointee == nil {
            // Any non-null `*con_cls` marks that the header call has been seen.
            context.pointee = UnsafeMutableRawPointer(bitPattern: 1)
            return .YES
        }
        if uploadSize.pointee > 0 {
            uploadSize.pointee = 0
            return .YES
        }
        if let busy { spin(nanoseconds: Int(bitPattern: busy)) }
        guard let response = MHD_create_response_from_buffer(0, nil, .RESPMEM_PERSISTENT) else {
            return .NO
        }
        defer { MHD_destroy_response(response) }
        return MHD_queue_response(connection, 204, response)
    }

    /// Keeps the thread busy on the monotonic clock: CPU time a request costs, without touching
    /// memory that the caches would otherwise hold for libmicrohttpd and the kernel.
    private static func spin(nanoseconds: Int) {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        let end = Int(now.tv_sec) * 1_000_000_000 + Int(now.tv_nsec) + nanoseconds
        repeat {
            clock_gettime(CLOCK_MONOTONIC, &now)
        } while Int(now.tv_sec) * 1_000_000_000 + Int(now.tv_nsec) < end
    }
}
