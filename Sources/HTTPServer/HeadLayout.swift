#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The request's head as libmicrohttpd leaves it in the connection's read buffer, walked for
/// what its parser accepts without a trace in the fields it hands over: a field folded onto a
/// continuation line, a NUL inside a field, a line ended by a bare LF, more than one space
/// between the parts of the request line. (RFC 9112 §2.2 and §5.2 let a server refuse each;
/// a proxy that reads any of them otherwise than libmicrohttpd does would see other fields.)
///
/// libmicrohttpd 0.9.75 parses the head in place and hands out pointers into it: the spaces of
/// the request line, each field's colon and each line end become NULs (two for a CRLF, one for
/// a bare LF), and the fields are listed in the order received. So after one field's value
/// exactly two NULs lead to the next field's name, and four to the end of the head after the
/// last one; anything else there is something the parser dropped. A folded field's name is
/// moved out of the head, the continuation line appended to it, and the continuation itself
/// stays where it was, after the value. The layout is that version's (``isKnown(version:)``):
/// with another one the walk is skipped, and ``FramingProof`` keeps the server from starting
/// unless told to start without these refusals.
struct HeadLayout {
    /// Whether the walk is made at all (see ``isKnown(version:)``).
    private let isActive: Bool
    private let start: UnsafePointer<UInt8>
    private let end: UnsafePointer<UInt8>
    /// Just after what has been accounted for: the request line, or the last value.
    private var cursor: UnsafePointer<UInt8>
    /// The name of the field whose value ends at `cursor`; `nil` after the request line.
    private var lastName: UnsafeRawBufferPointer?
    /// A name libmicrohttpd moved out of the head, with a continuation line appended to it.
    private var foldedName: UnsafeRawBufferPointer?
    /// The first flaw found, once one is.
    private(set) var flaw: HeadFlaw?

    /// The libmicrohttpd version whose layout this is.
    static let knownVersion = "0.9.75"

    /// Whether libmicrohttpd `version` (`MHD_get_version()`) lays out a head as described.
    static func isKnown(version: String) -> Bool {
        version == knownVersion
    }

    /// Starts the walk with the request line: `target` is the request-target as the URI log
    /// callback saw it, `headSize` the bytes from the method to the end of the empty line.
    init(
        method: UnsafePointer<CChar>, target: UnsafeRawBufferPointer, version: UnsafePointer<CChar>,
        headSize: Int
    ) {
        isActive = true
        start = UnsafeRawPointer(method).assumingMemoryBound(to: UInt8.self)
        end = start + headSize
        cursor = start
        let versionStart = UnsafeRawPointer(version).assumingMemoryBound(to: UInt8.self)
        guard let targetStart = target.baseAddress?.assumingMemoryBound(to: UInt8.self),
            targetStart == start + strlen(method) + 1,
            versionStart == targetStart + target.count + 1,
            versionStart + strlen(version) <= end
        else {
            flaw = HeadFlaw(.requestLineSpacing)
            return
        }
        cursor = versionStart + strlen(version)
    }

    /// A walk that is not made: it finds nothing.
    init(skipping method: UnsafePointer<CChar>) {
        isActive = false
        start = UnsafeRawPointer(method).assumingMemoryBound(to: UInt8.self)
        end = start
        cursor = start
    }

    /// Accounts for the next header field, as libmicrohttpd lists it.
    @inline(__always)
    mutating func field(name: UnsafeRawBufferPointer, value: UnsafeRawBufferPointer) {
        guard isActive && flaw == nil else { return }
        guard let valueStart = value.baseAddress?.assumingMemoryBound(to: UInt8.self),
            valueStart >= cursor, valueStart + value.count <= end
        else {
            flaw = HeadFlaw(.malformedLine, field: name)
            return
        }
        if let nameStart = name.baseAddress?.assumingMemoryBound(to: UInt8.self),
            nameStart >= cursor, nameStart + name.count < valueStart
        {
            guard lineEnds(before: nameStart, lines: 1) else { return }
            // The colon, then only the whitespace libmicrohttpd skipped before the value.
            let colon = nameStart + name.count
            guard colon.pointee == 0,
                UnsafeBufferPointer(start: colon + 1, count: valueStart - colon - 1).allSatisfy({
                    $0 == 0x20 || $0 == 0x09
                })
            else {
                flaw = HeadFlaw(.malformedLine, field: name)
                return
            }
        } else if foldedName == nil {
            foldedName = name
        }
        lastName = name
        cursor = valueStart + value.count
    }

    /// Accounts for the end of the head; returns the first flaw found, if any.
    mutating func finish() -> HeadFlaw? {
        if isActive && flaw == nil { _ = lineEnds(before: end, lines: 2) }
        return flaw
    }

    /// Whether exactly `lines` CRLFs, and nothing else, lie between `cursor` and `next`; sets
    /// ``flaw`` when not.
    @inline(__always)
    private mutating func lineEnds(before next: UnsafePointer<UInt8>, lines: Int) -> Bool {
        if next - cursor == 2 * lines && foldedName == nil
            && UnsafeRawPointer(cursor).loadUnaligned(as: UInt16.self) == 0
            && (lines == 1 || UnsafeRawPointer(cursor + 2).loadUnaligned(as: UInt16.self) == 0)
        {
            return true
        }
        return lineEndsSlowly(before: next, lines: lines)
    }

    private mutating func lineEndsSlowly(before next: UnsafePointer<UInt8>, lines: Int) -> Bool {
        var nuls = 0
        var dropped = 0
        var firstDropped: UInt8?
        var nulsBeforeDropped = 0
        // The bytes a continuation line adds to the name it is appended to: all but the
        // whitespace it starts with.
        var continued = 0
        var atLineStart = true
        for byte in UnsafeBufferPointer(start: cursor, count: next - cursor) {
            if byte == 0 {
                nuls += 1
                atLineStart = true
                continue
            }
            dropped += 1
            if firstDropped == nil {
                firstDropped = byte
                nulsBeforeDropped = nuls
            }
            if atLineStart && (byte == 0x20 || byte == 0x09) { continue }
            atLineStart = false
            continued += 1
        }
        guard dropped > 0 || nuls != 2 * lines || foldedName != nil else { return true }
        if let foldedName {
            let original = foldedName.count - continued
            flaw = HeadFlaw(
                .folded, field: original > 0 ? UnsafeRawBufferPointer(rebasing: foldedName[..<original]) : nil
            )
        } else if dropped > 0 && nulsBeforeDropped == 3 {
            // A CRLF, then a line starting with its colon: libmicrohttpd takes it for the end of
            // the head and leaves the rest of the head to be read as what follows.
            flaw = HeadFlaw(.emptyName)
        } else if let firstDropped, isWhitespace(firstDropped) {
            flaw = HeadFlaw(.folded, field: lastName)
        } else if dropped > 0 || nuls > 2 * lines {
            flaw = HeadFlaw(.nul, field: lastName)
        } else {
            flaw = HeadFlaw(.bareLF, field: lastName)
        }
        return false
    }
}
