import Foundation
import Testing

/// docs/api.md, "Idempotency by id": an event id seen in the last 24 hours is acknowledged
/// (202) and not counted again — within its article and reader, and across restarts of the
/// service.
@Suite("Event ids, end to end")
struct IdempotencyTests {
    static func event(_ article: String, _ reader: String, id: String, y: Double = 400) -> String {
        Scenario.event(
            article: article, reader: reader, y: y, timeMs: Int64(Date().timeIntervalSince1970 * 1000),
            engagedMs: 1000, id: id)
    }

    static func stats(_ client: HTTPClient, _ article: String) throws -> [String: Any] {
        let response = try client.get("/v1/articles/\(Scenario.segment(article))/stats")
        #expect(response.status == 200, "\(response.text)")
        return try response.json
    }

    /// `reading_progress_store_recent_ids` from `/metrics`.
    static func rememberedIDs(_ client: HTTPClient) throws -> Double? {
        let prefix = "reading_progress_store_recent_ids "
        let line = try client.get("/metrics").text.split(separator: "\n").first { $0.hasPrefix(prefix) }
        return line.flatMap { Double($0.dropFirst(prefix.count)) }
    }

    @Test("a repeated id is acknowledged and not counted again, also after a kill -9 and restart")
    func repeatsAcrossRestarts() throws {
        let folder = try TemporaryDirectory()
        let server = try ServerProcess(store: folder.sqliteStore)
        let client = server.client()

        let first = try client.post("/v1/events", json: Self.event("/idem/a", "r1", id: "evt-1"))
        #expect(first.status == 202)
        #expect(try first.json["duplicate"] == nil)
        // A repeat with other figures is still the same event: the first one's figures stand.
        let repeated = try client.post("/v1/events", json: Self.event("/idem/a", "r1", id: "evt-1", y: 1000))
        #expect(repeated.status == 202)
        #expect(try repeated.json["accepted"] as? Int == 1)
        #expect(try repeated.json["duplicate"] as? Bool == true)

        // Ids are scoped to article and reader: the same id elsewhere is another event.
        #expect(try client.post("/v1/events", json: Self.event("/idem/a", "r2", id: "evt-1")).status == 202)
        #expect(try client.post("/v1/events", json: Self.event("/idem/b", "r1", id: "evt-1")).status == 202)

        let batch = [
            Self.event("/idem/a", "r1", id: "evt-1"), Self.event("/idem/a", "r1", id: "evt-2"),
            Self.event("/idem/a", "r1", id: "evt-2"),
        ]
        let batchAnswer = try client.post("/v1/events", json: "[" + batch.joined(separator: ",") + "]")
        #expect(batchAnswer.status == 202)
        #expect(try batchAnswer.json["accepted"] as? Int == 3)
        #expect(try batchAnswer.json["duplicates"] as? Int == 2)
        let ndjson = try client.post(
            "/v1/events", json: batch.joined(separator: "\n"), contentType: "application/x-ndjson")
        #expect(try ndjson.json["duplicates"] as? Int == 3)

        let a = try Self.stats(client, "/idem/a")
        #expect(a["events"] as? Int == 3)  // r1: evt-1, evt-2; r2: evt-1
        #expect(a["readers"] as? Int == 2)
        #expect((a["engagedSeconds"] as? [String: Any])?["total"] as? Double == 3)
        #expect((a["depth"] as? [String: Any])?["mean"] as? Double == 0.4)
        #expect(try Self.stats(client, "/idem/b")["events"] as? Int == 1)
        let before = try StatisticsSnapshot.take(client, articles: ["/idem/a", "/idem/b"])
        // /idem/a: r1 evt-1 and evt-2, r2 evt-1; /idem/b: r1 evt-1.
        #expect(try Self.rememberedIDs(client) == 4)

        server.kill()
        let restarted = try ServerProcess(store: folder.sqliteStore)
        let again = restarted.client()
        #expect(try StatisticsSnapshot.take(again, articles: ["/idem/a", "/idem/b"]) == before)
        for (article, reader, id) in [
            ("/idem/a", "r1", "evt-1"), ("/idem/a", "r1", "evt-2"), ("/idem/b", "r1", "evt-1"),
        ] {
            let answer = try again.post("/v1/events", json: Self.event(article, reader, id: id, y: 1000))
            #expect(answer.status == 202)
            #expect(try answer.json["duplicate"] as? Bool == true, "\(article) \(reader) \(id) after restart")
        }
        #expect(try StatisticsSnapshot.take(again, articles: ["/idem/a", "/idem/b"]) == before)
        // A new id after the restart still counts.
        #expect(try again.post("/v1/events", json: Self.event("/idem/a", "r1", id: "evt-3")).status == 202)
        #expect(try Self.stats(again, "/idem/a")["events"] as? Int == 4)
        #expect(try Self.rememberedIDs(again) == 5)
        #expect(restarted.stop() == 0)
    }
}
