import Foundation
import Testing

/// Sections and attention through the real service: three readers of one article over two
/// days, every figure worked out by hand below, read back over all time and over one day,
/// with either metric, and again after `kill -9`.
///
/// Geometry: content 2000, container 1000, so seenDepth = (y + 1000) / 2000. The map, sent by
/// r1: Intro at 0 (120 words), Results at 0.5 (600 words).
///
/// | reader | day | y    | depth | attention (ms)                              |
/// |--------|-----|------|-------|---------------------------------------------|
/// | r1     | -2  | 0    | 0.5   | bands 0–9: 3000 each                        |
/// | r2     | -2  | 1000 | 1     | every band: 1000                            |
/// | r3     | -1  | 200  | 0.6   | bands 0–11: 2000 each                       |
///
/// All time: bands 0–9 hold 6 s, 10–11 3 s, 12–19 1 s, ÷ 3 readers. Intro: reached 1, stopped
/// within 0 (0.5 is Results'), 18 s ÷ 3 = 6 s, 120 ÷ 0.1 min = 1200 wpm. Results: reached 1,
/// stopped within 2/3 (0.5 and 0.6; a depth of 1 is past the end), (6 + 8) s ÷ 3, 600 words in
/// that time. Day -1 alone: r3 only; Intro 20 s (360 wpm), Results 4 s (9000 wpm), stopped
/// within 1.
@Suite("Sections and attention, end to end")
struct SectionsEndToEndTests {
    static let article = "/guide/sections"

    static func event(_ reader: String, y: Double, daysAgo: Int, attention: [Int], sections: Bool = false)
        -> String
    {
        let time = Scenario.midnight(daysAgo: daysAgo) + 12 * 3_600_000
        var json = String(
            Scenario.event(
                article: article, reader: reader, y: y, timeMs: time, engagedMs: attention.max() ?? 0
            ).dropLast())
        json += ",\"attention\":[\(attention.map(String.init).joined(separator: ","))]"
        if sections {
            json +=
                #","sections":[{"title":"Intro","start":0,"words":120},{"title":"Results","start":0.5,"words":600}]"#
        }
        return json + "}"
    }

    static func post(_ client: HTTPClient) throws {
        let events = [
            event(
                "r1", y: 0, daysAgo: 2,
                attention: Array(repeating: 3000, count: 10) + Array(repeating: 0, count: 10), sections: true),
            event("r2", y: 1000, daysAgo: 2, attention: Array(repeating: 1000, count: 20)),
            event(
                "r3", y: 200, daysAgo: 1,
                attention: Array(repeating: 2000, count: 12) + Array(repeating: 0, count: 8)),
        ]
        let response = try client.post("/v1/events", json: "[" + events.joined(separator: ",") + "]")
        #expect(response.status == 202, "\(response.text)")
        #expect(try response.json["accepted"] as? Int == 3)
    }

    static func stats(_ client: HTTPClient, _ query: String) throws -> (
        attention: [Double], sections: [[String: Any]]
    ) {
        let response = try client.get("/v1/articles/\(Scenario.segment(article))/stats\(query)")
        #expect(response.status == 200, "\(response.text)")
        let json = try response.json
        return (json["attention"] as? [Double] ?? [], json["sections"] as? [[String: Any]] ?? [])
    }

    static func near(_ value: Any?, _ expected: Double) -> Bool {
        guard let value = value as? Double else { return false }
        return abs(value - expected) <= 1e-9 * max(1, abs(expected))
    }

    static func check(_ client: HTTPClient) throws {
        for metric in ["progress", "seenDepth"] {
            let all = try stats(client, "?metric=\(metric)")
            let bands = (0..<20).map { $0 < 10 ? 2 : $0 < 12 ? 1 : 1.0 / 3 }
            #expect(
                all.attention.count == 20 && zip(all.attention, bands).allSatisfy { near($0, $1) },
                "\(all.attention)")
            try #require(all.sections.count == 2)
            let (intro, results) = (all.sections[0], all.sections[1])
            #expect(intro["title"] as? String == "Intro" && results["title"] as? String == "Results")
            #expect(near(intro["start"], 0) && near(intro["end"], 0.5) && near(results["end"], 1))
            #expect(intro["words"] as? Int == 120 && results["words"] as? Int == 600)
            #expect(near(intro["reached"], 1) && near(intro["stoppedWithin"], 0))
            #expect(near(intro["seconds"], 6) && near(intro["wordsPerMinute"], 1200))
            #expect(near(results["reached"], 1) && near(results["stoppedWithin"], 2.0 / 3))
            #expect(
                near(results["seconds"], 14.0 / 3) && near(results["wordsPerMinute"], 600 / (14.0 / 3 / 60)))
        }
        let day = Scenario.date(daysAgo: 1)
        let one = try stats(client, "?metric=seenDepth&from=\(day)&to=\(day)")
        let bands = (0..<20).map { $0 < 12 ? 2.0 : 0 }
        #expect(
            one.attention.count == 20 && zip(one.attention, bands).allSatisfy { near($0, $1) },
            "\(one.attention)")
        try #require(one.sections.count == 2)
        #expect(near(one.sections[0]["reached"], 1) && near(one.sections[0]["stoppedWithin"], 0))
        #expect(near(one.sections[0]["seconds"], 20) && near(one.sections[0]["wordsPerMinute"], 360))
        #expect(near(one.sections[1]["stoppedWithin"], 1) && near(one.sections[1]["seconds"], 4))
        #expect(near(one.sections[1]["wordsPerMinute"], 9000))
    }

    @Test("the hand-worked figures over all time, with either metric and over one day, and after kill -9")
    func figures() throws {
        let folder = try TemporaryDirectory()
        let server = try ServerProcess(store: folder.sqliteStore)
        try Self.post(server.client())
        try Self.check(server.client())
        server.kill()
        let restarted = try ServerProcess(store: folder.sqliteStore)
        try Self.check(restarted.client())
        #expect(restarted.stop() == 0)
    }
}
