import CMicroHTTPD

#if canImport(Glibc)
    import Glibc
#endif

/// The whole application of the bare server: read and drop the body, answer — after spinning
/// for the nanoseconds its configuration gives, if any.
///
/// Kept out of `main.swift`, whose top-level code is main-actor isolated, because
/// libmicrohttpd calls it on its own threads.
enum BareHandler {
    /// What every answer is; the daemon's handler argument points at one, which lives as long
    /// as the process.
    struct Configuration {
        /// Nanoseconds of busy work before each answer.
        var busyNanoseconds = 0
        /// Answer as the service answers an event — 202, a JSON body of the same size, the same
        /// three header fields, the response built for each request — instead of a bare 204.
        var answersLikeService = false
    }

    /// The size and shape of the service's answer to one event.
    static let serviceBody = Array(
        (#"{"accepted":1,"progress":0.4313725490196078,"percent":"43%","seenDepth":0.6192263056092843,"#
            + #""scrollable":true}"#).utf8)

    static let access: MHD_AccessHandlerCallback = {
        configurationPointer, connection, _, _, _, _, uploadSize, context in
        guard let configurationPointer, let connection, let uploadSize, let context else { return .NO }
        if context.pointee == nil {
            // Any non-null `*con_cls` marks that the header call has been seen.
            context.pointee = UnsafeMutableRawPointer(bitPattern: 1)
            return .YES
        }
        if uploadSize.pointee > 0 {
            uploadSize.pointee = 0
            return .YES
        }
        let configuration = configurationPointer.assumingMemoryBound(to: Configuration.self).pointee
        if configuration.busyNanoseconds > 0 { spin(nanoseconds: configuration.busyNanoseconds) }
        guard configuration.answersLikeService else {
            guard let response = MHD_create_response_from_buffer(0, nil, .RESPMEM_PERSISTENT) else {
                return .NO
            }
            defer { MHD_destroy_response(response) }
            return MHD_queue_response(connection, 204, response)
        }
        let created = serviceBody.withUnsafeBytes { body in
            MHD_create_response_from_buffer(
                body.count, UnsafeMutableRawPointer(mutating: body.baseAddress), .RESPMEM_MUST_COPY)
        }
        guard let response = created else { return .NO }
        defer { MHD_destroy_response(response) }
        _ = MHD_add_response_header(response, "Content-Type", "application/json")
        _ = MHD_add_response_header(response, "Cache-Control", "no-store")
        _ = MHD_add_response_header(response, "Vary", "Origin")
        return MHD_queue_response(connection, 202, response)
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
