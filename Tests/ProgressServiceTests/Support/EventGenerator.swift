@testable import ProgressService

/// Writes random valid events in the plain form that `EventScanner` must read on its own —
/// printable ASCII strings without escapes, numbers without exponents and with at most 15
/// significant digits, only the members docs/api.md lists — with the members in any order, optional
/// ones absent, `null` or present, and white space anywhere white space may go.
struct EventGenerator {
    var random: SplitMix
    /// False for an NDJSON line, which must not hold a line feed.
    var allowsLineFeed = true

    init(seed: UInt64) {
        random = SplitMix(state: seed)
    }

    mutating func event() -> String {
        let axisName = pick([nil, "null", #""vertical""#, #""horizontal""#])
        let contentSize = (number(nonNegative: true), number(nonNegative: true))
        let horizontal = axisName == #""horizontal""#
        let content = Double(horizontal ? contentSize.0 : contentSize.1)!
        var members: [(String, String)] = [
            ("article", string(1...EventDecoder.articleMaxBytes)),
            ("contentOffset", object([("x", number()), ("y", number())])),
            ("contentSize", object([("width", contentSize.0), ("height", contentSize.1)])),
            (
                "containerSize",
                object([("width", number(nonNegative: true)), ("height", number(nonNegative: true))])
            ),
        ]
        if let axisName { members.append(("axis", axisName)) }
        // Mostly named, as apps name their readers; absent or `null`, the service derives one.
        if chance(3, in: 4) {
            members.append(("reader", string(1...EventDecoder.readerMaxBytes)))
        } else {
            optional(&members, "reader") { $0.string(1...EventDecoder.readerMaxBytes) }
        }
        optional(&members, "contentInsets") { generator in
            var edges: [(String, String)] = []
            for edge in ["top", "leading", "bottom", "trailing"] where generator.chance(1, in: 2) {
                edges.append(
                    (edge, generator.chance(1, in: 6) ? "null" : generator.number(nonNegative: true)))
            }
            return generator.object(edges)
        }
        if content >= 1 {
            optional(&members, "region") {
                let start = Int.random(in: 0..<Int(min(content, 1e12)), using: &$0.random)
                let end = Int.random(in: (start + 1)...Int(min(content, 1e12)), using: &$0.random)
                return $0.object([("start", "\(start)"), ("end", "\(end)")])
            }
        }
        optional(&members, "step") {
            $0.object([("index", $0.whole(0...1000)), ("total", $0.whole(1...1000))])
        }
        optional(&members, "indicator") {
            let track = Int.random(in: 1...10_000, using: &$0.random)
            return $0.object([("trackLength", "\(track)"), ("thumbLength", $0.whole(0...Int64(track)))])
        }
        let engagedMs =
            chance(1, in: 2) ? Int64.random(in: 0...EventDecoder.engagedMsMax, using: &random) : nil
        if let engagedMs {
            members.append(("engagedMs", "\(engagedMs)"))
        } else {
            optional(&members, "engagedMs") { _ in "null" }
        }
        optional(&members, "attention") { generator in
            let bands = (0..<20).map { _ in generator.whole(0...(engagedMs ?? 0)) }
            return "[" + bands.map { $0 + generator.space() }.joined(separator: ",") + "]"
        }
        optional(&members, "device") { $0.pick([#""phone""#, #""tablet""#, #""desktop""#, #""other""#]) }
        optional(&members, "source") { $0.string(1...100) }
        optional(&members, "time") { $0.time() }
        optional(&members, "id") { $0.string(1...EventDecoder.idMaxBytes) }
        return object(members.shuffled(using: &random))
    }

    /// `{"key":value,…}` with white space sprinkled in.
    mutating func object(_ members: [(String, String)]) -> String {
        var text = "{" + space()
        for (offset, (key, value)) in members.enumerated() {
            if offset > 0 { text += "," + space() }
            text += "\"\(key)\"" + space() + ":" + space() + value + space()
        }
        return text + "}"
    }

    mutating func space() -> String {
        guard chance(1, in: 4) else { return "" }
        return pick([" ", "  ", "\t", "\r", " \t "] + (allowsLineFeed ? ["\n", "\r\n  "] : []))
    }

    /// A number that `JSONParser.exactDecimal` converts: an integer, a decimal fraction, `-0`…
    mutating func number(nonNegative: Bool = false) -> String {
        let sign = !nonNegative && chance(1, in: 4) ? "-" : ""
        switch Int.random(in: 0..<10, using: &random) {
        case 0: return pick(["0", "-0", "0.0", "-0.0", "0.5", "1", "844", "390"])
        case 1...4: return sign + digits(Int.random(in: 1...6, using: &random))
        case 5: return sign + digits(Int.random(in: 7...15, using: &random))
        case 6:
            return sign + "0." + String(repeating: "0", count: Int.random(in: 0...6, using: &random))
                + digits(3)
        default:
            let whole = Int.random(in: 1...8, using: &random)
            let fraction = Int.random(in: 1...(15 - whole), using: &random)
            return sign + digits(whole) + "." + digits(fraction, leadingZero: true)
        }
    }

    /// A whole number in `range`, sometimes written as `5.0` (when that stays within 15 digits).
    mutating func whole(_ range: ClosedRange<Int64>) -> String {
        let value = Int64.random(in: range, using: &random)
        return "\(value)" + (value < 100_000_000_000_000 && chance(1, in: 8) ? ".0" : "")
    }

    /// A string of printable ASCII other than `"` and `\`, of a length in `bytes`, often a limit.
    mutating func string(_ bytes: ClosedRange<Int>) -> String {
        let count =
            chance(1, in: 8)
            ? pick([bytes.lowerBound, bytes.upperBound])
            : Int.random(in: bytes.lowerBound...min(bytes.upperBound, 24), using: &random)
        let characters = (0..<count).map { _ in
            var byte = UInt8.random(in: 0x20...0x7E, using: &random)
            if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") { byte = UInt8(ascii: "/") }
            return Character(Unicode.Scalar(byte))
        }
        return "\"" + String(characters) + "\""
    }

    /// An RFC 3339 string in any of its spellings, or whole epoch milliseconds.
    mutating func time() -> String {
        if chance(1, in: 4) { return whole(0...999_999_999_999_999) }
        let year = Int.random(in: 1970...2100, using: &random)
        let month = Int.random(in: 1...12, using: &random)
        let day = Int.random(in: 1...EventTime.daysInMonth(year, month), using: &random)
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        var text = "\(year)-\(two(month))-\(two(day))" + pick(["T", "t", " "])
        text +=
            "\(two(Int.random(in: 0...23, using: &random))):\(two(Int.random(in: 0...59, using: &random)))"
        text += ":" + two(Int.random(in: 0...60, using: &random))
        if chance(1, in: 3) { text += "." + digits(Int.random(in: 1...9, using: &random), leadingZero: true) }
        text += pick(["Z", "z", "+02:00", "-05:30", "+00:00"])
        return "\"\(text)\""
    }

    mutating func chance(_ times: Int, in outOf: Int) -> Bool {
        Int.random(in: 0..<outOf, using: &random) < times
    }

    mutating func pick<T>(_ choices: [T]) -> T {
        choices[Int.random(in: 0..<choices.count, using: &random)]
    }

    private mutating func digits(_ count: Int, leadingZero: Bool = false) -> String {
        String(
            (0..<count).map { position in
                let lowest = position == 0 && !leadingZero ? 1 : 0
                return Character(
                    Unicode.Scalar(UInt8(ascii: "0") + UInt8.random(in: UInt8(lowest)...9, using: &random)))
            })
    }

    /// Leaves an optional member out, sends it as `null`, or sends what `value` writes.
    private mutating func optional(
        _ members: inout [(String, String)], _ key: String, _ value: (inout EventGenerator) -> String
    ) {
        switch Int.random(in: 0..<6, using: &random) {
        case 0...2: break
        case 3: members.append((key, "null"))
        default: members.append((key, value(&self)))
        }
    }
}
