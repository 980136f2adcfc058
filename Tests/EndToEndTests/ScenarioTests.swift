import Foundation
import Testing

/// The worked example: five readers of one article over three days, every statistic worked
/// out by hand below, checked live, then checked again after a restart on the same file.
///
/// Geometry: content 2000, container 1000, so progress = y/1000 and seenDepth = (y+1000)/2000.
///
/// | reader | day | y    | progress | seen  | engagedMs |
/// |--------|-----|------|----------|-------|-----------|
/// | r1     | -3  | 500  | 0.5      | 0.75  | 10000     |
/// | r1     | -2  | 1000 | 1.0      | 1.0   | 5000      |
/// | r2     | -3  | 200  | 0.2      | 0.6   | 2000      |
/// | r3     | -2  | 950  | 0.95     | 0.975 | 30000     |
/// | r3     | -1  | 100  | 0.1      | 0.55  | 1000      |
/// | r4     | -1  | unscrollable (content 800) | 0 | 1 | 4000 |
/// | r5     | -1  | 900  | 0.9      | 0.95  | 0         |
@Suite("A worked scenario, end to end")
struct ScenarioTests {
    static let article = "/blog/2026/how-to-read?x=1 & ünïcode"

    static func post(_ client: HTTPClient) throws -> (first: Int64, last: Int64) {
        let d3 = Scenario.midnight(daysAgo: 3) + 12 * 3_600_000
        let d2 = Scenario.midnight(daysAgo: 2) + 12 * 3_600_000
        let d1 = Scenario.midnight(daysAgo: 1) + 12 * 3_600_000
        let a = article
        let events = [
            Scenario.event(article: a, reader: "r1", y: 500, timeMs: d3 + 60_000, engagedMs: 10_000),
            Scenario.event(article: a, reader: "r1", y: 1000, timeMs: d2 + 60_000, engagedMs: 5_000),
            Scenario.event(article: a, reader: "r2", y: 200, timeMs: d3 + 120_000, engagedMs: 2_000),
            Scenario.event(article: a, reader: "r3", y: 950, timeMs: d2 + 180_000, engagedMs: 30_000),
            Scenario.event(article: a, reader: "r3", y: 100, timeMs: d1 + 180_000, engagedMs: 1_000),
            Scenario.event(
                article: a, reader: "r4", y: 0, contentHeight: 800, timeMs: d1 + 240_000, engagedMs: 4_000),
        ]
        // Six events in one batch, the seventh alone, to use both shapes of the route.
        let batch = try client.post("/v1/events", json: "[" + events.joined(separator: ",") + "]")
        #expect(batch.status == 202)
        #expect(try batch.json["accepted"] as? Int == 6)
        let single = try client.post(
            "/v1/events", json: Scenario.event(article: a, reader: "r5", y: 900, timeMs: d1 + 300_000))
        #expect(single.status == 202)
        #expect(try single.json["progress"] as? Double == 0.9)
        return (d3 + 60_000, d1 + 300_000)
    }

    static func stats(_ client: HTTPClient, _ query: String = "") throws -> [String: Any] {
        let response = try client.get("/v1/articles/\(Scenario.segment(article))/stats\(query)")
        #expect(response.status == 200, "\(response.text)")
        return try response.json
    }

