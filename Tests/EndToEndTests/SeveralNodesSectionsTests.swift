import Foundation
import Testing

/// Sections and attention across two nodes of the real executable on one PostgreSQL: a map and
/// attention sent to one node are in the other's statistics within a second, and the latest
/// map by time wins whichever node it reached.
@Suite("Several nodes on one PostgreSQL: sections and attention", .enabled(if: Postgres.adminURI != nil))
struct SeveralNodesSectionsTests {
    private var now: Int64 { Int64(Date().timeIntervalSince1970 * 1000) }

    /// An event of reader `reader` at the top of a page twice the viewport's height (so its
    /// seen depth is 0.5) with `sections` and `attention` (JSON) added.
    private func event(reader: String, timeMs: Int64, sections: String?, attention: [Int]?) -> String {
        var json = String(
            Scenario.event(article: "/parts", reader: reader, y: 0, timeMs: timeMs, engagedMs: 1000)
                .dropLast())
        if let sections { json += ",\"sections\":\(sections)" }
        if let attention { json += ",\"attention\":[\(attention.map(String.init).joined(separator: ","))]" }
        return json + "}"
    }

    private func parts(_ node: ServerProcess) throws -> (attention: [Double], sections: [[String: Any]])? {
        let answer = try node.client().get("/v1/articles/\(Scenario.segment("/parts"))/stats")
        guard answer.status == 200, let attention = try answer.json["attention"] as? [Double],
            let sections = try answer.json["sections"] as? [[String: Any]]
        else { return nil }
        return (attention, sections)
    }

    @Test("a map and attention sent to one node are in the other's statistics within a second")
    func acrossNodes() throws {
        let uri = try Postgres.database(on: Postgres.adminURI!)
        let a = try ServerProcess(store: uri)
        let b = try ServerProcess(store: uri)
        let time = now
        let halfInView = (0..<20).map { $0 < 10 ? 1000 : 0 }
        let map =
            #"[{"title":"Introduction","start":0,"words":100},{"title":"Methods","start":0.5,"words":200}]"#
        let sent = try a.client().post(
            "/v1/events", json: event(reader: "r1", timeMs: time, sections: map, attention: halfInView))
        #expect(sent.status == 202, "\(sent.text)")
        #expect(
            try eventually(within: 1) { try parts(b)?.sections.count == 2 },
            "the map reached the other node")
        let seen = try #require(try parts(b))
        #expect(seen.attention == halfInView.map { Double($0) / 1000 })
        let intro = seen.sections[0]
        #expect(intro["title"] as? String == "Introduction" && intro["end"] as? Double == 0.5)
        #expect(intro["reached"] as? Double == 1 && intro["stoppedWithin"] as? Double == 0)
        #expect(intro["seconds"] as? Double == 10 && intro["wordsPerMinute"] as? Double == 600)
        let methods = seen.sections[1]
        #expect(methods["reached"] as? Double == 1 && methods["stoppedWithin"] as? Double == 1)
        #expect(methods["seconds"] as? Double == 0 && methods["wordsPerMinute"] is NSNull)

        // A later map through the other node replaces it; an earlier one through the first
        // does not, and its attention adds up.
        let later = #"[{"title":"Later","start":0}]"#
        #expect(
            try b.client().post(
                "/v1/events", json: event(reader: "r2", timeMs: time + 1000, sections: later, attention: nil)
            ).status == 202)
        let earlier = #"[{"title":"Earlier","start":0}]"#
        #expect(
            try a.client().post(
                "/v1/events",
                json: event(reader: "r3", timeMs: time - 1000, sections: earlier, attention: halfInView)
            ).status == 202)
        for node in [a, b] {
            #expect(
                try eventually(within: 1) {
                    try parts(node).map { $0.sections.map { $0["title"] as? String } == ["Later"] } ?? false
                }, "the latest map on both nodes")
            // Two readers' 2 s of attention over three readers.
            #expect(try parts(node)?.attention == halfInView.map { Double($0) * 2 / 1000 / 3 })
        }
    }
}
