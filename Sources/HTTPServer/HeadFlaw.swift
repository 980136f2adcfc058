/// What makes a request's head ambiguous, as ``HeadCheck`` and ``HeadLayout`` find it: a plain
/// value, pointing into libmicrohttpd's copy of the head, so that finding none (every request)
/// costs no allocation and no reference counting. ``refusal`` makes the answer of it, which
/// must happen while the head is still there: before the access handler returns.
struct HeadFlaw {
    enum Kind {
        case requestLineSpacing
        case targetCharacters
        case leadingWhitespace
        case whitespaceBeforeColon
        case nameNotToken
        case emptyName
        case malformedLine
        case folded
        case nul
        case bareLF
        case bareCR
        case controlCharacter
        case hostInvalid
        case hostTwice
        case hostMissing
        case contentLengthTwice
        case lengthWithCoding
        case codingInHTTP10
        case codingList
        case chunkedNotFinal
        case chunkedTwice
        case unsupportedCoding
        case codingNotExact
    }

    let kind: Kind
    /// The field to blame as the client spelled it, for the kinds that blame the client's
    /// spelling; `nil` for the request line and the kinds whose field is always the same.
    var field: UnsafeRawBufferPointer?
    /// The transfer coding of ``Kind/unsupportedCoding``.
    var coding: UnsafeRawBufferPointer?

    init(_ kind: Kind, field: UnsafeRawBufferPointer? = nil, coding: UnsafeRawBufferPointer? = nil) {
        self.kind = kind
        self.field = field
        self.coding = coding
    }

    var refusal: RequestRefusal {
        let named = field.map(Self.spelling)
        switch kind {
        case .requestLineSpacing:
            return .invalid(
                "the request line must be a method, a target and a version separated by single spaces",
                field: nil)
        case .targetCharacters:
            return .invalid(
                "the request-target must not contain whitespace or control characters", field: nil)
        case .leadingWhitespace:
            return .invalid(
                "a header line must not start with whitespace (obsolete line folding)", field: named)
        case .whitespaceBeforeColon:
            return .invalid(
                "no whitespace is allowed between a header field name and its colon", field: named)
        case .nameNotToken: return .invalid("a header field name must be a token", field: named)
        case .emptyName: return .invalid("a header field name must not be empty", field: "")
        case .malformedLine: return .invalid("a header line is malformed", field: named)
        case .folded:
            return .invalid(
                "a header field must not be folded onto a continuation line (obs-fold)", field: named)
        case .nul: return .invalid("a header field must not contain a NUL byte", field: named)
        case .bareLF:
            return .invalid("every line of the head must end with CRLF, not a bare LF", field: named)
        case .bareCR: return .invalid("a header field value must not contain a bare CR", field: named)
        case .controlCharacter:
            return .invalid("a header field value must not contain control characters", field: named)
        case .hostInvalid:
            return .invalid("Host must be a host name or address, with an optional port", field: "Host")
        case .hostTwice: return .invalid("Host must be sent once", field: "Host")
        case .hostMissing:
            return .invalid("an HTTP/1.1 request must carry a Host header field", field: "Host")
        case .contentLengthTwice: return .invalid("Content-Length must be sent once", field: "Content-Length")
        case .lengthWithCoding:
            return .invalid("Content-Length must not be sent with Transfer-Encoding", field: "Content-Length")
        case .codingInHTTP10:
            return .invalid("Transfer-Encoding is not part of HTTP/1.0", field: "Transfer-Encoding")
        case .codingList:
            return .invalid(
                "Transfer-Encoding must be a list of transfer codings", field: "Transfer-Encoding")
        case .chunkedNotFinal:
            return .invalid("the final transfer coding must be chunked", field: "Transfer-Encoding")
        case .chunkedTwice: return .invalid("chunked must be applied only once", field: "Transfer-Encoding")
        case .unsupportedCoding:
            let coding = coding.map(Self.spelling) ?? ""
            return RequestRefusal(
                status: 501, code: "unsupported_transfer_coding",
                message:
                    "the transfer coding '\(coding)' is not supported; send the body chunked or with a Content-Length",
                field: "Transfer-Encoding")
        case .codingNotExact:
            return .invalid("Transfer-Encoding must be exactly 'chunked'", field: "Transfer-Encoding")
        }
    }

    /// A name as the client spelled it, without the whitespace that may be what is wrong with
    /// it, and cut short: it goes back to the client.
    static func spelling(_ name: UnsafeRawBufferPointer) -> String {
        var bytes = name[...]
        while let first = bytes.first, isWhitespace(first) { bytes = bytes.dropFirst() }
        while let last = bytes.last, isWhitespace(last) { bytes = bytes.dropLast() }
        return String(decoding: bytes.prefix(64), as: UTF8.self)
    }
}

/// SP or HTAB.
func isWhitespace(_ byte: UInt8) -> Bool {
    byte == 0x20 || byte == 0x09
}
