import Foundation
import Testing

/// Hundreds of readers over four days, sent as JSON batches and NDJSON, checked against a
/// plain reference computation written here from the words of docs/api.md ("Statistics of one
/// article"), not from the server's code.
@Suite("Many readers over several days, against a reference computation")
struct ManyReadersTests {
    struct Event {
        var article: String
        var reader: String
        var day: Int
        var y: Double
        var scrollable: Bool
        var engagedMs: Int
        var timeMs: Int64

        var progress: Double { scrollable ? y / 1000 : 0 }
        var seen: Double { scrollable ? (y + 1000) / 2000 : 1 }
        var json: String {
            Scenario.event(
                article: article, reader: reader, y: y, contentHeight: scrollable ? 2000 : 900,
                timeMs: timeMs,
                engagedMs: engagedMs)
        }
    }

    /// A fixed pseudo-random sequence, so a failure can be replayed.
    struct Generator {
        var state: UInt64
        mutating func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
    }

    static func events() -> [Event] {
        var random = Generator(state: 2026)
        var events: [Event] = []
        let articles = ["/news/a", "/blog/b/c", "ü/€"]
        for n in 0..<2400 {
            let day = 1 + random.next(4)
            let timeMs = Scenario.midnight(daysAgo: day) + Int64(random.next(86_400_000))
            events.append(
                Event(
                    article: articles[random.next(3)], reader: "reader-\(random.next(400))", day: day,
                    y: Double(random.next(1001)), scrollable: random.next(10) != 0,
                    engagedMs: random.next(60_000),
                    timeMs: timeMs + Int64(n % 7)))
        }
        return events
    }

    /// The statistics as docs/api.md defines them, computed the plain way.
    static func expected(
        _ events: [Event], article: String, metric: String = "progress", threshold: Double = 0.9,
        minEngagedSeconds: Double = 0, days: ClosedRange<Int>? = nil
    ) -> [String: Any] {
        let mine = events.filter { $0.article == article && (days?.contains($0.day) ?? true) }
        var depth: [String: Double] = [:]
        var scrollable: [String: Bool] = [:]
        var engaged: [String: Int] = [:]
        for event in mine {
            let value = metric == "progress" ? event.progress : event.seen
            depth[event.reader] = max(depth[event.reader] ?? 0, value)
            scrollable[event.reader] = (scrollable[event.reader] ?? false) || event.scrollable
            engaged[event.reader, default: 0] += event.engagedMs
        }
        let readers = depth.keys.sorted()
        let counted = readers.filter { metric != "progress" || scrollable[$0]! }
        let depths = counted.map { depth[$0]! }.sorted()
        let completed = counted.filter {
            depth[$0]! >= threshold && Double(engaged[$0]!) / 1000 >= minEngagedSeconds
        }.count
        func rank(_ q: Double) -> Double {
            depths.isEmpty ? 0 : depths[Int((q * Double(depths.count)).rounded(.up)) - 1]
        }
        let total = Double(mine.reduce(0) { $0 + $1.engagedMs }) / 1000
        return [
            "readers": readers.count,
            // Whatever the metric: with seenDepth they also count in the depth figures.
            "unscrollableReaders": readers.filter { !scrollable[$0]! }.count,
            "events": mine.count,
            "completed": completed,
            "rate": counted.isEmpty ? 0 : Double(completed) / Double(counted.count),
            "mean": depths.isEmpty ? 0 : depths.reduce(0, +) / Double(depths.count),
            "p25": rank(0.25), "median": rank(0.5), "p75": rank(0.75),
            "reach": (0...100).map { k in
                counted.isEmpty
                    ? 0 : Double(depths.filter { $0 >= Double(k) / 100 }.count) / Double(depths.count)
            },
            "total": total,
            "meanPerReader": readers.isEmpty ? 0 : total / Double(readers.count),
            "first": mine.map(\.timeMs).min().map(Scenario.rfc3339) as Any,
            "last": mine.map(\.timeMs).max().map(Scenario.rfc3339) as Any,
        ]
    }

