import Testing

@testable import ProgressService

/// Thousands of generated bodies, every one decoded by `EventBatch.decode` and by the tree path
/// alone in all four ways the routes decode (`Differential`). The seeds are fixed, so every run
/// checks the same bodies.
@Suite("Reading events straight from the bytes, against the tree path, on random bodies")
struct EventScannerRandomTests {
    @Test("the scanner reads every random valid event, exactly as the tree path does")
    func validEvents() {
        var generator = EventGenerator(seed: 1)
        var mismatches: [String] = []
        var unscanned: [String] = []
        for _ in 0..<2000 {
            let text = generator.event()
            let outcome = Differential(text)
            mismatches += outcome.mismatches
            if !outcome.scannedJSON { unscanned.append(text) }
        }
        #expect(mismatches.isEmpty, "\(mismatches.prefix(3))")
        #expect(unscanned.isEmpty, "\(unscanned.prefix(3))")
    }

    @Test("whatever the scanner reads of a mutated event, it reads as the tree path does")
    func mutatedEvents() {
        var generator = EventGenerator(seed: 2)
        var mismatches: [String] = []
        var scanned = 0
        var valid = 0
        let count = 6000
        for _ in 0..<count {
            let body = generator.mutate(generator.event())
            let outcome = Differential(body)
            mismatches += outcome.mismatches
            if outcome.scannedJSON { scanned += 1 }
            if (try? EventBatch.decodeByTree(body, format: .json, using: EventDecoder())) != nil {
                valid += 1
            }
        }
        #expect(mismatches.isEmpty, "\(mismatches.prefix(3))")
        // Both sides of the fence get exercised: mutants the scanner reads (a changed digit, a
        // moved space), valid ones it leaves to the tree (an exponent, an escape), broken ones.
        #expect(scanned > count / 20)
        #expect(valid > scanned + count / 50)
        #expect(valid < count - count / 4)
    }

    @Test("arrays and NDJSON bodies of random events, valid and mutated")
    func batches() {
        var generator = EventGenerator(seed: 3)
        generator.allowsLineFeed = false
        var mismatches: [String] = []
        for round in 0..<400 {
            let mutated = round % 2 == 1
            var events: [[UInt8]] = []
            for _ in 0..<Int.random(in: 1...8, using: &generator.random) {
                let event = generator.event()
                events.append(
                    mutated && generator.chance(1, in: 3)
                        ? generator.mutate(event).filter { $0 != 0x0A } : Array(event.utf8))
            }
            let array =
                Array("[".utf8) + Array(events.joined(separator: Array(",\n ".utf8))) + Array("]".utf8)
            var lines: [UInt8] = []
            for event in events {
                lines += Array(generator.pick(["", "\n", " \t\r\n", "\r\n\n"]).utf8) + event
                lines += Array(generator.pick(["\n", "\r\n", " \n"]).utf8)
            }
            let arrayOutcome = Differential(array)
            let linesOutcome = Differential(lines)
            mismatches += arrayOutcome.mismatches + linesOutcome.mismatches
            if !mutated {
                #expect(arrayOutcome.scannedJSON, "\(String(decoding: array, as: UTF8.self))")
                #expect(linesOutcome.scannedLines == events.count && linesOutcome.lines == events.count)
            }
        }
        #expect(mismatches.isEmpty, "\(mismatches.prefix(3))")
    }
}

extension EventGenerator {
    /// What a mutation may insert: the bytes of JSON syntax, numbers the exact path does not
    /// take, escapes, non-ASCII, members that repeat or that the scanner does not know.
    static let insertions = [
        "e2", "E-7", "e400", ".0", "0", "00", "-", "+", ".", "\"", "\\", "\\u0041", "\\n", "\\/", "é",
        "\u{85}",
        "\u{7F}", ",", ":", "{", "}", "[", "]", "null", "true", " ", "\t", "\n", "\r", "\u{0}",
        #""x":1,"#, #""top":2,"#, #""height":null,"#, #""article":"a","#, #""reader":"r","#,
        #""extra":{},"#, #""id":"i","#, #""engagedMs":5.0,"#, #""axis":"horizontal","#, #""time":1,"#,
        "1e2", "5.0", "-0", "0.1", "123456789012345678", "1.7976931348623157e309",
    ]

    /// Numbers to put in place of one, in and out of the exact path.
    static let numbers = [
        "0", "-0", "5.0", "0.1", "1e2", "1E-7", "-1e-400", "1e400", "123456789012345", "1234567890123456",
        "0.30000000000000004", "86400000", "86400001", "2147483648", "-1", "9e15", "8999999999999999",
        "\"1\"", "null", "true", "{}", "[]",
    ]

    /// One to three random changes to an event's bytes.
    mutating func mutate(_ text: String) -> [UInt8] {
        var bytes = Array(text.utf8)
        for _ in 0..<pick([1, 1, 1, 1, 1, 1, 2, 2, 2, 3]) {
            let at = Int.random(in: 0...bytes.count, using: &random)
            switch Int.random(in: 0..<8, using: &random) {
            case 0 where at < bytes.count: bytes.remove(at: at)
            case 1 where at < bytes.count: bytes[at] = UInt8.random(in: 0...255, using: &random)
            case 2: bytes.insert(contentsOf: Array(pick(Self.insertions).utf8), at: at)
            case 3: bytes.removeSubrange(at...)
            case 4:
                let from = Int.random(in: 0...bytes.count, using: &random)
                let length = Int.random(in: 0...min(40, bytes.count - from), using: &random)
                bytes.insert(contentsOf: Array(bytes[from..<(from + length)]), at: at)
            case 5:
                // A member more, right after an opening brace or a comma.
                let places = bytes.indices.filter {
                    bytes[$0] == UInt8(ascii: "{") || bytes[$0] == UInt8(ascii: ",")
                }
                guard let place = places.isEmpty ? nil : pick(places) else { break }
                bytes.insert(
                    contentsOf: Array(pick(Self.insertions.filter { $0.hasSuffix(",") }).utf8), at: place + 1)
            case 6:
                // A bracket, comma, colon or quote dropped, doubled or replaced by another.
                let structural = Array("{}[],:\"".utf8)
                let places = bytes.indices.filter { structural.contains(bytes[$0]) }
                guard let place = places.isEmpty ? nil : pick(places) else { break }
                switch Int.random(in: 0..<3, using: &random) {
                case 0: bytes.remove(at: place)
                case 1: bytes.insert(bytes[place], at: place)
                default: bytes[place] = pick(structural)
                }
            default:
                // Another number in place of one.
                let starts = bytes.indices.filter { isNumberStart(bytes, $0) }
                guard let start = starts.isEmpty ? nil : pick(starts) else { break }
                var end = start + 1
                while end < bytes.count, isNumberByte(bytes[end]) { end += 1 }
                bytes.replaceSubrange(start..<end, with: Array(pick(Self.numbers).utf8))
            }
        }
        return bytes
    }

    private func isNumberStart(_ bytes: [UInt8], _ index: Int) -> Bool {
        index > 0 && bytes[index - 1] == UInt8(ascii: ":") && isNumberByte(bytes[index])
    }

    private func isNumberByte(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "-")
            || byte == UInt8(ascii: ".")
    }
}
