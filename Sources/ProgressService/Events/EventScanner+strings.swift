/// Strings as the scanner reads them: plain ones in place, eight bytes a step; those with `\/`
/// or UTF-8 beyond ASCII through a second pass.
extension EventScanner {
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
}
