/// A strict RFC 8259 parser for request bodies.
///
/// Stricter than Foundation on purpose: input that two parsers might read differently is an
/// error rather than a guess — invalid UTF-8, lone surrogate escapes, duplicate keys, leading
/// zeros, numbers that overflow a Double, trailing garbage. Nesting is bounded so that a
/// hostile body cannot exhaust the stack.
struct JSONParser: ~Copyable {
    /// Deepest nesting accepted; an event needs 3.
    static let maximumDepth = 64
    /// Longest number text accepted; a Double never needs more than about 25 characters.
    static let maximumNumberLength = 128
    /// Objects with up to this many members find duplicate keys by a linear scan; larger ones
    /// switch to a set, so that a hostile object with 100,000 keys costs 10⁵ lookups, not 10¹⁰.
    static let linearKeyScanLimit = 16

    let bytes: UnsafeBufferPointer<UInt8>
    var index = 0
    private var depth = 0

    private init(bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    /// Parses one whole document: exactly one value, with nothing but white space around it.
    static func parse(_ bytes: UnsafeBufferPointer<UInt8>) throws(JSONSyntaxError) -> JSONValue {
        var parser = JSONParser(bytes: bytes)
        parser.skipWhitespace()
        let value = try parser.parseValue()
        parser.skipWhitespace()
        guard parser.index == bytes.count else {
            throw JSONSyntaxError("unexpected text after the JSON value", at: parser.index)
        }
        return value
    }

    static func parse(_ bytes: [UInt8]) throws(JSONSyntaxError) -> JSONValue {
        let result = bytes.withUnsafeBufferPointer { buffer in
            Result { () throws(JSONSyntaxError) -> JSONValue in try parse(buffer) }
        }
        return try result.get()
    }

    var current: UInt8? { index < bytes.count ? bytes[index] : nil }

    private mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }

    private mutating func parseValue() throws(JSONSyntaxError) -> JSONValue {
        guard let byte = current else { throw JSONSyntaxError("unexpected end of input", at: index) }
        switch byte {
        case UInt8(ascii: "{"): return try parseObject()
        case UInt8(ascii: "["): return try parseArray()
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"):
            try expectLiteral("true")
            return .bool(true)
        case UInt8(ascii: "f"):
            try expectLiteral("false")
            return .bool(false)
        case UInt8(ascii: "n"):
            try expectLiteral("null")
            return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try parseNumber()
        default:
            throw JSONSyntaxError("unexpected character '\(printable(byte))'", at: index)
        }
    }

    private mutating func expectLiteral(_ literal: StaticString) throws(JSONSyntaxError) {
        let start = index
        let count = literal.utf8CodeUnitCount
        guard bytes.count - index >= count else {
            throw JSONSyntaxError("invalid literal", at: start)
        }
        for offset in 0..<count where bytes[index + offset] != literal.utf8Start[offset] {
            throw JSONSyntaxError("invalid literal", at: start)
        }
        index += count
    }

    private mutating func enterContainer() throws(JSONSyntaxError) {
        depth += 1
        guard depth <= Self.maximumDepth else {
            throw JSONSyntaxError("nesting deeper than \(Self.maximumDepth) levels", at: index)
        }
    }

