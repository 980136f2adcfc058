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

    @Test("reads the plain bodies on its own, exactly as the tree path does", arguments: scanned)
    func readsPlainBodies(text: String) {
        let outcome = Differential(text)
        #expect(outcome.mismatches.isEmpty, "\(outcome.mismatches)")
        #expect(outcome.scannedJSON)
    }

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
            #expect(scanned?.article == "" && scanned?.reader == nil)
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
            mutating func accept(_ event: DecodedEvent) { readers.append(event.reader ?? "") }
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
