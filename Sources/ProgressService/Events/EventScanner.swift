/// Reads events straight from the bytes of a body, for the bodies that clients nearly always
/// send: strings of printable ASCII whose only escape is `\/` (and, in the values of `article`,
/// `reader` and `id`, UTF-8 beyond ASCII, as Foundation's JSON writers leave it), numbers without
/// an exponent and with at most 15 significant digits, the members SPEC §4 names and unknown
/// ones whose value is such a string, such a number, `true`, `false` or `null`.
///
/// It answers only when `JSONParser` followed by `EventDecoder` would produce the very same
/// event, bit for bit, and gives up — `nil`, `false` or `.unusual`, not an error — on anything
/// else: another escape, invalid UTF-8 or a control character, a repeated key, an unknown member
/// holding an object or an array, a number it cannot convert exactly, a rule broken, a byte out
/// of place. The caller then runs the tree path, which accepts or words the error as it always
/// has, so the scanner can make decoding faster but never different. The differential tests and
/// `EventIngestProbe` hold it to that.
///
/// No tree, no `String` for a key: keys are matched as bytes, and an event allocates only the
/// strings it keeps (`article`, `reader`, `id`, and only those longer than 15 bytes).
struct EventScanner: ~Copyable {
    /// Why the scanner gave up; it never says, since the tree path will.
    struct Unusual: Error {}

    let bytes: UnsafeBufferPointer<UInt8>
    var index = 0
    /// False for `/v1/progress`, which ignores `article` and `reader` (`EventDecoder`).
    let requireIdentity: Bool
    /// `Key.patterns`, fetched once per body rather than once per key.
    let patterns: UnsafePointer<KeyPattern>
    /// The article ids of the batch being read, kept by the caller across its events; `nil` for
    /// a lone event, whose id would be made once anyway.
    var articleNames: UnsafeMutablePointer<ArticleNames>?

    private init(_ bytes: UnsafeBufferPointer<UInt8>, requireIdentity: Bool) {
        self.bytes = bytes
        self.requireIdentity = requireIdentity
        patterns = Key.patterns
    }

    /// `bytes` as one event object with white space around it, or `nil` when the tree path must
    /// decide.
    static func event(in bytes: UnsafeBufferPointer<UInt8>, requireIdentity: Bool) -> DecodedEvent? {
        var entries = EventBatch.Entries()
        guard event(in: bytes, requireIdentity: requireIdentity, into: &entries) else { return nil }
        return try? entries.results[0].get()
    }

    /// `event(in:requireIdentity:)` handing the event to `sink`, which takes it where it lies:
    /// an event is some 230 bytes, and each `Optional` around it would be a copy. False, and
    /// nothing given to `sink`, when the tree path must decide.
    /// `articleNames` keeps article ids across the lines of an NDJSON body.
    static func event<Sink: EventBatchSink>(
        in bytes: UnsafeBufferPointer<UInt8>, requireIdentity: Bool, into sink: inout Sink,
        articleNames: UnsafeMutablePointer<ArticleNames>? = nil
    ) -> Bool {
        var scanner = EventScanner(bytes, requireIdentity: requireIdentity)
        scanner.articleNames = articleNames
        do throws(Unusual) {
            scanner.skipWhitespace()
            let event = try scanner.event()
            try scanner.expectEnd()
            sink.accept(event)
            return true
        } catch {
            return false
        }
    }

    /// What `batch(in:requireIdentity:into:)` made of a JSON body.
    enum Scanned {
        /// A lone event object.
        case single(DecodedEvent)
        /// An array of 1…1000 events, all given to the sink.
        case many
        /// Something the tree path must decide; the sink may hold some of the array's entries.
        case unusual
    }

    /// `bytes` as what `EventBatch.decode` makes of a JSON body — a lone event object, or an
    /// array of 1…1000 of them, every one of which the scanner reads — or `.unusual` when the tree
    /// path must decide.
    static func batch<Sink: EventBatchSink>(
        in bytes: UnsafeBufferPointer<UInt8>, requireIdentity: Bool, into sink: inout Sink
    ) -> Scanned {
        var scanner = EventScanner(bytes, requireIdentity: requireIdentity)
        do throws(Unusual) {
            scanner.skipWhitespace()
            guard scanner.current == UInt8(ascii: "[") else {
                let event = try scanner.event()
                try scanner.expectEnd()
                return .single(event)
            }
            scanner.index += 1
            var names = ArticleNames()
            return try withUnsafeMutablePointer(to: &names) { (names) throws(Unusual) -> Scanned in
                scanner.articleNames = names
                try scanner.events(into: &sink)
                return .many
            }
        } catch {
            return .unusual
        }
    }