    static func compare(_ actual: [String: Any], _ expected: [String: Any], _ label: String) throws {
        let completion = try #require(actual["completion"] as? [String: Any])
        let depth = try #require(actual["depth"] as? [String: Any])
        let engaged = try #require(actual["engagedSeconds"] as? [String: Any])
        func close(_ a: Any?, _ b: Any?, _ what: String) {
            let x = (a as? Double) ?? -1
            let y = (b as? Double) ?? -2
            #expect(abs(x - y) < 1e-9, "\(label) \(what): \(x) ≠ \(y)")
        }
        #expect(actual["readers"] as? Int == expected["readers"] as? Int, "\(label) readers")
        #expect(actual["unscrollableReaders"] as? Int == expected["unscrollableReaders"] as? Int, "\(label)")
        #expect(actual["events"] as? Int == expected["events"] as? Int, "\(label) events")
        #expect(completion["completed"] as? Int == expected["completed"] as? Int, "\(label) completed")
        close(completion["rate"], expected["rate"], "rate")
        close(depth["mean"], expected["mean"], "mean")
        close(depth["p25"], expected["p25"], "p25")
        close(depth["median"], expected["median"], "median")
        close(depth["p75"], expected["p75"], "p75")
        close(engaged["total"], expected["total"], "engaged total")
        close(engaged["meanPerReader"], expected["meanPerReader"], "engaged mean")
        let reach = try #require(actual["reach"] as? [Double])
        let expectedReach = try #require(expected["reach"] as? [Double])
        #expect(reach.count == 101)
        for (k, (a, b)) in zip(reach, expectedReach).enumerated() where abs(a - b) > 1e-9 {
            Issue.record("\(label) reach[\(k)]: \(a) ≠ \(b)")
        }
        #expect(actual["firstEventAt"] as? String == expected["first"] as? String, "\(label) first")
        #expect(actual["lastEventAt"] as? String == expected["last"] as? String, "\(label) last")
    }

    @Test("every figure of every article and range matches the reference")
    func matchesReference() throws {
        let events = Self.events()
        let folder = try TemporaryDirectory()
        let server = try ServerProcess(store: folder.sqliteStore)
        let client = server.client()
        // The first half as JSON arrays of 400, the second half as NDJSON.
        for chunk in stride(from: 0, to: 1200, by: 400) {
            let body = "[" + events[chunk..<(chunk + 400)].map(\.json).joined(separator: ",") + "]"
            let response = try client.post("/v1/events", json: body)
            #expect(response.status == 202)
            #expect(try response.json["accepted"] as? Int == 400)
        }
        let ndjson = events[1200...].map(\.json).joined(separator: "\n") + "\n"
        for part in [ndjson] {
            let lines = part.split(separator: "\n")
            for chunk in stride(from: 0, to: lines.count, by: 600) {
                let body = lines[chunk..<min(chunk + 600, lines.count)].joined(separator: "\n")
                let response = try client.post("/v1/events", json: body, contentType: "application/x-ndjson")
                #expect(response.status == 202, "\(response.text)")
            }
        }

        func check(_ label: String) throws {
            for article in ["/news/a", "/blog/b/c", "ü/€"] {
                let path = "/v1/articles/\(Scenario.segment(article))/stats"
                try Self.compare(
                    try client.get(path).json, Self.expected(events, article: article), "\(label) \(article)")
                try Self.compare(
                    try client.get(path + "?metric=seenDepth&threshold=0.8").json,
                    Self.expected(events, article: article, metric: "seenDepth", threshold: 0.8),
                    "\(label) \(article) seenDepth")
                try Self.compare(
                    try client.get(path + "?minEngagedSeconds=45&threshold=0.5").json,
                    Self.expected(events, article: article, threshold: 0.5, minEngagedSeconds: 45),
                    "\(label) \(article) engaged")
                let range = "?from=\(Scenario.date(daysAgo: 3))&to=\(Scenario.date(daysAgo: 2))"
                try Self.compare(
                    try client.get(path + range).json, Self.expected(events, article: article, days: 2...3),
                    "\(label) \(article) days 3…2")
            }
        }
        try check("live")
        #expect(server.stop() == 0)
        let restarted = try ServerProcess(store: folder.sqliteStore)
        let again = restarted.client()
        for article in ["/news/a", "/blog/b/c", "ü/€"] {
            try Self.compare(
                try again.get("/v1/articles/\(Scenario.segment(article))/stats").json,
                Self.expected(events, article: article), "restarted \(article)")
        }
        #expect(restarted.stop() == 0)
    }
}
