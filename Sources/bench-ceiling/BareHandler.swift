import CMicroHTTPD

/// The whole application of the bare server: read and drop the body, answer 204.
///
/// Kept out of `main.swift`, whose top-level code is main-actor isolated, because
/// libmicrohttpd calls it on its own threads.
enum BareHandler {
    static let access: MHD_AccessHandlerCallback = {
        _, connection, _, _, _, _, uploadSize, context in
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
        guard let response = MHD_create_response_from_buffer(0, nil, .RESPMEM_PERSISTENT) else {
            return .NO
        }
        defer { MHD_destroy_response(response) }
        return MHD_queue_response(connection, 204, response)
    }
}
