import Foundation
import Testing

@testable import ProgressService

/// Decoding speed of the ingest bodies, for a person to read rather than for CI to judge: off
/// unless `DECODE_BENCH` is set, and meaningful only in an optimised build —
///
///     swift build -c release -Xswiftc -enable-testing --build-tests --scratch-path .build/bench
///     DECODE_BENCH=1 .build/bench/release/ReadingProgressPackageTests.xctest \
///         --testing-library swift-testing --filter DecodeBenchmark
///
/// Valgrind 3.19 dies loading this test binary, so instructions are counted on the fuzz
/// replayer of the same build, which decodes each file three ways (JSON, NDJSON, JSON without
/// identity): with one body copied into `one/` once and into `many/` 201 times,
///
///     valgrind --tool=callgrind --callgrind-out-file=/dev/null \
///         --toggle-collect='*EventBatchO6decode_6format*Tf4nnnd_n' \
///         .build/bench/release/event-fuzzer many/        # and again with one/
///
/// (`nm` names the specialised `EventBatch.decode` the probe calls), one decoding costs the
/// difference between the two counts divided by 600; the same with
/// `*EventBatchO12decodeByTree*Tf4nnnd_n` counts the tree path alone.
@Suite("Decoding speed (set DECODE_BENCH to run)")
struct DecodeBenchmark {
    /// One event as `scripts/bench.d/single.lua` sends it.
    static let single = Array(
        #"{"article":"/blog/article-42","reader":"reader-123456","contentOffset":{"x":0,"y":1234},"contentSize":{"width":390,"height":5000},"containerSize":{"width":390,"height":844},"contentInsets":{"top":47,"bottom":34},"engagedMs":12000}"#
            .utf8)

    /// Events like the single one, each with its own reader, offset and engaged time.
    static func event(_ index: Int) -> String {
        #"{"article":"/blog/article-\#(index % 50)","reader":"reader-\#(100_000 + index)","contentOffset":{"x":0,"y":\#(index * 7 % 4000).5},"contentSize":{"width":390,"height":5000},"containerSize":{"width":390,"height":844},"contentInsets":{"top":47,"bottom":34},"engagedMs":\#(index * 13 % 60000)}"#
    }

    static let array = Array(("[" + (0..<1000).map(event).joined(separator: ",") + "]").utf8)
    static let lines = Array(((0..<1000).map(event).joined(separator: "\n") + "\n").utf8)

    @Test(.enabled(if: ProcessInfo.processInfo.environment["DECODE_BENCH"] != nil))
    func throughput() throws {
        report("single event", events: 1, rounds: 200_000, body: Self.single, format: .json)
        report("1000-event JSON array", events: 1000, rounds: 400, body: Self.array, format: .json)
        report("1000-line NDJSON", events: 1000, rounds: 400, body: Self.lines, format: .ndjson)
    }

    private func report(_ name: String, events: Int, rounds: Int, body: [UInt8], format: BodyFormat) {
        var best = Double.infinity
        for _ in 0..<5 {
            let start = ContinuousClock.now
            var accepted = 0
            for _ in 0..<rounds {
                switch try? EventBatch.decode(body, format: format, using: EventDecoder()) {
                case .single?: accepted += 1
                case .many(let entries)?:
                    accepted += entries.count {
                        if case .success = $0 { true } else { false }
                    }
                case nil: break
                }
            }
            let elapsed = start.duration(to: .now)
            precondition(accepted == events * rounds, "\(name): \(accepted) of \(events * rounds) decoded")
            let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
            best = min(best, seconds)
        }
        let perEvent = best / Double(events * rounds)
        print(
            "\(name): \(String(format: "%.0f", perEvent * 1e9)) ns/event, "
                + "\(String(format: "%.2f", 1 / perEvent / 1e6)) M events/s (best of 5)")
    }
}
