/// The rules of RFC 9112 §6.3 and RFC 9110 §5.5, §7.2 and §8.6 on the header fields that frame a
/// request or name its host, checked once per request, field by field as libmicrohttpd hands
/// them over: wherever two HTTP implementations could read a request's framing differently,
/// the request is refused (docs/proxies.md).
///
/// libmicrohttpd 0.9.75 enforces none of this by default. `MHD_OPTION_STRICT_FOR_CLIENT` only
/// makes it refuse an HTTP/1.1 request without `Host` (at 1, with an HTML answer whose header
/// block it sends twice), a space in the request-target (at 1, closing the connection without
/// an answer) or whitespace before a colon (at -1, in HTML). It stays at 0, and these checks
/// answer all three, and the rest, in the API's JSON.
struct HeadCheck {
    /// The first rule broken, once one is.
    private(set) var refusal: RequestRefusal?
    private var contentLengths = 0
    private var hosts = 0
    private var codings = TransferCodings()

    /// Checks one header field; `name` and `value` are as libmicrohttpd split the line (leading
    /// whitespace of the value dropped, trailing kept).
    mutating func inspect(name: UnsafeRawBufferPointer, value: UnsafeRawBufferPointer) {
        guard refusal == nil else { return }
        if let problem = Self.nameProblem(name) {
            refusal = .invalid(problem, field: Self.spelling(name))
            return
        }
        if let problem = Self.valueProblem(value) {
            refusal = .invalid(problem, field: Self.spelling(name))
            return
        }
        if equalsIgnoringASCIICase(name, "content-length") {
            contentLengths += 1
        } else if equalsIgnoringASCIICase(name, "transfer-encoding") {
            codings.add(value)
        } else if equalsIgnoringASCIICase(name, "host") {
            hosts += 1
            if !Self.isValidHost(value) {
                refusal = .invalid(
                    "Host must be a host name or address, with an optional port", field: "Host")
            }
        }
    }

    /// Checks what only the whole header block tells; returns the first rule broken, if any.
    mutating func finish(isHTTP10: Bool) -> RequestRefusal? {
        if let refusal { return refusal }
        refusal = codings.refusal(isHTTP10: isHTTP10, withContentLength: contentLengths > 0)
        if refusal == nil, contentLengths > 1 {
            refusal = .invalid("Content-Length must be sent once", field: "Content-Length")
        } else if refusal == nil, hosts > 1 {
            refusal = .invalid("Host must be sent once", field: "Host")
        } else if refusal == nil, hosts == 0, !isHTTP10 {
            refusal = .invalid("an HTTP/1.1 request must carry a Host header field", field: "Host")
        }
        return refusal
    }

    /// The name as the client spelled it, without the whitespace that may be what is wrong with
    /// it, and cut short: it goes back to the client.
    static func spelling(_ name: UnsafeRawBufferPointer) -> String {
        var bytes = name[...]
        while let first = bytes.first, isWhitespace(first) { bytes = bytes.dropFirst() }
        while let last = bytes.last, isWhitespace(last) { bytes = bytes.dropLast() }
        return String(decoding: bytes.prefix(64), as: UTF8.self)
    }

    private static func nameProblem(_ name: UnsafeRawBufferPointer) -> String? {
        if let first = name.first, isWhitespace(first) {
            return "a header line must not start with whitespace (obsolete line folding)"
        }
        if let last = name.last, isWhitespace(last) {
            return "no whitespace is allowed between a header field name and its colon"
        }
        guard !name.isEmpty, name.allSatisfy(isTokenByte) else {
            return "a header field name must be a token"
        }
        return nil
    }

    private static func valueProblem(_ value: UnsafeRawBufferPointer) -> String? {
        for byte in value where byte < 0x20 && byte != 0x09 || byte == 0x7F {
            return byte == 0x0D
                ? "a header field value must not contain a bare CR"
                : "a header field value must not contain control characters"
        }
        return nil
    }

    /// `uri-host [ ":" port ]` (RFC 9110 §7.2), a comma excepted: a proxy could take the value
    /// for a list of hosts.
    private static func isValidHost(_ value: UnsafeRawBufferPointer) -> Bool {
        var bytes = value[...]
        while let last = bytes.last, isWhitespace(last) { bytes = bytes.dropLast() }
        if bytes.first == UInt8(ascii: "[") {
            guard let close = bytes.firstIndex(of: UInt8(ascii: "]")) else { return false }
            let literal = bytes[bytes.startIndex + 1..<close]
            guard !literal.isEmpty, literal.allSatisfy({ isHostByte($0) || $0 == UInt8(ascii: ":") })
            else { return false }
            bytes = bytes[(close + 1)...]
        } else {
            let name = bytes.prefix { $0 != UInt8(ascii: ":") }
            guard name.allSatisfy(isHostByte) else { return false }
            bytes = bytes[name.endIndex...]
        }
        guard let colon = bytes.first else { return true }
        return colon == UInt8(ascii: ":")
            && bytes.dropFirst().allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
    }
}