    private mutating func parseObject() throws(JSONSyntaxError) -> JSONValue {
        try enterContainer()
        index += 1
        var members: [(key: String, value: JSONValue)] = []
        // An event's objects have 2 to 10 members: one allocation instead of growing 1, 2, 4, 8.
        members.reserveCapacity(8)
        var keys = Set<String>()
        skipWhitespace()
        if current == UInt8(ascii: "}") {
            index += 1
            depth -= 1
            return .object(members)
        }
        while true {
            skipWhitespace()
            guard current == UInt8(ascii: "\"") else {
                throw JSONSyntaxError("expected a string key", at: index)
            }
            let keyStart = index
            let key = try parseString()
            let isDuplicate: Bool
            if members.count < Self.linearKeyScanLimit {
                isDuplicate = members.contains { $0.key == key }
            } else {
                if keys.isEmpty { keys = Set(members.map(\.key)) }
                isDuplicate = !keys.insert(key).inserted
            }
            if isDuplicate {
                throw JSONSyntaxError("duplicate key \"\(key)\"", at: keyStart)
            }
            skipWhitespace()
            guard current == UInt8(ascii: ":") else {
                throw JSONSyntaxError("expected ':' after a key", at: index)
            }
            index += 1
            skipWhitespace()
            members.append((key, try parseValue()))
            skipWhitespace()
            switch current {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "}"):
                index += 1
                depth -= 1
                return .object(members)
            default: throw JSONSyntaxError("expected ',' or '}' in an object", at: index)
            }
        }
    }

    private mutating func parseArray() throws(JSONSyntaxError) -> JSONValue {
        try enterContainer()
        index += 1
        var elements: [JSONValue] = []
        skipWhitespace()
        if current == UInt8(ascii: "]") {
            index += 1
            depth -= 1
            return .array(elements)
        }
        while true {
            skipWhitespace()
            elements.append(try parseValue())
            skipWhitespace()
            switch current {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "]"):
                index += 1
                depth -= 1
                return .array(elements)
            default: throw JSONSyntaxError("expected ',' or ']' in an array", at: index)
            }
        }
    }

    private mutating func parseNumber() throws(JSONSyntaxError) -> JSONValue {
        let start = index
        if current == UInt8(ascii: "-") { index += 1 }
        guard let first = current, isDigit(first) else {
            throw JSONSyntaxError("expected a digit", at: index)
        }
        if first == UInt8(ascii: "0") {
            index += 1
            if let next = current, isDigit(next) {
                throw JSONSyntaxError("numbers may not have leading zeros", at: start)
            }
        } else {
            skipDigits()
        }
        var isInteger = true
        if current == UInt8(ascii: ".") {
            isInteger = false
            index += 1
            guard let digit = current, isDigit(digit) else {
                throw JSONSyntaxError("expected a digit after '.'", at: index)
            }
            skipDigits()
        }
        if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
            isInteger = false
            index += 1
            if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { index += 1 }
            guard let digit = current, isDigit(digit) else {
                throw JSONSyntaxError("expected a digit in the exponent", at: index)
            }
            skipDigits()
        }
        let length = index - start
        guard length <= Self.maximumNumberLength else {
            throw JSONSyntaxError("number longer than \(Self.maximumNumberLength) characters", at: start)
        }
        let text = UnsafeBufferPointer(rebasing: bytes[start..<index])
        if let value = Self.exactDecimal(text) { return .number(value, isInteger: isInteger) }
        guard let value = Double(String(decoding: text, as: UTF8.self)), value.isFinite else {
            throw JSONSyntaxError("number out of range", at: start)
        }
        return .number(value, isInteger: isInteger)
    }

    /// Powers of ten that a Double holds exactly.
    private static let exactPowersOfTen: [Double] = (0...22).map { exponent in
        (0..<exponent).reduce(1.0) { value, _ in value * 10 }
    }

    /// The value of a number written as digits with at most one '.', no exponent, and at most
    /// 15 significant digits — what scroll geometry looks like — or `nil` for any other number.
    private static func exactDecimal(_ text: UnsafeBufferPointer<UInt8>) -> Double? {
        var mantissa: UInt64 = 0
        var digits = 0
        var fractionDigits = 0
        var seenPoint = false
        var negative = false
        for (position, byte) in text.enumerated() {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                if digits > 0 || byte != UInt8(ascii: "0") { digits += 1 }
                guard digits <= 15 else { return nil }
                mantissa = mantissa * 10 + UInt64(byte - UInt8(ascii: "0"))
                if seenPoint { fractionDigits += 1 }
            case UInt8(ascii: "."):
                seenPoint = true
            case UInt8(ascii: "-") where position == 0:
                negative = true
            default:
                return nil  // an exponent: leave it to strtod
            }
        }
        return exactDecimal(mantissa: mantissa, fractionDigits: fractionDigits, negative: negative)
    }

    /// `±mantissa / 10^fractionDigits` when that is one correctly rounded division, or `nil`.
    /// A mantissa of at most 15 digits is an integer below 2^53, and 10^0…10^22 are exactly
    /// representable, so the quotient is the same Double that `strtod` gives (Clinger's fast
    /// path), at a fraction of its cost. `EventScanner` reads its digits as it scans and comes
    /// here too, so that both paths give the same bits.
    static func exactDecimal(mantissa: UInt64, fractionDigits: Int, negative: Bool) -> Double? {
        guard mantissa < 1_000_000_000_000_000, fractionDigits <= 22 else { return nil }
        // x / 1 is x exactly; most numbers are whole, and skip the table then.
        let magnitude =
            fractionDigits == 0 ? Double(mantissa) : Double(mantissa) / exactPowersOfTen[fractionDigits]
        return negative ? -magnitude : magnitude
    }

    private mutating func skipDigits() {
        while let byte = current, isDigit(byte) { index += 1 }
    }

    private func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }
}

/// Why a body is not JSON, with the byte offset where the parser gave up.
struct JSONSyntaxError: Error, Sendable, Equatable {
    var message: String
    var offset: Int

    init(_ message: String, at offset: Int) {
        self.message = message
        self.offset = offset
    }

    var description: String { "\(message) at byte \(offset)" }
}

func printable(_ byte: UInt8) -> String {
    byte >= 0x20 && byte < 0x7F ? String(UnicodeScalar(byte)) : "\\u{\(String(byte, radix: 16))}"
}
