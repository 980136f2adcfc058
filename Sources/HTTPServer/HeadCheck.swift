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
///
/// Every request goes through here: the loops are plain byte loops, and the state is plain
/// values.
struct HeadCheck {
    /// The first rule broken, once one is.
    private(set) var flaw: HeadFlaw?
    private var contentLengths = 0
    private var hosts = 0
    private var codings = TransferCodings()

    /// Checks one header field; `name` and `value` are as libmicrohttpd split the line (leading
    /// whitespace of the value dropped, trailing kept).
    @inline(__always)
    mutating func inspect(name: UnsafeRawBufferPointer, value: UnsafeRawBufferPointer) {
        guard flaw == nil else { return }
        if let kind = Self.nameFlaw(name) ?? Self.valueFlaw(value) {
            flaw = HeadFlaw(kind, field: name)
            return
        }
        switch name.count {
        case 4 where equalsIgnoringASCIICase(name, "host"):
            hosts += 1
            if !Self.isValidHost(value) { flaw = HeadFlaw(.hostInvalid) }
        case 14 where equalsIgnoringASCIICase(name, "content-length"):
            contentLengths += 1
        case 17 where equalsIgnoringASCIICase(name, "transfer-encoding"):
            codings.add(value)
        default:
            break
        }
    }

    /// Checks what only the whole header block tells; returns the first rule broken, if any.
    mutating func finish(isHTTP10: Bool) -> HeadFlaw? {
        if flaw == nil { flaw = codings.flaw(isHTTP10: isHTTP10, withContentLength: contentLengths > 0) }
        if flaw == nil {
            if contentLengths > 1 {
                flaw = HeadFlaw(.contentLengthTwice)
            } else if hosts > 1 {
                flaw = HeadFlaw(.hostTwice)
            } else if hosts == 0 && !isHTTP10 {
                flaw = HeadFlaw(.hostMissing)
            }
        }
        return flaw
    }

    private static func nameFlaw(_ name: UnsafeRawBufferPointer) -> HeadFlaw.Kind? {
        let tokens = byteClasses.withUnsafeBufferPointer { classes in
            var all = ByteClass.token
            for byte in name { all &= classes[Int(byte)] }
            return all != 0
        }
        if tokens && !name.isEmpty { return nil }
        if name.isEmpty { return .emptyName }
        if let first = name.first, isWhitespace(first) { return .leadingWhitespace }
        if let last = name.last, isWhitespace(last) { return .whitespaceBeforeColon }
        return .nameNotToken
    }

    private static func valueFlaw(_ value: UnsafeRawBufferPointer) -> HeadFlaw.Kind? {
        // Eight bytes at a time: whether any is below 0x20 or is 0x7F (a tab, rare, is then
        // told apart below).
        var offset = 0
        if let base = value.baseAddress {
            while offset + 8 <= value.count {
                let word = base.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
                let ones: UInt64 = 0x0101_0101_0101_0101
                let high = ones &* 0x80
                let below0x20 = (word &- ones &* 0x20) & ~word & high
                let deleted = word ^ (ones &* 0x7F)
                if below0x20 | ((deleted &- ones) & ~deleted & high) != 0 { break }
                offset += 8
            }
        }
        for byte in value[offset...] where byte < 0x20 && byte != 0x09 || byte == 0x7F {
            return byte == 0x0D ? .bareCR : .controlCharacter
        }
        return nil
    }

    /// `uri-host [ ":" port ]` (RFC 9110 §7.2), a comma excepted: a proxy could take the value
    /// for a list of hosts.
    private static func isValidHost(_ value: UnsafeRawBufferPointer) -> Bool {
        byteClasses.withUnsafeBufferPointer { isValidHost(value, classes: $0) }
    }

    private static func isValidHost(_ value: UnsafeRawBufferPointer, classes: UnsafeBufferPointer<UInt8>)
        -> Bool
    {
        func isHostByte(_ byte: UInt8) -> Bool { classes[Int(byte)] & ByteClass.host != 0 }
        var end = value.count
        while end > 0 && isWhitespace(value[end - 1]) { end -= 1 }
        var index = 0
        if end > 0 && value[0] == UInt8(ascii: "[") {
            index = 1
            while index < end && value[index] != UInt8(ascii: "]") {
                guard isHostByte(value[index]) || value[index] == UInt8(ascii: ":") else { return false }
                index += 1
            }
            guard index < end && index > 1 else { return false }
            index += 1
        } else {
            while index < end && value[index] != UInt8(ascii: ":") {
                guard isHostByte(value[index]) else { return false }
                index += 1
            }
        }
        guard index < end else { return true }
        guard value[index] == UInt8(ascii: ":") else { return false }
        index += 1
        while index < end {
            guard value[index] >= UInt8(ascii: "0") && value[index] <= UInt8(ascii: "9") else { return false }
            index += 1
        }
        return true
    }
}

