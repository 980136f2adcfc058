extension JSONParser {
    /// Parses a string starting at its opening quote. Rejects raw control characters, unknown
    /// escapes, lone surrogates and invalid UTF-8 instead of replacing them.
    mutating func parseString() throws(JSONSyntaxError) -> String {
        let start = index
        index += 1
        var segmentStart = index
        var decoded: [UInt8] = []
        var sawEscape = false
        var sawNonASCII = false
        while true {
            guard let byte = current else { throw JSONSyntaxError("unterminated string", at: start) }
            switch byte {
            case UInt8(ascii: "\""):
                let tail = UnsafeBufferPointer(rebasing: bytes[segmentStart..<index])
                index += 1
                if !sawEscape {
                    return try makeString(tail, checkUTF8: sawNonASCII, at: start)
                }
                decoded.append(contentsOf: tail)
                return try decoded.withUnsafeBufferPointer { buffer throws(JSONSyntaxError) in
                    try makeString(buffer, checkUTF8: true, at: start)
                }
            case UInt8(ascii: "\\"):
                sawEscape = true
                decoded.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[segmentStart..<index]))
                try decodeEscape(into: &decoded)
                segmentStart = index
            case 0x00..<0x20:
                throw JSONSyntaxError("control character in a string (escape it)", at: index)
            default:
                if byte >= 0x80 { sawNonASCII = true }
                index += 1
            }
        }
    }

    private func makeString(
        _ utf8: UnsafeBufferPointer<UInt8>, checkUTF8: Bool, at start: Int
    ) throws(JSONSyntaxError) -> String {
        guard checkUTF8 else { return String(decoding: utf8, as: UTF8.self) }
        guard let string = String(validating: utf8, as: UTF8.self) else {
            throw JSONSyntaxError("string is not valid UTF-8", at: start)
        }
        return string
    }

    private mutating func decodeEscape(into decoded: inout [UInt8]) throws(JSONSyntaxError) {
        let escapeStart = index
        index += 1
        guard let byte = current else { throw JSONSyntaxError("unterminated escape", at: escapeStart) }
        index += 1
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): decoded.append(byte)
        case UInt8(ascii: "b"): decoded.append(0x08)
        case UInt8(ascii: "f"): decoded.append(0x0C)
        case UInt8(ascii: "n"): decoded.append(0x0A)
        case UInt8(ascii: "r"): decoded.append(0x0D)
        case UInt8(ascii: "t"): decoded.append(0x09)
        case UInt8(ascii: "u"):
            let unit = try readHexQuad(escapeStart)
            let scalarValue: UInt32
            switch unit {
            case 0xD800...0xDBFF:
                guard current == UInt8(ascii: "\\"), index + 1 < bytes.count,
                    bytes[index + 1] == UInt8(ascii: "u")
                else { throw JSONSyntaxError("lone high surrogate escape", at: escapeStart) }
                index += 2
                let low = try readHexQuad(escapeStart)
                guard (0xDC00...0xDFFF).contains(low) else {
                    throw JSONSyntaxError("high surrogate not followed by a low one", at: escapeStart)
                }
                scalarValue = 0x10000 + ((UInt32(unit) - 0xD800) << 10) + (UInt32(low) - 0xDC00)
            case 0xDC00...0xDFFF:
                throw JSONSyntaxError("lone low surrogate escape", at: escapeStart)
            default:
                scalarValue = UInt32(unit)
            }
            // Every value left here is a valid scalar: surrogates were handled above.
            let scalar = Unicode.Scalar(scalarValue)!
            decoded.append(contentsOf: UTF8.encode(scalar)!)
        default:
            throw JSONSyntaxError("unknown escape '\\\(printable(byte))'", at: escapeStart)
        }
    }

    private mutating func readHexQuad(_ escapeStart: Int) throws(JSONSyntaxError) -> UInt16 {
        guard bytes.count - index >= 4 else {
            throw JSONSyntaxError("\\u needs four hex digits", at: escapeStart)
        }
        var value: UInt16 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw JSONSyntaxError("\\u needs four hex digits", at: escapeStart)
            }
            value = value << 4 | UInt16(digit)
            index += 1
        }
        return value
    }
}
