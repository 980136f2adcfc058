import ProgressCore
import Testing

@testable import ProgressService

/// `EventScanner` must read the plain bodies on its own and leave everything else to the tree
/// path, and whatever it reads must decode exactly as the tree path decodes it.
@Suite("Reading events straight from the bytes")
struct EventScannerTests {
    static let typical =
        #"{"article":"/blog/article-42","reader":"reader-123456","contentOffset":{"x":0,"y":1234},"contentSize":{"width":390,"height":5000},"containerSize":{"width":390,"height":844},"contentInsets":{"top":47,"bottom":34},"engagedMs":12000}"#

    /// `typical` with `member` added just before its closing brace.
    static func with(_ member: String) -> String {
        String(typical.dropLast()) + "," + member + "}"
    }

    /// `typical` with the text `old` replaced by `new`.
    static func replacing(_ old: String, _ new: String) -> String {
        precondition(typical.contains(old))
        return typical.replacingOccurrences(of: old, with: new)
    }

    static let scanned: [String] = [
        typical,
        // Another order, every optional member, white space everywhere it may go.
        #" { "engagedMs" : 0 , "id":"e-1", "time":"2026-11-30T08:00:00.123+02:00","axis":"horizontal","#
            + #""indicator":{"thumbLength":40,"trackLength":90},"step":{"total":3,"index":1},"#
            + #""region":{"end":380,"start":10},"contentInsets":{"trailing":1.5,"leading":0.25,"top":0,"bottom":0},"#
            + "\t\"containerSize\"\r\n:{\"height\":844,\"width\":390}, \"contentSize\":{ \"height\":5000 , \"width\":390 },"
            + #""contentOffset":{"y":-47,"x":12.5},"reader":"r","article":"a"}"# + " \r\n\t",
        replacing(
            #""contentInsets":{"top":47,"bottom":34}"#,
            #""axis":null,"contentInsets":null,"region":null,"step":null,"indicator":null"#),
        replacing(#""engagedMs":12000"#, #""engagedMs":null,"time":null,"id":null"#),
        replacing(#""contentInsets":{"top":47,"bottom":34}"#, #""contentInsets":{}"#),
        replacing(#""contentInsets":{"top":47,"bottom":34}"#, #""contentInsets":{ "top":null,"bottom":3 }"#),
        // Numbers in every form the exact decimal path takes.
        replacing(#""x":0,"y":1234"#, #""x":-0,"y":-0.0"#),
        replacing(#""x":0,"y":1234"#, #""x":0.1,"y":0.000001"#),
        replacing(#""x":0,"y":1234"#, #""x":123456789012345,"y":-99999.9999999999"#),
        replacing(#""x":0,"y":1234"#, #""x":0.30000000000000,"y":1.0"#),
        replacing(#""engagedMs":12000"#, #""engagedMs":5.0"#),
        replacing(#""engagedMs":12000"#, #""engagedMs":-0"#),
        replacing(#""engagedMs":12000"#, #""engagedMs":86400000"#),
        with(#""time":1764489600000"#),
        with(#""time":"2026-11-30 08:00:60z""#),
        with(#""step":{"index":0,"total":2147483647}"#),
        // Lengths at their limits, in bytes.
        replacing(#""/blog/article-42""#, "\"" + String(repeating: "a", count: 256) + "\""),
        replacing(#""reader-123456""#, "\"" + String(repeating: "~", count: 128) + "\""),
        with("\"id\":\"" + String(repeating: "/", count: 64) + "\""),
        // "\/", as Foundation's JSON writers put every "/", counted as one byte against the limit.
        replacing("/blog/article-42", #"\/blog\/article-42"#),
        replacing("reader-123456", #"reader\/123456\/"#),
        with(#""id":"\/a\/\/b""#),
        replacing(#""/blog/article-42""#, "\"" + String(repeating: #"\/"#, count: 256) + "\""),
        // UTF-8 beyond ASCII, as those writers leave it, counted in bytes against the limit.
        replacing("article-42", "artículo-42"),
        replacing("article-42", #"artículo\/42"#),
        replacing("reader-123456", "читатель-😀"),
        with(#""id":"événement-1""#),
        replacing(#""/blog/article-42""#, "\"" + String(repeating: "é", count: 128) + "\""),
        // Unknown members with values the scanner reads, which `EventDecoder` ignores.
        with(#""extra":1"#),
        with(#""platform":"ios","appVersion":"2.3.1","debug":false,"beta":true,"session":null"#),
        with(#""page":"\/blog\/a","title":"Café","offset":-12.5,"empty":"""#),
        replacing(#"{"article""#, #"{"first":0,"article""#),
        with((0...15).map { #""extra\#($0)":0"# }.joined(separator: ",")),
        // Arrays of events.
        "[" + typical + "]",
        " [ " + typical + " ,\n" + typical + " ] ",
    ]

    @Test("reads the plain bodies on its own, exactly as the tree path does", arguments: scanned)
    func readsPlainBodies(text: String) {
        let outcome = Differential(text)
        #expect(outcome.mismatches.isEmpty, "\(outcome.mismatches)")
        #expect(outcome.scannedJSON)
    }

    static let leftToTheTree: [String] = [
        // Duplicate keys, also inside nested objects and behind a null: JSON errors.
        with(#""article":"b""#),
        replacing(#""x":0"#, #""x":0,"x":0"#),
        replacing(#""top":47"#, #""top":null,"top":47"#),
        replacing(#""width":390,"height":844"#, #""width":390,"height":844,"height":844"#),
        with(#""step":{"index":1,"index":1,"total":2}"#),
        // Escapes and non-ASCII, valid or not.
        replacing("/blog/article-42", #"\/blog\/article-\u0034\u0032"#),
        replacing("/blog/article-42", #"\/blog\\article-42"#),
        replacing("/blog/article-42", #"\/blog\/article-42\n"#),
        replacing("article-42", #"article-\u0034\u0032"#),
        replacing("article-42", "article-\u{85}"),
        replacing("article-42", "artículo-\u{9F}"),
        replacing(#""/blog/article-42""#, "\"" + String(repeating: "é", count: 128) + "a\""),
        replacing("article-42", "article-\u{7F}"),
        replacing("article-42", "article-\t"),
        replacing(#""article""#, #""\u0061rticle""#),
        // Numbers outside the exact path, or not numbers at all.
        replacing(#""y":1234"#, #""y":1e2"#),
        replacing(#""y":1234"#, #""y":1E-7"#),
        replacing(#""y":1234"#, #""y":1e400"#),
        replacing(#""y":1234"#, #""y":-1e-400"#),
        replacing(#""y":1234"#, #""y":1234567890123456"#),
        replacing(#""y":1234"#, #""y":0.30000000000000004"#),
        replacing(#""y":1234"#, #""y":01"#),
        replacing(#""y":1234"#, #""y":1."#),
        replacing(#""y":1234"#, #""y":.5"#),
        replacing(#""y":1234"#, #""y":+1"#),
        replacing(#""y":1234"#, #""y":"1234""#),
        replacing(#""y":1234"#, #""y":null"#),
        replacing(#""engagedMs":12000"#, #""engagedMs":1.5"#),
        replacing(#""engagedMs":12000"#, #""engagedMs":86400001"#),
        replacing(#""engagedMs":12000"#, #""engagedMs":1.2e4"#),
        // Unknown members the scanner does not step over: objects, arrays, names given twice
        // (a JSON error), values it does not read, too many of them.
        with(#""extra":{"article":"x"}"#),
        with(#""extra":[]"#),
        with(#""extra":1,"extra":2"#),
        with(#""extra":1,"more":true,"extra":null"#),
        with(#""extra":1e3"#),
        with(#""extra":"a\nb""#),
        with(#""extra":tru"#),
        with(#""extra":nul"#),
        with(#""extra":-"#),
        with(#""ext\u0072a":1"#),
        with((0...16).map { #""extra\#($0)":0"# }.joined(separator: ",")),
        replacing(#""x":0"#, #""x":0,"z":0"#),
        // Rules broken.
        replacing(#""reader":"reader-123456""#, #""reader":"""#),
        replacing(#""reader":"reader-123456","#, ""),
        replacing(#""reader":"reader-123456""#, #""reader":null"#),
        replacing(#""height":5000"#, #""height":-1"#),
        with(#""axis":"diagonal""#),
        with(#""region":{"start":10,"end":10}"#),
        with(#""time":"yesterday""#),
        with(#""time":1.5"#),
        with(#""id":"""#),
        with(#""step":{"index":1}"#),
        replacing("/blog/article-42", String(repeating: "a", count: 257)),
        replacing(#""/blog/article-42""#, "\"" + String(repeating: #"\/"#, count: 257) + "\""),
        replacing(#""reader-123456""#, #""\/\""#),
        // Not JSON, or not the JSON of an event.
        with(""),
        String(typical.dropLast()),
        String(typical.dropLast(40)),
        typical + "}",
        typical + " x",
        "[" + typical + ",]",
        "[]",
        "[" + typical + ",1]",
        "[[" + typical + "]]",
        "{}",
        // Objects that are empty, or nearly, where members must be.
        replacing(#""x":0,"y":1234"#, ""),
        replacing(#""contentInsets":{"top":47,"bottom":34},"engagedMs":12000}"#, #""contentInsets":{,}"#),
        replacing(#""contentInsets":{"top":47,"bottom":34}"#, #""contentInsets":{,}"#),
        replacing(#""contentInsets":{"top":47,"bottom":34}"#, #""contentInsets":{"top":47,}"#),
        replacing(#""contentInsets":{"top":47,"bottom":34}"#, #""contentInsets":{"top":47"#),
        replacing(#""contentInsets":{"top":47,"bottom":34}"#, #""contentInsets":{"top":47}}"#),
        replacing(#""x":0,"y":1234}"#, #""x":0,"y":1234,}"#),
        replacing(#""x":0,"#, #""x":0,,"#),
        replacing(#""x":0"#, #""x"0"#),
        replacing(#""x":0"#, #""x"::0"#),
        replacing(#""x":0"#, #"x:0"#),
        "null",
        "\u{FEFF}" + typical,
    ]

    @Test("leaves everything unusual to the tree path", arguments: leftToTheTree)
    func leavesTheRest(text: String) {
        let outcome = Differential(text)
        #expect(outcome.mismatches.isEmpty, "\(outcome.mismatches)")
        #expect(!outcome.scannedJSON)
    }

    @Test(
        "leaves bytes that are not UTF-8 to the tree path",
        arguments: [
            [0xFF], [0xC3], [0xED, 0xA0, 0x80], [0xC0, 0xAF], [0xE2, 0x82], [0xF4, 0x90, 0x80, 0x80],
            [0xC3, 0xA9, 0x80], Array(#"\/"#.utf8) + [0xC3],
        ] as [[UInt8]])
    func invalidUTF8(bytes: [UInt8]) {
        let body = Array(Self.typical.utf8)
        let at = body.firstIndex(of: UInt8(ascii: "4"))!
        let outcome = Differential(Array(body[..<at]) + bytes + Array(body[at...]))
        #expect(outcome.mismatches.isEmpty, "\(outcome.mismatches)")
        #expect(!outcome.scannedJSON)
    }

    /// Strings are checked eight bytes a step: every byte value at every place of a word.
    @Test("takes strings of printable ASCII and nothing else, byte by byte", arguments: 0..<24)
    func everyByteEverywhere(position: Int) {
        let body = Array(Self.typical.utf8)
        let start = body.firstIndex(of: UInt8(ascii: "/"))!
        for byte in UInt8.min...UInt8.max {
            // A 24-byte article with `byte` at `position`, all else plain.
            var article = Array("/blog/article-4242424242".utf8)
            article[position] = byte
            let text =
                Array(body[..<start]) + article + Array(body[(start + "/blog/article-42".utf8.count)...])
            let outcome = Differential(text)
            #expect(outcome.mismatches.isEmpty, "\(outcome.mismatches)")
            // A backslash is taken only before a "/", which the article has at 0 and 5.
            let escapesSlash =
                byte == UInt8(ascii: "\\") && position + 1 < article.count
                && article[position + 1] == UInt8(ascii: "/")
            let plain =
                byte >= 0x20 && byte < 0x7F && byte != UInt8(ascii: "\"")
                && (byte != UInt8(ascii: "\\") || escapesSlash)
            #expect(outcome.scannedJSON == plain, "byte \(byte) at \(position)")
        }
    }

    @Test("gives the tree path's numbers to the bit")
    func numbers() throws {
        let event = try #require(Differential.event(Self.replacing(#""x":0,"y":1234"#, #""x":-0,"y":0.1"#)))
        #expect(event.geometry.contentOffset.x.bitPattern == (-0.0).bitPattern)
        #expect(event.geometry.contentOffset.y == 0.1)
        #expect(
            Differential.event(Self.replacing(#""engagedMs":12000"#, #""engagedMs":5.0"#))?.engagedMs == 5)
        let typical = try #require(Differential.event(Self.typical))
        #expect(typical.geometry.contentInsets == Insets(top: 47, bottom: 34))
        #expect(typical.article == "/blog/article-42" && typical.reader == "reader-123456")
    }

    @Test("/v1/progress: article and reader may be absent, null or any plain string")
    func withoutIdentity() {
        let bare =
            #"{"contentOffset":{"x":0,"y":0},"contentSize":{"width":1,"height":1},"containerSize":{"width":1,"height":1}}"#
        for text in [
            bare, Self.typical, Self.replacing(#""/blog/article-42""#, "null"),
            Self.replacing(#""reader-123456""#, #""""#),
        ] {
            let scanned = Array(text.utf8).withUnsafeBufferPointer {
                EventScanner.event(in: $0, requireIdentity: false)
            }
            #expect(scanned != nil, "\(text)")
            #expect(scanned?.article == "" && scanned?.reader == "")
            #expect(Differential(text).mismatches.isEmpty)
        }
    }

    @Test("NDJSON: each line on its own, blank lines skipped, the bad ones left to the tree")
    func lines() {
        let body = "\n" + Self.typical + "\r\n  \n\t\n" + Self.with(#""x":[1]"#) + "\n" + Self.typical
        let outcome = Differential(body)
        #expect(outcome.mismatches.isEmpty, "\(outcome.mismatches)")
        #expect(outcome.lines == 3 && outcome.scannedLines == 2)
    }

    @Test("a batch is 1…1000 events, whichever way it is framed")
    func batchLimits() {
        let array = { (count: Int) in
            "[" + Array(repeating: Self.typical, count: count).joined(separator: ",") + "]"
        }
        let lines = { (count: Int) in Array(repeating: Self.typical, count: count).joined(separator: "\n") }
        for text in [array(1000), lines(1000)] {
            let outcome = Differential(text)
            #expect(outcome.mismatches.isEmpty)
            #expect(outcome.scannedJSON || outcome.scannedLines == 1000)
        }
        for text in [array(1001), lines(1001), "\n \n"] {
            #expect(Differential(text).mismatches.isEmpty)
        }
        #expect(throws: APIError.batchTooLarge(count: 1001)) {
            try EventBatch.decode(Array(lines(1001).utf8), format: .ndjson, using: EventDecoder())
        }
    }

    @Test("an array the scanner gives up on partway reaches the sink once, from the tree path")
    func restartsTheSink() throws {
        // The third entry has an escape, which the scanner leaves to the tree path after
        // handing over the first two; the fourth is refused.
        let escaped = Self.replacing(#""reader-123456""#, #""reader-\u0031""#)
        let refused = Self.replacing(#""engagedMs":12000"#, #""engagedMs":-1"#)
        let body = Array("[\(Self.typical),\(Self.typical),\(escaped),\(refused)]".utf8)

        struct Tally: EventBatchSink {
            var readers: [String] = []
            var rejected = 0
            var restarts = 0
            mutating func accept(_ event: DecodedEvent) { readers.append(event.reader) }
            mutating func reject(_ error: APIError) { rejected += 1 }
            mutating func restart() {
                restarts += 1
                readers.removeAll()
                rejected = 0
            }
        }
        var tally = Tally()
        let single = try EventBatch.decode(body, format: .json, using: EventDecoder(), into: &tally)
        #expect(single == nil)
        #expect(tally.restarts == 1)
        #expect(tally.readers == ["reader-123456", "reader-123456", "reader-1"])
        #expect(tally.rejected == 1)
        #expect(Differential(String(decoding: body, as: UTF8.self)).mismatches.isEmpty)
    }

    @Test("a batch's article ids come back as the ids they are, whichever slot they share")
    func articleNames() {
        // Many more ids than slots, some shorter than a word, some differing only in the middle;
        // in the small table of a short body and the large one of a long body.
        let ids =
            (0..<300).map { "/blog/article-\($0)" } + (0..<50).map { "a\($0)" }
            + (0..<50).map { "/x/\($0)/" + String(repeating: "m", count: 20) + "/y" }
        for bodyBytes in [200, 1_000_000] {
            var names = ArticleNames(bodyBytes: bodyBytes)
            for round in 0..<3 {
                for id in ids + ids.reversed() {
                    let name = Array(id.utf8).withUnsafeBufferPointer { names.name(of: $0) }
                    #expect(name == id, "round \(round), body of \(bodyBytes) bytes")
                }
            }
        }
    }
}
