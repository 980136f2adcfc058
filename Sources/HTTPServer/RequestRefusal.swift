/// An answer the server gives of its own accord, without its responder's
/// ``HTTPResponder/respond(to:reply:)``: to a request whose head it will not frame, one that
/// another HTTP implementation (a proxy in front) could read differently (see docs/proxies.md);
/// to a request the responder did not answer before the server stopped; and instead of a
/// response libmicrohttpd would not build.
///
/// A value, not a response: the responder renders it in its own error format
/// (``HTTPResponder/render(_:)``), so that the server's answers read as the responder's do. The
/// connection is closed after each.
public struct RequestRefusal: Sendable, Equatable {
    /// 400, 501 for a transfer coding the server does not implement, 503 while it stops, 500
    /// for an answer it could not build.
    public var status: Int
    /// `invalid_request`, `unsupported_transfer_coding`, `shutting_down` or `internal_error`.
    public var code: String
    /// A sentence for the developer who sent the request.
    public var message: String
    /// The header field to blame, as the client spelled it; `nil` for the request line.
    public var field: String?

    package init(status: Int = 400, code: String = "invalid_request", message: String, field: String? = nil) {
        self.status = status
        self.code = code
        self.message = message
        self.field = field
    }

    static func invalid(_ message: String, field: String?) -> RequestRefusal {
        RequestRefusal(message: message, field: field)
    }

    /// The answer to a request still unanswered when the server has waited long enough to stop.
    package static let shuttingDown = RequestRefusal(
        status: 503, code: "shutting_down", message: "the server is stopping and could not answer in time")

    /// The answer instead of one libmicrohttpd refuses to build (a header field it will not
    /// send, such as a value with a line break): sent without the field, it would look right.
    package static let notBuilt = RequestRefusal(
        status: 500, code: "internal_error", message: "the server could not build its answer")
}

extension HTTPResponder {
    /// Answers with ``render(_:)``.
    public func refuse(_ request: HTTPRequest, because refusal: RequestRefusal) -> HTTPResponse {
        render(refusal)
    }

    /// The error format of docs/api.md ("Errors"), `{"error":{"code":…,"message":…,"field":…}}`,
    /// for a responder without one of its own (the benchmark's, the tests').
    public func render(_ refusal: RequestRefusal) -> HTTPResponse {
        var body = #"{"error":{"code":"#
        appendJSONString(refusal.code, to: &body)
        body += #","message":"#
        appendJSONString(refusal.message, to: &body)
        if let field = refusal.field {
            body += #","field":"#
            appendJSONString(field, to: &body)
        }
        body += "}}"
        return HTTPResponse(
            status: refusal.status,
            headers: [
                (name: "Content-Type", value: "application/json"),
                (name: "Cache-Control", value: "no-store"),
            ],
            body: Array(body.utf8))
    }
}

/// `text` as a JSON string literal; field names come from the client, so anything is escaped
/// that JSON or a terminal could misread.
private func appendJSONString(_ text: String, to json: inout String) {
    json += "\""
    for scalar in text.unicodeScalars {
        switch scalar {
        case "\"": json += "\\\""
        case "\\": json += "\\\\"
        case "\u{0}"..."\u{1F}", "\u{7F}":
            let hex = String(scalar.value, radix: 16, uppercase: true)
            json += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
        default: json.unicodeScalars.append(scalar)
        }
    }
    json += "\""
}
