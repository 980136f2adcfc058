import Dispatch
import HTTPServer

/// A responder whose behaviour each test supplies as a closure.
struct TestResponder: HTTPResponder {
    let handler: @Sendable (HTTPRequest, @escaping @Sendable (HTTPResponse) -> Void) -> Void

    func respond(to request: HTTPRequest, reply: @escaping @Sendable (HTTPResponse) -> Void) {
        handler(request, reply)
    }

    func bodyTooLarge(_ request: HTTPRequest) -> HTTPResponse {
        HTTPResponse(status: 413, body: Array("too large: \(request.path) \(request.body.count)".utf8))
    }

    /// Answers at once with what arrived: the body echoed, the rest in headers.
    static let echo = TestResponder { request, reply in
        reply(echoResponse(request))
    }

    /// Answers from another thread after `delay` seconds.
    static func delayed(_ delay: Double) -> TestResponder {
        TestResponder { request, reply in
            DispatchQueue.global().asyncAfter(deadline: .now() + delay) {
                reply(echoResponse(request))
            }
        }
    }
}

func echoResponse(_ request: HTTPRequest) -> HTTPResponse {
    HTTPResponse(
        status: 200,
        headers: [
            (name: "X-Method", value: request.method),
            (name: "X-Path", value: request.path),
            (name: "X-Query", value: request.query ?? "<none>"),
            (name: "X-Remote", value: request.remoteAddress),
            (name: "X-Agent", value: request.header("user-agent") ?? "<none>"),
        ],
        body: request.body)
}

/// Runs `body` against a server started on a free port, and stops the server afterwards.
func withServer(
    _ responder: TestResponder, threads: Int = 2, maxBodyBytes: Int = 1_048_576,
    timeoutSeconds: UInt32 = 30, _ body: (HTTPServer, UInt16) throws -> Void
) throws {
    let configuration = HTTPServerConfiguration(
        port: 0, threads: threads, maxBodyBytes: maxBodyBytes,
        connectionTimeoutSeconds: timeoutSeconds)
    let server = HTTPServer(configuration: configuration, responder: responder)
    let port = try server.start()
    defer { server.stop() }
    try body(server, port)
}