/// The transfer codings of every `Transfer-Encoding` field, in order (RFC 9112 §6.1).
private struct TransferCodings {
    private var fields = 0
    private var chunked = 0
    private var lastIsChunked = false
    private var malformed = false
    private var unknown: String?
    /// Whether the first field is exactly `chunked`: the only value libmicrohttpd frames as
    /// chunked (it reads any other until the connection closes).
    private var firstIsExactlyChunked = false

    mutating func add(_ value: UnsafeRawBufferPointer) {
        fields += 1
        if fields == 1 { firstIsExactlyChunked = equalsIgnoringASCIICase(value, "chunked") }
        for element in value.split(separator: UInt8(ascii: ","), omittingEmptySubsequences: false) {
            let coding = trimmed(element.prefix { $0 != UInt8(ascii: ";") })
            guard !coding.isEmpty, coding.allSatisfy(isTokenByte) else {
                malformed = true
                continue
            }
            lastIsChunked = equalsIgnoringASCIICase(UnsafeRawBufferPointer(rebasing: coding), "chunked")
            if lastIsChunked {
                chunked += 1
                // chunked takes no parameters.
                if coding.count != trimmed(element).count { malformed = true }
            } else if unknown == nil {
                unknown = String(decoding: coding.prefix(64), as: UTF8.self)
            }
        }
    }

    func refusal(isHTTP10: Bool, withContentLength: Bool) -> RequestRefusal? {
        guard fields > 0 else { return nil }
        let field = "Transfer-Encoding"
        if isHTTP10 {
            return .invalid("Transfer-Encoding is not part of HTTP/1.0", field: field)
        }
        if withContentLength {
            return .invalid(
                "Content-Length must not be sent with Transfer-Encoding", field: "Content-Length")
        }
        if malformed { return .invalid("Transfer-Encoding must be a list of transfer codings", field: field) }
        if !lastIsChunked { return .invalid("the final transfer coding must be chunked", field: field) }
        if chunked > 1 { return .invalid("chunked must be applied only once", field: field) }
        if let unknown {
            return RequestRefusal(
                status: 501, code: "unsupported_transfer_coding",
                message:
                    "the transfer coding '\(unknown)' is not supported; send the body chunked or with a Content-Length",
                field: field)
        }
        if !firstIsExactlyChunked {
            return .invalid("Transfer-Encoding must be exactly 'chunked'", field: field)
        }
        return nil
    }
}

private func trimmed(_ bytes: Slice<UnsafeRawBufferPointer>) -> Slice<UnsafeRawBufferPointer> {
    var bytes = bytes
    while let first = bytes.first, isWhitespace(first) { bytes = bytes.dropFirst() }
    while let last = bytes.last, isWhitespace(last) { bytes = bytes.dropLast() }
    return bytes
}

private func isWhitespace(_ byte: UInt8) -> Bool {
    byte == 0x20 || byte == 0x09
}

/// `tchar` of RFC 9110 §5.6.2: letters, digits and ``!#$%&'*+-.^_`|~``.
func isTokenByte(_ byte: UInt8) -> Bool {
    inSet(byte, low: 0x03ff_6cfa_0000_0000, high: 0x57ff_ffff_c7ff_fffe)
}

/// A byte of a `reg-name` or IPv4 address (RFC 3986): unreserved, sub-delims but ',', and `%`.
private func isHostByte(_ byte: UInt8) -> Bool {
    inSet(byte, low: 0x2bff_6ff2_0000_0000, high: 0x47ff_fffe_87ff_fffe)
}

/// Whether `byte` is in the ASCII set whose bits 0–63 are `low` and 64–127 `high`.
private func inSet(_ byte: UInt8, low: UInt64, high: UInt64) -> Bool {
    byte < 64 ? (low >> byte) & 1 == 1 : byte < 128 && (high >> (byte - 64)) & 1 == 1
}

/// Whether `bytes` spell `lowercase` (ASCII letters, digits and `-`) in any case.
func equalsIgnoringASCIICase(_ bytes: UnsafeRawBufferPointer, _ lowercase: StaticString) -> Bool {
    guard bytes.count == lowercase.utf8CodeUnitCount else { return false }
    let expected = lowercase.utf8Start
    for index in 0..<bytes.count {
        let byte = bytes[index]
        let folded = byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte
        if folded != expected[index] { return false }
    }
    return true
}
