import Testing

@testable import ProgressService

@Suite("The strict JSON parser")
struct JSONParserTests {
    @Test(
        "accepts well-formed documents",
        arguments: [
            ("{}", JSONValue.object([])),
            ("[]", .array([])),
            (" {\"a\" : 1 } ", .object([("a", .number(1, isInteger: true))])),
            ("-0", .number(0, isInteger: true)),
            ("1.5e2", .number(150, isInteger: false)),
            ("1E-2", .number(0.01, isInteger: false)),
            ("\"\\u00e9\\n\\/\"", .string("é\n/")),
            ("\"\\ud83d\\ude00\"", .string("😀")),
            ("\"héllo\"", .string("héllo")),
            ("[true,false,null]", .array([.bool(true), .bool(false), .null])),
        ])
    func accepts(text: String, expected: JSONValue) throws {
        #expect(try JSONParser.parse(Array(text.utf8)) == expected)
    }

    @Test(
        "rejects what two parsers might read differently",
        arguments: [
            ("", "unexpected end of input"),
            ("{", "expected a string key"),
            ("[1,]", "unexpected character"),
            ("{\"a\":1,}", "expected a string key"),
            ("01", "leading zeros"),
            ("-", "expected a digit"),
            ("1.", "expected a digit after '.'"),
            ("1e", "expected a digit in the exponent"),
            ("1e999", "number out of range"),
            ("-1e999", "number out of range"),
            ("NaN", "unexpected character"),
            ("Infinity", "unexpected character"),
            ("nul", "invalid literal"),
            ("{} x", "unexpected text after"),
            ("\"a\u{01}\"", "control character"),
            ("\"\\ud800\"", "lone high surrogate"),
            ("\"\\udc00\"", "lone low surrogate"),
            ("\"\\ud800\\u0041\"", "not followed by a low one"),
            ("\"\\x\"", "unknown escape"),
            ("\"\\u12\"", "four hex digits"),
            ("{\"a\":1,\"a\":2}", "duplicate key"),
            ("'a'", "unexpected character"),
            ("\"abc", "unterminated string"),
        ])
    func rejects(text: String, reason: String) {
        #expect {
            try JSONParser.parse(Array(text.utf8))
        } throws: { error in
            (error as? JSONSyntaxError)?.message.contains(reason) == true
        }
    }

    @Test("rejects invalid UTF-8 inside strings")
    func rejectsInvalidUTF8() {
        for bytes: [UInt8] in [[0x22, 0xFF, 0x22], [0x22, 0xC3, 0x22], [0x22, 0xED, 0xA0, 0x80, 0x22]] {
            #expect(throws: JSONSyntaxError.self) { try JSONParser.parse(bytes) }
        }
    }

    @Test("bounds nesting instead of recursing 100,000 levels deep")
    func boundsNesting() {
        let deep =
            Array(repeating: UInt8(ascii: "["), count: 100_000)
            + Array(repeating: UInt8(ascii: "]"), count: 100_000)
        #expect {
            try JSONParser.parse(deep)
        } throws: { error in
            (error as? JSONSyntaxError)?.message.contains("nesting deeper") == true
        }
        let shallow = "[[[[[[[[[[1]]]]]]]]]]"
        #expect((try? JSONParser.parse(Array(shallow.utf8))) != nil)
    }

    @Test("reads every plain decimal exactly as strtod does")
    func decimalsMatchStrtod() throws {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next() -> UInt64 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return state >> 11
        }
        var texts = [
            "0", "-0", "0.1", "0.3", "2.675", "1844.5", "0.0000000000000000000001", "999999999999999",
            "9999999999999999", "123456789012345.6", "-0.000", "1e3", "4.35e-7",
        ]
        for _ in 0..<20_000 {
            let integer = next() % 100_000_000
            let fraction = next() % 10_000_000
            let width = Int(next() % 8)
            let fractionText = String(String(fraction).prefix(width))
            texts.append((next() % 2 == 0 ? "-" : "") + "\(integer)" + (width > 0 ? ".\(fractionText)" : ""))
        }
        for text in texts {
            guard case .number(let value, _) = try JSONParser.parse(Array(text.utf8)) else {
                Issue.record("\(text) is not a number")
                continue
            }
            let expected = Double(text)!
            #expect(value.bitPattern == expected.bitPattern, "\(text): \(value) ≠ \(expected)")
        }
    }

    @Test("refuses a 5,000-digit number without crashing")
    func refusesHugeNumbers() {
        let digits = "1" + String(repeating: "0", count: 4999)
        #expect(throws: JSONSyntaxError.self) { try JSONParser.parse(Array(digits.utf8)) }
    }
}

@Suite("The JSON writer")
struct JSONWriterTests {
    @Test("writes numbers shortest, whole numbers without a fraction, and escapes strings")
    func writes() {
        var w = JSONWriter()
        w.beginObject()
        w.key("a")
        w.number(1)
        w.key("b")
        w.number(0.25)
        w.key("c")
        w.string("q\"\\\n\u{01}é")
        w.key("d")
        w.beginArray()
        w.number(-0.5)
        w.null()
        w.bool(true)
        w.endArray()
        w.endObject()
        #expect(
            String(decoding: w.bytes, as: UTF8.self)
                == #"{"a":1,"b":0.25,"c":"q\"\\\n\u0001é","d":[-0.5,null,true]}"#)
    }

    @Test("writes every number as its description, and JSON reads it back to the same Double")
    func numbersRoundTrip() throws {
        var random = SystemRandomNumberGenerator()
        for index in 0..<20_000 {
            let value: Double
            switch index % 4 {
            case 0: value = Double.random(in: 0...1, using: &random)
            case 1: value = Double(bitPattern: random.next())
            case 2: value = Double.random(in: 0...1e-5, using: &random) * (index % 8 == 2 ? -1 : 1)
            default: value = Double(Int.random(in: 0...1_000_000, using: &random)) / 7
            }
            guard value.isFinite, value != value.rounded() || abs(value) >= 1e15 else { continue }
            var w = JSONWriter()
            w.number(value)
            let text = String(decoding: w.bytes, as: UTF8.self)
            #expect(text == value.description)
            guard case .number(let parsed, _) = try JSONParser.parse(w.bytes) else {
                Issue.record("\(text) is not a JSON number")
                continue
            }
            #expect(parsed == value, "\(text)")
        }
    }
}
