import Foundation
import ProgressCore
import Testing

@testable import ProgressService

@Suite("Decoding events field by field")
struct EventDecoderTests {
    static let valid =
        #"{"article":"/a","reader":"r","contentOffset":{"x":0,"y":250},"contentSize":{"width":10,"height":2000},"containerSize":{"width":10,"height":1000}}"#

    func decode(_ text: String, requireIdentity: Bool = true) throws(APIError) -> DecodedEvent {
        let value: JSONValue
        do {
            value = try JSONParser.parse(Array(text.utf8))
        } catch {
            throw .invalidJSON(error)
        }
        return try EventDecoder(requireIdentity: requireIdentity).decode(value)
    }

    @Test("a minimal event takes the defaults")
    func minimal() throws {
        let event = try decode(Self.valid)
        #expect(event.article == "/a")
        #expect(event.reader == "r")
        #expect(event.geometry.axis == .vertical)
        #expect(event.geometry.contentInsets == .zero)
        #expect(event.engagedMs == 0)
        #expect(event.timeMs == nil)
        #expect(event.id == nil)
    }

    @Test("null optional fields count as absent and unknown fields are ignored")
    func nullsAndUnknowns() throws {
        let text = Self.valid.dropLast() + #","axis":null,"region":null,"step":null,"whatever":[1,{"x":2}]}"#
        let event = try decode(String(text))
        #expect(event.geometry.region == nil)
    }

    @Test(
        "names the field at fault",
        arguments: [
            (#"{"reader":"r"}"#, "article"),
            (#"{"article":"","reader":"r"}"#, "article"),
            (#"{"article":"a\u0007","reader":"r"}"#, "article"),
            (#"{"article":"a\u0085","reader":"r"}"#, "article"),
            (#"{"article":1,"reader":"r"}"#, "article"),
            (#"{"article":"a","reader":""}"#, "reader"),
            (#"{"article":"a","reader":"r\u007f"}"#, "reader"),
            (#"{"article":"a","reader":7}"#, "reader"),
            (#"{"article":"a","reader":"r","axis":"diagonal"}"#, "axis"),
            (#"{"article":"a","reader":"r"}"#, "contentOffset"),
            (#"{"article":"a","reader":"r","contentOffset":[0,1]}"#, "contentOffset"),
            (#"{"article":"a","reader":"r","contentOffset":{"x":0}}"#, "contentOffset.y"),
            (#"{"article":"a","reader":"r","contentOffset":{"x":"0","y":0}}"#, "contentOffset.x"),
        ])
    func namesTheField(text: String, field: String) {
        #expect {
            try decode(text)
        } throws: { error in
            (error as? APIError)?.field == field && (error as? APIError)?.status == 400
        }
    }

    @Test(
        "checks every rule of an event's fields",
        arguments: [
            (#""contentSize":{"width":10,"height":-1}"#, "contentSize.height"),
            (#""contentInsets":{"top":-1}"#, "contentInsets.top"),
            (#""region":{"start":5,"end":5}"#, "region"),
            (#""region":{"start":0,"end":2001}"#, "region.end"),
            (#""step":{"index":-1,"total":3}"#, "step.index"),
            (#""step":{"index":1,"total":0}"#, "step.total"),
            (#""step":{"index":1.5,"total":3}"#, "step.index"),
            (#""indicator":{"trackLength":0,"thumbLength":0}"#, "indicator.trackLength"),
            (#""indicator":{"trackLength":10,"thumbLength":11}"#, "indicator.thumbLength"),
            (#""engagedMs":-1"#, "engagedMs"),
            (#""engagedMs":86400001"#, "engagedMs"),
            (#""engagedMs":1.5"#, "engagedMs"),
            (#""time":"yesterday""#, "time"),
            (#""time":true"#, "time"),
            (#""id":"""#, "id"),
            (#""id":"0123456789012345678901234567890123456789012345678901234567890123456789""#, "id"),
        ])
    func rules(member: String, field: String) {
        let text = Self.valid.replacingOccurrences(
            of: #""contentSize":{"width":10,"height":2000}"#,
            with: member.hasPrefix(#""contentSize""#)
                ? member : #""contentSize":{"width":10,"height":2000},"# + member)
        #expect {
            try decode(text)
        } throws: { error in
            (error as? APIError)?.field == field
        }
    }

    @Test("string limits count bytes, not characters")
    func byteLimits() throws {
        let article = String(repeating: "é", count: 128)  // 256 bytes
        _ = try decode(Self.valid.replacingOccurrences(of: #""/a""#, with: "\"\(article)\""))
        #expect(throws: APIError.self) {
            try decode(Self.valid.replacingOccurrences(of: #""/a""#, with: "\"\(article)x\""))
        }
    }

    @Test("/v1/progress needs no article or reader")
    func progressNeedsNoIdentity() throws {
        let text =
            #"{"contentOffset":{"x":0,"y":0},"contentSize":{"width":1,"height":1},"containerSize":{"width":1,"height":1}}"#
        #expect(throws: APIError.self) { try decode(text) }
        _ = try decode(text, requireIdentity: false)
    }
}
