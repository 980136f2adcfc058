import Foundation
import HTTPServer
import ProgressService
import Testing

/// The answers the HTTP layer gives of its own accord, which it hands to the service to render:
/// in the API's error format, so that every error body of the API comes from ``APIError``.
@Suite("The HTTP layer's refusals, rendered by the service")
struct ServiceRefusalTests {
    typealias Service = ServiceUnderTest

    /// A responder with no error format of its own, answered by the HTTP layer's default.
    private struct Bare: HTTPResponder {
        func respond(to request: HTTPRequest, reply: @escaping @Sendable (HTTPResponse) -> Void) {
            reply(HTTPResponse(status: 200))
        }

        func bodyTooLarge(_ request: HTTPRequest) -> HTTPResponse {
            HTTPResponse(status: 413)
        }
    }

    @Test(
        "a refused head is answered in the API's format, in the bytes the HTTP layer writes, and counted",
        arguments: [
            RequestRefusal(message: "Host must be sent once", field: "Host"),
            RequestRefusal(
                status: 501, code: "unsupported_transfer_coding",
                message:
                    "the transfer coding 'gzip' is not supported; send the body chunked or with a Content-Length",
                field: "Transfer-Encoding"),
            RequestRefusal(
                message:
                    "the request line must be a method, a target and a version separated by single spaces",
                field: nil),
        ])
    func refusedHead(_ refusal: RequestRefusal) throws {
        let service = try Service()
        let answer = Answer(
            response: service.service.refuse(
                HTTPRequest(method: "POST", path: "/v1/events"), because: refusal))
        #expect(answer.status == refusal.status)
        #expect(answer.header("Content-Type") == "application/json")
        #expect(answer.header("Cache-Control") == "no-store")
        #expect(answer.error.code == refusal.code)
        #expect(answer.error.field == refusal.field)
        #expect(try (answer.json()["error"] as? [String: Any])?["message"] as? String == refusal.message)
        #expect(answer.body == Bare().render(refusal).body, "\(answer.text)")
        let metrics = try service.get("/metrics")
        let line =
            #"reading_progress_http_requests_total{route="/v1/events",method="POST",status="\#(refusal.status)"} 1"#
        #expect(metrics.text.split(separator: "\n").contains(Substring(line)), "\(metrics.text)")
    }

    @Test("503 shutting_down and 500 internal_error, which the HTTP layer sends without asking, too")
    func answersWithoutAsking() throws {
        let service = try Service()
        for refusal in [RequestRefusal.shuttingDown, .notBuilt] {
            let answer = Answer(response: service.service.render(refusal))
            #expect(answer.status == refusal.status)
            #expect(answer.header("Content-Type") == "application/json")
            #expect(answer.error.code == refusal.code)
            #expect(answer.body == Bare().render(refusal).body, "\(answer.text)")
        }
    }

    @Test("a header field's name the client spelled with quotes and controls comes back as it was sent")
    func escaping() throws {
        let service = try Service()
        let field = "X\"\\\u{1}\u{1F}\t\u{7F}é"
        let answer = Answer(
            response: service.service.refuse(
                HTTPRequest(method: "GET", path: "/"),
                because: RequestRefusal(message: "a header field name must be a token", field: field)))
        #expect(answer.error.field == field, "\(answer.text)")
    }
}
