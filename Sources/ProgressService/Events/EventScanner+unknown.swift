#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension EventScanner {
    /// The names of the unknown members met so far in one event object: `JSONParser` refuses
    /// a name given twice, so the scanner must notice a repeat among them too.
    struct UnknownNames {
        /// Beyond this many the scanner leaves the object to the tree path: every name is
        /// compared with every other.
        static let limit = 16
        var spans: [Range<Int>] = []
    }

    /// Steps over a member an event does not have — its name's first byte at `index` — which
    /// `EventDecoder` ignores whatever it holds, when the name is plain and new to the object and
    /// the value is a string the scanner reads, a number it reads, `true`, `false` or `null`.
    /// An object or an array, a name given before and anything else unusual are the tree
    /// path's, which refuses what `JSONParser` refuses.
    mutating func skipUnknownMember(seen names: inout UnknownNames) throws(Unusual) {
        index -= 1  // back onto the name's opening quote
        let name = try plainString()
        guard names.spans.count < UnknownNames.limit else { throw Unusual() }
        for span in names.spans where span.count == name.count {
            guard
                memcmp(bytes.baseAddress! + span.lowerBound, bytes.baseAddress! + name.lowerBound, name.count)
                    != 0
            else { throw Unusual() }
        }
        names.spans.append(name)
        try endKey()
        switch current {
        case UInt8(ascii: "\""):
            let start = index
            do throws(Unusual) {
                _ = try plainString()
            } catch {
                index = start
                _ = try unusualString(maxBytes: Int.max)
            }
        case UInt8(ascii: "t"):
            guard matchLiteral("true") else { throw Unusual() }
        case UInt8(ascii: "f"):
            guard matchLiteral("false") else { throw Unusual() }
        case UInt8(ascii: "n"):
            guard skipNull() else { throw Unusual() }
        default:
            _ = try number()
        }
    }

    /// Whether the bytes at `index` are `literal`; steps past it when they are. What follows is
    /// the caller's to check, as after a number.
    private mutating func matchLiteral(_ literal: StaticString) -> Bool {
        let count = literal.utf8CodeUnitCount
        guard bytes.count - index >= count, memcmp(bytes.baseAddress! + index, literal.utf8Start, count) == 0
        else { return false }
        index += count
        return true
    }
}