    /// The elements of a JSON array after its '[', each an event handed to `sink`, up to the
    /// end of the body.
    private mutating func events<Sink: EventBatchSink>(into sink: inout Sink) throws(Unusual) {
        var count = 0
        repeat {
            skipWhitespace()
            sink.accept(try event())
            count += 1
            // Over the limit is an error for the tree path to word; so is an empty array,
            // which `event()` refuses at its ']'.
            guard count <= EventBatch.maximumCount else { throw Unusual() }
        } while try nextElement(closing: UInt8(ascii: "]"))
        try expectEnd()
    }

    /// The byte at `index`, or 0 past the end: 0 is never valid where the scanner looks, so
    /// running out of input fails every test for an expected byte.
    @inline(__always)
    var current: UInt8 { index < bytes.count ? bytes[index] : 0 }

    @inline(__always)
    mutating func skipWhitespace() {
        // Most bodies have no white space between tokens at all.
        guard current <= 0x20 else { return }
        while index < bytes.count, isJSONSpace(bytes[index]) { index += 1 }
    }

    @inline(__always)
    mutating func expect(_ byte: UInt8) throws(Unusual) {
        guard current == byte else { throw Unusual() }
        index += 1
    }

    mutating func expectEnd() throws(Unusual) {
        skipWhitespace()
        guard index == bytes.count else { throw Unusual() }
    }

    /// After a member or an element: `true` past a ',', `false` past the closing bracket.
    @inline(__always)
    mutating func nextElement(closing: UInt8) throws(Unusual) -> Bool {
        skipWhitespace()
        switch current {
        case UInt8(ascii: ","):
            index += 1
            return true
        case closing:
            index += 1
            return false
        default:
            throw Unusual()
        }
    }

    /// Steps to the first byte of a member's name, past white space and the opening quote.
    @inline(__always)
    mutating func startKey() throws(Unusual) {
        skipWhitespace()
        try expect(UInt8(ascii: "\""))
    }

    /// Steps past the ':' after a key and the white space around it, to the value.
    @inline(__always)
    mutating func endKey() throws(Unusual) {
        skipWhitespace()
        try expect(UInt8(ascii: ":"))
        skipWhitespace()
    }

    /// `true` past a `null`, which means "absent" for every optional member.
    @inline(__always)
    mutating func skipNull() -> Bool {
        guard bytes.count - index >= 4, bytes[index] == UInt8(ascii: "n"),
            bytes[index + 1] == UInt8(ascii: "u"), bytes[index + 2] == UInt8(ascii: "l"),
            bytes[index + 3] == UInt8(ascii: "l")
        else { return false }
        index += 4
        return true
    }

    /// A string of printable ASCII (0x20…0x7E) without escapes, as the span between its quotes.
    /// Such a string is the same String to `JSONParser`, and holds no control character for
    /// `EventDecoder` to refuse; anything else is left to them.
    @inline(__always)
    mutating func plainString() throws(Unusual) -> Range<Int> {
        try expect(UInt8(ascii: "\""))
        let start = index
        // A local cursor: the compiler cannot keep `index` in a register across loads through
        // the buffer, which might alias it for all it knows.
        var cursor = index
        let bytes = bytes
        // Eight bytes a step while eight remain; the first byte that is not plain decides.
        while bytes.count - cursor >= 8 {
            let word = UInt64(
                littleEndian: UnsafeRawPointer(bytes.baseAddress! + cursor).loadUnaligned(as: UInt64.self))
            let special = Self.notPlain(word)
            guard special != 0 else {
                cursor += 8
                continue
            }
            cursor += special.trailingZeroBitCount / 8
            guard bytes[cursor] == UInt8(ascii: "\"") else { throw Unusual() }
            index = cursor + 1
            return start..<cursor
        }
        while cursor < bytes.count {
            let byte = bytes[cursor]
            if byte == UInt8(ascii: "\"") {
                index = cursor + 1
                return start..<cursor
            }
            guard byte >= 0x20, byte < 0x7F, byte != UInt8(ascii: "\\") else { throw Unusual() }
            cursor += 1
        }
        throw Unusual()
    }

