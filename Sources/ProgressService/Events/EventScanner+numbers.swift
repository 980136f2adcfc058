/// Numbers as the scanner reads them: exactly the Double the tree path makes, or not at all.
extension EventScanner {
    /// A number without an exponent and with at most 15 significant digits, read as it is
    /// scanned and converted by `JSONParser.exactDecimal`, so the very Double the tree path gets.
    /// The digits are counted as `exactDecimal` counts them: from the first that is not 0.
    /// The bytes after the number are the caller's to check: "01" stops after the "0", and the
    /// "1" is then out of place, as `JSONParser` also finds; so is the "e" of an exponent, which
    /// is strtod's business on the tree path.
    @inline(__always)
    mutating func number() throws(Unusual) -> Double {
        let bytes = bytes
        var cursor = index
        func peek(_ position: Int) -> UInt8 { position < bytes.count ? bytes[position] : 0 }
        var negative = false
        var byte = peek(cursor)
        if byte == UInt8(ascii: "-") {
            negative = true
            cursor += 1
            byte = peek(cursor)
        }
        var mantissa: UInt64 = 0
        var digits = 0
        var fractionDigits = 0
        if byte == UInt8(ascii: "0") {
            cursor += 1
            byte = peek(cursor)
        } else {
            guard isDigit(byte) else { throw Unusual() }
            repeat {
                mantissa = mantissa &* 10 &+ UInt64(byte &- UInt8(ascii: "0"))
                digits += 1
                cursor += 1
                byte = peek(cursor)
            } while isDigit(byte)
        }
        if byte == UInt8(ascii: ".") {
            cursor += 1
            byte = peek(cursor)
            guard isDigit(byte) else { throw Unusual() }
            repeat {
                if digits > 0 || byte != UInt8(ascii: "0") { digits += 1 }
                mantissa = mantissa &* 10 &+ UInt64(byte &- UInt8(ascii: "0"))
                fractionDigits += 1
                cursor += 1
                byte = peek(cursor)
            } while isDigit(byte)
        }
        index = cursor
        // Past 15 digits the mantissa may have wrapped; `exactDecimal` never sees it then.
        guard digits <= 15,
            let value = JSONParser.exactDecimal(
                mantissa: mantissa, fractionDigits: fractionDigits, negative: negative)
        else { throw Unusual() }
        return value
    }

    /// A whole number within `range`, by `EventDecoder`'s rule.
    mutating func integer(in range: ClosedRange<Int64>) throws(Unusual) -> Int64 {
        guard let integer = EventDecoder.wholeNumber(try number()), range.contains(integer) else {
            throw Unusual()
        }
        return integer
    }

    @inline(__always)
    private func isDigit(_ byte: UInt8) -> Bool {
        byte &- UInt8(ascii: "0") < 10
    }
}
