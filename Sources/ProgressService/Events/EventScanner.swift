/// Reads events straight from the bytes of a body, for the bodies that clients nearly always
/// send: strings of printable ASCII whose only escape is `\/` (and, in the values of `article`,
/// `reader` and `id`, UTF-8 beyond ASCII, as Foundation's JSON writers leave it), numbers without
/// an exponent and with at most 15 significant digits, the members an event has (docs/api.md) and unknown
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
        // The scanner only ever accepts into the sink; a refusal is the tree path's to word.
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
            var names = ArticleNames(bodyBytes: bytes.count)
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
}
