import HTTPServer

/// An error answer (docs/api.md, "Errors"): `{"error":{"code":…,"message":…,"field":…}}`.
///
/// A value that renders its own response, so every rejection anywhere in the service looks the
/// same to a client.
public struct APIError: Error, Sendable, Equatable {
    public var status: Int
    public var code: String
    public var message: String
    /// The JSON path of the field to blame, when one is.
    public var field: String?
    /// Extra headers (`Allow` on 405, `WWW-Authenticate` on 401, `Retry-After` on 429).
    public var headers: [Header] = []
    /// A batch's per-event errors, spliced in as `"rejected"` beside `"error"`.
    var rejected: [UInt8]? = nil

    public struct Header: Sendable, Equatable {
        public var name: String
        public var value: String
    }

    public init(status: Int, code: String, message: String, field: String? = nil, headers: [Header] = []) {
        self.status = status
        self.code = code
        self.message = message
        self.field = field
        self.headers = headers
    }

    /// An answer the HTTP layer gives of its own accord (a request it will not frame, one left
    /// unanswered as it stops, one it could not build), in the format of every other; its field
    /// is a header field's name.
    init(_ refusal: RequestRefusal) {
        self.init(status: refusal.status, code: refusal.code, message: refusal.message, field: refusal.field)
    }

    static func invalidJSON(_ error: JSONSyntaxError) -> APIError {
        APIError(status: 400, code: "invalid_json", message: "body is not valid JSON: \(error.description)")
    }

    static func invalidEvent(_ message: String, field: String?) -> APIError {
        APIError(status: 400, code: "invalid_event", message: message, field: field)
    }

    static func invalidQuery(_ message: String, field: String) -> APIError {
        APIError(status: 400, code: "invalid_query", message: message, field: field)
    }

    static func notFound(_ path: String) -> APIError {
        APIError(status: 404, code: "not_found", message: "no route for \(path)")
    }

    static func unknownArticle(_ article: String) -> APIError {
        APIError(status: 404, code: "unknown_article", message: "no event was ever received for this article")
    }

    static func methodNotAllowed(_ allowed: [String]) -> APIError {
        APIError(
            status: 405, code: "method_not_allowed",
            message: "this route answers \(allowed.joined(separator: ", "))",
            headers: [Header(name: "Allow", value: allowed.joined(separator: ", "))])
    }

    static let unauthorized = APIError(
        status: 401, code: "unauthorized", message: "this route needs 'Authorization: Bearer TOKEN'",
        headers: [Header(name: "WWW-Authenticate", value: "Bearer realm=\"reading-progress\"")])

    static let forbidden = APIError(
        status: 403, code: "forbidden",
        message: "erasing needs a service run with --api-token, and that token")

    static func bodyTooLarge(limit: Int) -> APIError {
        APIError(
            status: 413, code: "body_too_large", message: "request body is over the limit of \(limit) bytes")
    }

    static func batchTooLarge(count: Int) -> APIError {
        APIError(
            status: 413, code: "batch_too_large",
            message: "a batch holds at most \(EventBatch.maximumCount) events; this one has \(count)")
    }

    static func unsupportedMediaType(_ type: String?) -> APIError {
        APIError(
            status: 415, code: "unsupported_media_type",
            message:
                "Content-Type must be application/json, text/plain or application/x-ndjson (utf-8); got \(type.map { "'\($0)'" } ?? "none")"
        )
    }

    static func rateLimited(limit: Int, retryAfterSeconds: Int) -> APIError {
        APIError(
            status: 429, code: "rate_limited",
            message:
                "more than \(limit) requests a second from this client; retry in \(retryAfterSeconds) s",
            headers: [Header(name: "Retry-After", value: String(retryAfterSeconds))])
    }

    /// An ingest request from a web origin the allowlist does not hold: browsers send beacons
    /// whatever CORS says, so the service refuses them itself.
    static func originNotAllowed(_ origin: String) -> APIError {
        APIError(
            status: 403, code: "origin_not_allowed",
            message: "events from the origin \(origin) are not accepted (--allowed-origins)", field: nil)
    }

    static func storeUnavailable(_ detail: String) -> APIError {
        APIError(status: 503, code: "store_unavailable", message: "the store cannot be written: \(detail)")
    }

    /// The JSON body of this error.
    var body: [UInt8] {
        var writer = JSONWriter()
        writeObject(into: &writer)
        return writer.bytes
    }

    /// Writes `{"error":{…}}` at the writer's position.
    func writeObject(into writer: inout JSONWriter) {
        writer.beginObject()
        writer.key("error")
        writeDetail(into: &writer)
        if let rejected {
            writer.key("accepted")
            writer.integer(0)
            writer.key("rejected")
            writer.raw(rejected)
        }
        writer.endObject()
    }

    /// Writes the inner `{"code":…,"message":…,"field":…}`.
    func writeDetail(into writer: inout JSONWriter) {
        writer.beginObject()
        writer.key("code")
        writer.string(code)
        writer.key("message")
        writer.string(message)
        if let field {
            writer.key("field")
            writer.string(field)
        }
        writer.endObject()
    }
}
