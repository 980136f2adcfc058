/// Turns requests into responses; the one thing the server asks of the layer above it.
public protocol HTTPResponder: Sendable {
    /// Answers a request.
    ///
    /// Called on a libmicrohttpd thread once the whole request (headers and body) has arrived.
    /// It must not block: do slow work elsewhere and reply later. Call `reply` exactly once,
    /// from any thread, either before returning or at any time afterwards; the connection
    /// waits without holding a server thread. Calls after the first are ignored.
    func respond(to request: HTTPRequest, reply: @escaping @Sendable (HTTPResponse) -> Void)

    /// The answer for a request whose body is over ``HTTPServerConfiguration/maxBodyBytes``.
    ///
    /// `request` carries the method, path, query and headers, with an empty body. With a
    /// `Content-Length` over the limit this is answered before the body is read (a client that
    /// sent `Expect: 100-continue` never sends it); the connection is closed afterwards.
    func bodyTooLarge(_ request: HTTPRequest) -> HTTPResponse

    /// The answer for a request whose head the server refuses to frame (see ``RequestRefusal``).
    ///
    /// `request` carries what could be read of the method, path, query and headers, with an
    /// empty body; the connection is closed afterwards. The default answers ``render(_:)``.
    func refuse(_ request: HTTPRequest, because refusal: RequestRefusal) -> HTTPResponse

    /// An answer of the server's own in the responder's error format: the refusals of
    /// ``refuse(_:because:)``, and those the server gives without asking
    /// (``RequestRefusal/shuttingDown``, ``RequestRefusal/notBuilt``), rendered once when the
    /// server is made, with no request at hand to count. The default writes the format of
    /// docs/api.md ("Errors").
    func render(_ refusal: RequestRefusal) -> HTTPResponse
}
