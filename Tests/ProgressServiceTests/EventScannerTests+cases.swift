import Foundation

@testable import ProgressService

/// The bodies the scanner must read on its own, and those it must leave to the tree path.
extension EventScannerTests {
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
        // No reader, or `null` for none: the service derives one.
        replacing(#""reader":"reader-123456","#, ""),
        replacing(#""reader":"reader-123456""#, #""reader":null"#),
    ]

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
}