    /// The high bit of every byte of `word` (read little-endian) that is not printable ASCII or
    /// is a quote or a backslash. A borrow or a carry can also mark a byte above one that is
    /// marked rightly, never below it, so the lowest mark is always a true one.
    @inline(__always)
    private static func notPlain(_ word: UInt64) -> UInt64 {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        let control = (word &- ones &* 0x20) & ~word
        let deleteOrHigh = word | (word &+ ones)
        let quote = word ^ (ones &* UInt64(UInt8(ascii: "\"")))
        let backslash = word ^ (ones &* UInt64(UInt8(ascii: "\\")))
        let quoteOrBackslash = ((quote &- ones) & ~quote) | ((backslash &- ones) & ~backslash)
        return (control | deleteOrHigh | quoteOrBackslash) & highs
    }

    /// Whether the plain string at `index` is exactly `name`; steps past it when it is.
    mutating func matchString(_ name: StaticString) -> Bool {
        let count = name.utf8CodeUnitCount
        guard bytes.count - index >= count + 2, bytes[index] == UInt8(ascii: "\""),
            bytes[index + count + 1] == UInt8(ascii: "\"")
        else { return false }
        for offset in 0..<count where bytes[index + 1 + offset] != name.utf8Start[offset] { return false }
        index += count + 2
        return true
    }

    /// A plain string of `1...maxBytes` bytes, as the String `EventDecoder` would keep; or one
    /// that also holds `\/`, which Foundation's JSON writers put for every `/` (`JSONEncoder`
    /// unless told `.withoutEscapingSlashes`, `JSONSerialization` always; article ids are mostly
    /// paths), or UTF-8 beyond ASCII, which they write as it is.
    mutating func string(maxBytes: Int) throws(Unusual) -> String {
        let start = index
        do throws(Unusual) {
            let span = try plainString()
            guard span.count >= 1, span.count <= maxBytes else { throw Unusual() }
            return String(decoding: UnsafeBufferPointer(rebasing: bytes[span]), as: UTF8.self)
        } catch {
            index = start
            return try unusualString(maxBytes: maxBytes)
        }
    }

    /// `string(maxBytes:)` past the plain case: a backslash only ever before a `/`, bytes past
    /// ASCII only as valid UTF-8 of no control character — what `JSONParser` and `EventDecoder`
    /// take the same way. Anything else is theirs to word.
    mutating func unusualString(maxBytes: Int) throws(Unusual) -> String {
        try expect(UInt8(ascii: "\""))
        let bytes = bytes
        let start = index
        var cursor = index
        var escapes = 0
        var beyondASCII = false
        while true {
            guard cursor < bytes.count else { throw Unusual() }
            let byte = bytes[cursor]
            if byte == UInt8(ascii: "\"") { break }
            guard byte >= 0x20, byte != 0x7F else { throw Unusual() }
            if byte == UInt8(ascii: "\\") {
                guard cursor + 1 < bytes.count, bytes[cursor + 1] == UInt8(ascii: "/") else {
                    throw Unusual()
                }
                escapes += 1
                cursor += 1
            }
            if byte >= 0x80 { beyondASCII = true }
            cursor += 1
        }
        let length = cursor - start - escapes
        guard length >= 1, length <= maxBytes else { throw Unusual() }
        index = cursor + 1
        let raw = UnsafeBufferPointer(rebasing: bytes[start..<cursor])
        guard beyondASCII else {
            // Printable ASCII: valid as it is, nothing to check once the backslashes are out.
            return String(unsafeUninitializedCapacity: length) { buffer in
                Self.copy(raw, withoutBackslashesInto: buffer)
            }
        }
        let validated: String?
        if escapes == 0 {
            validated = String(validating: raw, as: UTF8.self)
        } else {
            var utf8 = [UInt8](repeating: 0, count: length)
            utf8.withUnsafeMutableBufferPointer { buffer in
                _ = Self.copy(raw, withoutBackslashesInto: buffer)
            }
            validated = String(validating: utf8, as: UTF8.self)
        }
        guard let string = validated, !string.unicodeScalars.contains(where: isControl) else {
            throw Unusual()
        }
        return string
    }

    /// Copies `raw` leaving out every backslash, which escapes the byte after it; how many
    /// bytes that makes.
    private static func copy(
        _ raw: UnsafeBufferPointer<UInt8>, withoutBackslashesInto buffer: UnsafeMutableBufferPointer<UInt8>
    ) -> Int {
        var from = 0
        var count = 0
        while from < raw.count {
            if raw[from] == UInt8(ascii: "\\") { from += 1 }
            buffer[count] = raw[from]
            count += 1
            from += 1
        }
        return count
    }

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