/// The transfer codings of every `Transfer-Encoding` field, in order (RFC 9112 §6.1).
private struct TransferCodings {
    private var fields = 0
    private var chunked = 0
    private var lastIsChunked = false
    private var malformed = false
    private var unknown: UnsafeRawBufferPointer?
    /// Whether the first field is exactly `chunked`: the only value libmicrohttpd frames as
    /// chunked (it reads any other until the connection closes).
    private var firstIsExactlyChunked = false

    mutating func add(_ value: UnsafeRawBufferPointer) {
        fields += 1
        if fields == 1 { firstIsExactlyChunked = equalsIgnoringASCIICase(value, "chunked") }
        for element in value.split(separator: UInt8(ascii: ","), omittingEmptySubsequences: false) {
            let coding = trimmed(element.prefix { $0 != UInt8(ascii: ";") })
            guard !coding.isEmpty, coding.allSatisfy({ byteClasses[Int($0)] & ByteClass.token != 0 }) else {
                malformed = true
                continue
            }
            lastIsChunked = equalsIgnoringASCIICase(UnsafeRawBufferPointer(rebasing: coding), "chunked")
            if lastIsChunked {
                chunked += 1
                // chunked takes no parameters.
                if coding.count != trimmed(element).count { malformed = true }
            } else if unknown == nil {
                unknown = UnsafeRawBufferPointer(rebasing: coding)
            }
        }
    }

    func flaw(isHTTP10: Bool, withContentLength: Bool) -> HeadFlaw? {
        guard fields > 0 else { return nil }
        if isHTTP10 { return HeadFlaw(.codingInHTTP10) }
        if withContentLength { return HeadFlaw(.lengthWithCoding) }
        if malformed { return HeadFlaw(.codingList) }
        if !lastIsChunked { return HeadFlaw(.chunkedNotFinal) }
        if chunked > 1 { return HeadFlaw(.chunkedTwice) }
        if let unknown { return HeadFlaw(.unsupportedCoding, coding: unknown) }
        if !firstIsExactlyChunked { return HeadFlaw(.codingNotExact) }
        return nil
    }
}

private func trimmed(_ bytes: Slice<UnsafeRawBufferPointer>) -> Slice<UnsafeRawBufferPointer> {
    var bytes = bytes
    while let first = bytes.first, isWhitespace(first) { bytes = bytes.dropFirst() }
    while let last = bytes.last, isWhitespace(last) { bytes = bytes.dropLast() }
    return bytes
}

/// What ``byteClasses`` says of a byte.
private enum ByteClass {
    /// A `tchar` of RFC 9110 §5.6.2: letters, digits and ``!#$%&'*+-.^_`|~``.
    static let token: UInt8 = 1
    /// A byte of a `reg-name` or IPv4 address (RFC 3986): unreserved, sub-delims but ',', `%`.
    static let host: UInt8 = 2
}

/// ``ByteClass`` bits for every byte value: one load a byte where sets of ranges would take a
/// few comparisons.
private let byteClasses: [UInt8] = (0...255).map { value in
    let byte = UInt8(value)
    let alphanumeric =
        (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
    let token = alphanumeric || "!#$%&'*+-.^_`|~".utf8.contains(byte)
    let host = alphanumeric || "-._~%!$&'()*+;=".utf8.contains(byte)
    return (token ? ByteClass.token : 0) | (host ? ByteClass.host : 0)
}

/// Whether `bytes` spell `lowercase` (letters, digits and `-`) in any case: setting bit 5 folds
/// exactly the capitals onto letters, and among token bytes nothing else onto `-` or a digit.
@inline(__always)
private func equalsIgnoringASCIICase(_ bytes: UnsafeRawBufferPointer, _ lowercase: StaticString) -> Bool {
    guard bytes.count == lowercase.utf8CodeUnitCount, let base = bytes.baseAddress else { return false }
    let expected = UnsafeRawPointer(lowercase.utf8Start)
    var offset = 0
    while offset + 8 <= bytes.count {
        let word = base.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
        guard word | 0x2020_2020_2020_2020 == expected.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
        else { return false }
        offset += 8
    }
    while offset < bytes.count {
        guard bytes[offset] | 0x20 == expected.load(fromByteOffset: offset, as: UInt8.self) else {
            return false
        }
        offset += 1
    }
    return true
}
