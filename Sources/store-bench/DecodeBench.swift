import ProgressService

/// How fast the ingest route turns bodies into the records it hands the store: one event as
/// `scripts/bench.d/single.lua` sends it, and 1000 events as a JSON array and as NDJSON.
enum DecodeBench {
    static let single = Array(
        #"{"article":"/blog/article-42","reader":"reader-123456","contentOffset":{"x":0,"y":1234},"contentSize":{"width":390,"height":5000},"containerSize":{"width":390,"height":844},"contentInsets":{"top":47,"bottom":34},"engagedMs":12000}"#
            .utf8)

    /// Events like the single one, each with its own reader, offset and engaged time.
    static func event(_ index: Int) -> String {
        #"{"article":"/blog/article-\#(index % 50)","reader":"reader-\#(100_000 + index)","contentOffset":{"x":0,"y":\#(index * 7 % 4000).5},"contentSize":{"width":390,"height":5000},"containerSize":{"width":390,"height":844},"contentInsets":{"top":47,"bottom":34},"engagedMs":\#(index * 13 % 60000)}"#
    }

    static func run() {
        let array = Array(("[" + (0..<1000).map(event).joined(separator: ",") + "]").utf8)
        let lines = Array(((0..<1000).map(event).joined(separator: "\n") + "\n").utf8)
        report("single event", events: 1, rounds: 200_000, body: single, ndjson: false)
        report("1000-event JSON array", events: 1000, rounds: 400, body: array, ndjson: false)
        report("1000-line NDJSON", events: 1000, rounds: 400, body: lines, ndjson: true)
    }

    /// The best of five runs of `rounds` decodings of `body`, per event.
    private static func report(_ name: String, events: Int, rounds: Int, body: [UInt8], ndjson: Bool) {
        // Any time in range will do: the events carry none.
        let nowMs: Int64 = 1_796_040_000_000
        var best = Double.infinity
        for _ in 0..<5 {
            var valid = 0
            let elapsed = timed {
                for _ in 0..<rounds {
                    valid += IngestDecoding.validEvents(in: body, ndjson: ndjson, nowMs: nowMs)
                }
            }
            check(valid == events * rounds, "\(name): \(valid) of \(events * rounds) events decoded")
            best = min(best, elapsed.wall)
        }
        let perEvent = best / Double(events * rounds)
        print(
            "decode \(name): \(figure(perEvent * 1e9, 0)) ns an event, "
                + "\(figure(1 / perEvent / 1e6, 2)) M events/s (best of 5)")
    }
}