    static func check(_ client: HTTPClient, first: Int64, last: Int64) throws {
        let all = try stats(client)
        #expect(all["article"] as? String == article)
        #expect(all["readers"] as? Int == 5)
        #expect(all["unscrollableReaders"] as? Int == 1)
        #expect(all["events"] as? Int == 7)
        let completion = try #require(all["completion"] as? [String: Any])
        #expect(completion["threshold"] as? Double == 0.9)
        #expect(completion["completed"] as? Int == 3)
        #expect(completion["rate"] as? Double == 0.75)
        let depth = try #require(all["depth"] as? [String: Any])
        #expect(abs((depth["mean"] as? Double ?? -1) - 0.7625) < 1e-12)
        #expect(depth["p25"] as? Double == 0.2)
        #expect(depth["median"] as? Double == 0.9)
        #expect(depth["p75"] as? Double == 0.95)
        let reach = try #require(all["reach"] as? [Double])
        #expect(reach.count == 101)
        #expect(reach[0...20].allSatisfy { $0 == 1 })
        #expect(reach[21...90].allSatisfy { $0 == 0.75 })
        #expect(reach[91...95].allSatisfy { $0 == 0.5 })
        #expect(reach[96...100].allSatisfy { $0 == 0.25 })
        let engaged = try #require(all["engagedSeconds"] as? [String: Any])
        #expect(engaged["total"] as? Double == 52)
        #expect(abs((engaged["meanPerReader"] as? Double ?? -1) - 10.4) < 1e-12)
        #expect(all["firstEventAt"] as? String == Scenario.rfc3339(first))
        #expect(all["lastEventAt"] as? String == Scenario.rfc3339(last))

        let strict = try stats(client, "?threshold=0.95")
        #expect((strict["completion"] as? [String: Any])?["completed"] as? Int == 2)
        #expect((strict["completion"] as? [String: Any])?["rate"] as? Double == 0.5)

        let engagedOnly = try stats(client, "?minEngagedSeconds=10")
        #expect((engagedOnly["completion"] as? [String: Any])?["completed"] as? Int == 2)

        let seen = try stats(client, "?metric=seenDepth")
        // r4 is still unscrollable, and counts at depth 1 in the figures below.
        #expect(seen["unscrollableReaders"] as? Int == 1)
        #expect((seen["completion"] as? [String: Any])?["completed"] as? Int == 4)
        #expect((seen["completion"] as? [String: Any])?["rate"] as? Double == 0.8)
        let seenDepth = try #require(seen["depth"] as? [String: Any])
        #expect(abs((seenDepth["mean"] as? Double ?? -1) - 0.905) < 1e-12)
        #expect(seenDepth["p25"] as? Double == 0.95)
        #expect(seenDepth["median"] as? Double == 0.975)
        #expect(seenDepth["p75"] as? Double == 1)

        let dayTwo = try stats(client, "?from=\(Scenario.date(daysAgo: 2))&to=\(Scenario.date(daysAgo: 2))")
        #expect(dayTwo["readers"] as? Int == 2)
        #expect(dayTwo["events"] as? Int == 2)
        #expect((dayTwo["completion"] as? [String: Any])?["rate"] as? Double == 1)
        #expect(abs(((dayTwo["depth"] as? [String: Any])?["mean"] as? Double ?? -1) - 0.975) < 1e-12)
        #expect((dayTwo["engagedSeconds"] as? [String: Any])?["total"] as? Double == 35)
        #expect((dayTwo["engagedSeconds"] as? [String: Any])?["meanPerReader"] as? Double == 17.5)

        let lastDay = try stats(client, "?from=\(Scenario.date(daysAgo: 1))")
        #expect(lastDay["readers"] as? Int == 3)
        #expect(lastDay["unscrollableReaders"] as? Int == 1)
        #expect((lastDay["completion"] as? [String: Any])?["completed"] as? Int == 1)
        #expect((lastDay["completion"] as? [String: Any])?["rate"] as? Double == 0.5)
        let lastDepth = try #require(lastDay["depth"] as? [String: Any])
        #expect(lastDepth["p25"] as? Double == 0.1)
        #expect(lastDepth["median"] as? Double == 0.1)
        #expect(lastDepth["p75"] as? Double == 0.9)
        #expect(
            abs(((lastDay["engagedSeconds"] as? [String: Any])?["meanPerReader"] as? Double ?? -1) - 5.0 / 3)
                < 1e-12)

        let empty = try stats(client, "?from=\(Scenario.date(daysAgo: 10))&to=\(Scenario.date(daysAgo: 9))")
        #expect(empty["readers"] as? Int == 0)
        #expect(empty["events"] as? Int == 0)
        #expect((empty["completion"] as? [String: Any])?["rate"] as? Double == 0)
        #expect(empty["firstEventAt"] is NSNull)
        #expect(empty["lastEventAt"] is NSNull)
        #expect((empty["reach"] as? [Double])?.count == 101)

        let unknown = try client.get("/v1/articles/\(Scenario.segment("/never-read"))/stats")
        #expect(unknown.status == 404)
        #expect((try unknown.json["error"] as? [String: Any])?["code"] as? String == "unknown_article")

        let listing = try client.get("/v1/articles?sort=article")
        #expect(listing.status == 200)
        let rows = try #require(try listing.json["articles"] as? [[String: Any]])
        let row = try #require(rows.first { $0["article"] as? String == article })
        #expect(row["readers"] as? Int == 5)
        #expect(row["events"] as? Int == 7)
        #expect(row["completionRate"] as? Double == 0.75)
        #expect(abs((row["meanDepth"] as? Double ?? -1) - 0.7625) < 1e-12)
        #expect(row["lastEventAt"] as? String == Scenario.rfc3339(last))
    }

    @Test("every statistic matches the hand-worked figures, before and after a restart")
    func scenario() throws {
        let folder = try TemporaryDirectory()
        let server = try ServerProcess(store: folder.sqliteStore)
        let (first, last) = try Self.post(server.client())
        try Self.check(server.client(), first: first, last: last)
        let before = try server.client().get("/v1/articles/\(Scenario.segment(Self.article))/stats").body
        #expect(server.stop() == 0)

        let restarted = try ServerProcess(store: folder.sqliteStore)
        try Self.check(restarted.client(), first: first, last: last)
        let after = try restarted.client().get("/v1/articles/\(Scenario.segment(Self.article))/stats").body
        #expect(before == after)
        #expect(restarted.stop() == 0)
    }

    @Test(
        "on PostgreSQL too: the same figures from a node, and from another one started after it stopped",
        .enabled(if: Postgres.adminURI != nil))
    func scenarioOnPostgres() throws {
        let uri = try Postgres.database(on: Postgres.adminURI!)
        let node = try ServerProcess(store: uri)
        let (first, last) = try Self.post(node.client())
        try Self.check(node.client(), first: first, last: last)
        let before = try node.client().get("/v1/articles/\(Scenario.segment(Self.article))/stats").body
        #expect(node.stop() == 0)

        let other = try ServerProcess(store: uri)
        try Self.check(other.client(), first: first, last: last)
        let after = try other.client().get("/v1/articles/\(Scenario.segment(Self.article))/stats").body
        #expect(before == after)
        #expect(other.stop() == 0)
    }
}
