import HTTPServer

/// The service's HTTP layer with nothing behind it: every request, read in full through
/// ``HTTPServer`` as the service reads it, gets the service's answer to one event — 202, the
/// same header fields, a JSON body of the same size, a response built for each request — without
/// decoding, storing or logging anything. Against the bare ceiling it shows what the layer costs
/// before the service does any work of its own.
///
/// Kept out of `main.swift`, whose top-level code is main-actor isolated, because
/// libmicrohttpd calls it on its own threads.
struct FixedResponder: HTTPResponder {
    func respond(to request: HTTPRequest, reply: @escaping @Sendable (HTTPResponse) -> Void) {
        reply(
            HTTPResponse(
                status: 202,
                headers: [
                    ("Content-Type", "application/json"), ("Cache-Control", "no-store"), ("Vary", "Origin"),
                ],
                body: BareHandler.serviceBody))
    }

    func bodyTooLarge(_ request: HTTPRequest) -> HTTPResponse {
        HTTPResponse(status: 413, headers: [("Connection", "close")])
    }
}
