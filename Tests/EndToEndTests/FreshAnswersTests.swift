import Foundation
import Testing

/// Stats answers may be reused while an article is unchanged; these tests make sure a change
/// always shows in the very next answer.
@Suite("Stats answers follow every change")
struct FreshAnswersTests {
    @Test("the same question asked after each new event gets the new figures")
    func everyChangeShows() throws {
        let server = try ServerProcess(store: "memory:")
        let client = server.client()
        let time = Scenario.midnight(daysAgo: 1) + 3_600_000
        let path = "/v1/articles/\(Scenario.segment("/fresh"))/stats"
        for (index, y) in [100.0, 300, 700, 1000].enumerated() {
            let posted = try client.post(
                "/v1/events", json: Scenario.event(article: "/fresh", reader: "r\(index)", y: y, timeMs: time)
            )
            #expect(posted.status == 202)
            for query in ["", "?threshold=0.5", "?metric=seenDepth"] {
                let stats = try client.get(path + query).json
                #expect(stats["readers"] as? Int == index + 1, "after event \(index), query '\(query)'")
                #expect(stats["events"] as? Int == index + 1)
            }
            // Asked twice in a row, the answer is the same.
            #expect(try client.get(path).body == client.get(path).body)
        }
        // A repeat of an id changes nothing, so the answer stays byte for byte.
        let before = try client.get(path).body
        let event = Scenario.event(article: "/fresh", reader: "r9", y: 10, timeMs: time, id: "once")
        #expect(try client.post("/v1/events", json: event).status == 202)
        let afterFirst = try client.get(path).body
        #expect(afterFirst != before)
        #expect(try client.post("/v1/events", json: event).status == 202)
        #expect(try client.get(path).body == afterFirst)
        #expect(server.stop() == 0)
    }
}
