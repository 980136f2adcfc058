import Foundation
import ProgressCore
import ProgressStore
import Testing

@testable import ProgressService

@Suite("Decoding sections, attention, device and source")
struct EventPartsDecodingTests {
    static let valid = EventDecoderTests.valid

    func decode(_ members: String) throws(APIError) -> DecodedEvent {
        let text = String(Self.valid.dropLast()) + "," + members + "}"
        let value: JSONValue
        do {
            value = try JSONParser.parse(Array(text.utf8))
        } catch {
            throw .invalidJSON(error)
        }
        return try EventDecoder().decode(value)
    }

    static let twenty = Array(repeating: "0", count: 20).joined(separator: ",")

    @Test("sections, attention, device and source as sent, the source normalised")
    func valid() throws {
        let event = try decode(
            #""engagedMs":900,"attention":[900,5,"# + Array(repeating: "0", count: 18).joined(separator: ",")
                + #"],"sections":[{"title":"Intro","start":0,"words":120},{"title":"Méthodes 🧪","start":0.4}],"#
                + #""device":"tablet","source":"WWW.News.Example""#)
        #expect(event.attention == [900, 5] + Array(repeating: 0, count: 18))
        #expect(
            event.sections == [
                Section(title: "Intro", start: 0, words: 120), Section(title: "Méthodes 🧪", start: 0.4),
            ])
        #expect(event.device == .tablet)
        #expect(event.source == "news.example")
    }

    @Test("absent or null, they are nil; an empty map is a map")
    func absent() throws {
        let event = try decode(#""sections":null,"attention":null,"device":null,"source":null"#)
        #expect(event.sections == nil && event.attention == nil && event.device == nil && event.source == nil)
        #expect(try decode(#""sections":[]"#).sections == [])
    }

    @Test(
        "names the field at fault",
        arguments: [
            (#""sections":{}"#, "sections"),
            (#""sections":[1]"#, "sections[0]"),
            (#""sections":[{"start":0}]"#, "sections[0].title"),
            (#""sections":[{"title":"","start":0}]"#, "sections[0].title"),
            (#""sections":[{"title":"a\u0007","start":0}]"#, "sections[0].title"),
            (#""sections":[{"title":"a"}]"#, "sections[0].start"),
            (#""sections":[{"title":"a","start":1}]"#, "sections[0].start"),
            (#""sections":[{"title":"a","start":-0.1}]"#, "sections[0].start"),
            (#""sections":[{"title":"a","start":"0"}]"#, "sections[0].start"),
            (#""sections":[{"title":"a","start":0.5},{"title":"b","start":0.5}]"#, "sections[1].start"),
            (#""sections":[{"title":"a","start":0.5},{"title":"b","start":0.2}]"#, "sections[1].start"),
            (
                #""sections":[{"title":"a","start":0},{"title":"b","start":0.2,"words":1.5}]"#,
                "sections[1].words"
            ),
            (#""sections":[{"title":"a","start":0,"words":1000001}]"#, "sections[0].words"),
            (#""sections":[{"title":"a","start":0,"words":-1}]"#, "sections[0].words"),
            (#""attention":[0]"#, "attention"),
            (#""attention":"0""#, "attention"),
            (#""engagedMs":10,"attention":[0,0,0,0,0,0,0,11,0,0,0,0,0,0,0,0,0,0,0,0]"#, "attention[7]"),
            (#""attention":[0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,1]"#, "attention[19]"),
            (#""engagedMs":10,"attention":[0,0,-1,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0]"#, "attention[2]"),
            (#""engagedMs":10,"attention":[0,0,0.5,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0]"#, "attention[2]"),
            (#""engagedMs":10,"attention":[0,0,null,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0]"#, "attention[2]"),
            (#""attention":[0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0]"#, "attention"),
            (#""device":"watch""#, "device"),
            (#""device":"Phone""#, "device"),
            (#""device":1"#, "device"),
            (#""source":"""#, "source"),
            (#""source":"a\u0000b""#, "source"),
            (#""source":7"#, "source"),
        ])
    func namesTheField(members: String, field: String) {
        #expect {
            try decode(members)
        } throws: { error in
            (error as? APIError)?.field == field && (error as? APIError)?.code == "invalid_event"
        }
    }

    @Test("at most 64 sections, titles of at most 200 bytes, sources of at most 100")
    func limits() throws {
        func map(_ count: Int) -> String {
            "\"sections\":["
                + (0..<count).map { #"{"title":"s\#($0)","start":\#(Double($0) / 100)}"# }.joined(
                    separator: ",")
                + "]"
        }
        #expect(try decode(map(64)).sections?.count == 64)
        #expect { try decode(map(65)) } throws: { ($0 as? APIError)?.field == "sections" }
        let title = String(repeating: "字", count: 66) + "ab"  // 200 bytes
        #expect(try decode(#""sections":[{"title":"\#(title)","start":0}]"#).sections?[0].title == title)
        #expect {
            try decode(#""sections":[{"title":"\#(title)c","start":0}]"#)
        } throws: { ($0 as? APIError)?.field == "sections[0].title" }
        let source = String(repeating: "s", count: 100)
        #expect(try decode(#""source":"\#(source)""#).source == source)
        #expect { try decode(#""source":"\#(source)s""#) } throws: { ($0 as? APIError)?.field == "source" }
    }

    @Test(
        "sources are lower-cased, lose a leading www. and are never a URL",
        arguments: [
            ("newsletter", "newsletter"), ("Newsletter", "newsletter"), ("www.example.com", "example.com"),
            ("WWW.Example.COM", "example.com"), ("www.", "www."), ("wwwx.com", "wwwx.com"),
            ("ÉCOLE", "école"), ("example.com/secret-path?q=secret", "example.com"),
            ("https://WWW.Example.com/a?b#c", "example.com"), ("news.example?utm=x", "news.example"),
            ("campaign#part", "campaign"), ("example.com:8080/x", "example.com:8080"), ("/path", "(direct)"),
            ("?q", "(direct)"), ("https://", "(direct)"), ("a:b", "a:b"),
        ])
    func normalised(sent: String, kept: String) {
        #expect(ReaderSource.normalised(sent) == kept)
        #expect(ReaderSource.normalised(kept) == kept, "normalising twice changes nothing")
    }

    @Test(
        "device classes from a vertical container's width",
        arguments: [
            (0.0, DeviceClass.phone), (599.9, .phone), (600, .tablet), (1023.5, .tablet), (1024, .desktop),
        ])
    func deviceFromWidth(width: Double, device: DeviceClass) {
        #expect(DeviceClass(containerWidth: width) == device)
    }

    @Test("the scanner reads attention, device and source as the tree path does, and leaves sections to it")
    func scannerAgrees() {
        let bands = (1...20).map { "\($0)" }.joined(separator: ",")
        let bodies = [
            #""engagedMs":20,"attention":[\#(bands)],"device":"phone","source":"Example.org""#,
            #""attention":[\#(Self.twenty)],"source":"campaign-7""#,
            #""sections":[{"title":"Intro","start":0,"words":3}]"#,
            #""engagedMs":19,"attention":[\#(bands)]"#,
            #""device":"tv""#,
        ]
        for members in bodies {
            let body = String(Self.valid.dropLast()) + "," + members + "}"
            let outcome = Differential(body)
            #expect(outcome.mismatches.isEmpty, "\(outcome.mismatches)")
        }
        let plain = String(Self.valid.dropLast()) + ",\"engagedMs\":20,\"attention\":[\(bands)]}"
        #expect(Differential(plain).scannedJSON)
    }
}
