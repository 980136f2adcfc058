import CMicroHTTPD

/// The C entry points libmicrohttpd calls. They are non-capturing closures (C function
/// pointers) that find their Swift objects through the `cls` and `*con_cls` pointers.
enum MHDCallbacks {
    /// `MHD_OPTION_URI_LOG_CALLBACK`: sees the request-target before libmicrohttpd unescapes
    /// it, and returns the request's context (retained until `completed`).
    static let uriLog: cmhd_uri_log_callback = { serverPointer, uri, connection in
        guard let serverPointer, let connection else { return nil }
        let server = Unmanaged<ServerCore>.fromOpaque(serverPointer).takeUnretainedValue()
        let context = RequestContext(connection: connection, server: server, target: uri)
        return Unmanaged.passRetained(context).toOpaque()
    }

    /// `MHD_AccessHandlerCallback`.
    static let access: MHD_AccessHandlerCallback = {
        serverPointer, _, _, method, version, uploadData, uploadSize, contextPointer in
        guard let serverPointer, let method, let uploadSize, let pointer = contextPointer?.pointee
        else { return .NO }
        let server = Unmanaged<ServerCore>.fromOpaque(serverPointer).takeUnretainedValue()
        let context = Unmanaged<RequestContext>.fromOpaque(pointer).takeUnretainedValue()
        return server.handle(
            context, method: method, version: version, uploadData: uploadData, uploadSize: uploadSize)
    }

    /// `MHD_OPTION_NOTIFY_COMPLETED`: the request is over (answered, failed or aborted).
    static let completed: MHD_RequestCompletedCallback = {
        serverPointer, _, contextPointer, _ in
        guard let serverPointer, let pointer = contextPointer?.pointee else { return }
        contextPointer?.pointee = nil
        let server = Unmanaged<ServerCore>.fromOpaque(serverPointer).takeUnretainedValue()
        let context = Unmanaged<RequestContext>.fromOpaque(pointer).takeRetainedValue()
        server.complete(context)
    }
}
