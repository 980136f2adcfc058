/// Why the server refuses a request whose head it will not frame: one that another HTTP
/// implementation (a proxy in front) could read differently (see docs/proxies.md).
///
/// Found once the header block is complete, before the body is read; the request never reaches
/// ``HTTPResponder/respond(to:reply:)``, and the connection is closed after the answer.
public struct RequestRefusal: Sendable, Equatable {
    /// 400, or 501 for a transfer coding the server does not implement.
    public var status: Int
    /// `invalid_request`, or `unsupported_transfer_coding` with 501.
    public var code: String
    /// A sentence for the developer who sent the request.
    public var message: String
    /// The header field to blame, as the client spelled it; `nil` for the request line.
    public var field: String?

    init(status: Int = 400, code: String = "invalid_request", message: String, field: String?) {
        self.status = status
        self.code = code
        self.message = message
        self.field = field
    }

    static func invalid(_ message: String, field: String?) -> RequestRefusal {
        RequestRefusal(message: message, field: field)
    }

    /// The answer in the API's error format, `{"error":{"code":…,"message":…,"field":…}}`.
    public var response: HTTPResponse {
        errorResponse(status: status, code: code, message: message, field: field)
    }
}

/// An answer of the server's own in the API's error format (docs/api.md, "Errors").
func errorResponse(status: Int, code: String, message: String, field: String? = nil) -> HTTPResponse {
    var body = #"{"error":{"code":"#
    appendJSONString(code, to: &body)
    body += #","message":"#
    appendJSONString(message, to: &body)
    if let field {
        body += #","field":"#
        appendJSONString(field, to: &body)
    }
    body += "}}"
    return HTTPResponse(
        status: status,
        headers: [
            (name: "Content-Type", value: "application/json"),
            (name: "Cache-Control", value: "no-store"),
        ],
        body: Array(body.utf8))
}

extension HTTPResponder {
    /// Answers with ``RequestRefusal/response``.
    public func refuse(_ request: HTTPRequest, because refusal: RequestRefusal) -> HTTPResponse {
        refusal.response
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
