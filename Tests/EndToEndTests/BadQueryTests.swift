import Foundation
import Testing

/// docs/api.md's errors for queries: every query the read routes cannot honour is a 400 with a JSON error
/// naming the parameter, never a guess.
@Suite("Malformed queries, end to end")
struct BadQueryTests {
    static let articles = ["/q/one", "/q/two", "/q/three"]

    @Test("every bad query gets 400 invalid_query naming the parameter")
    func badQueries() throws {
        let server = try ServerProcess(store: "memory:")
        let client = server.client()
        let now = Int64(Date().timeIntervalSince1970 * 1000)
        for (index, article) in Self.articles.enumerated() {
            let event = Scenario.event(article: article, reader: "r\(index)", y: 500, timeMs: now - 1000)
            #expect(try client.post("/v1/events", json: event).status == 202)
        }
        let stats = "/v1/articles/\(Scenario.segment(Self.articles[0]))/stats"
        let unknown = "/v1/articles/\(Scenario.segment("/q/never"))/stats"
        let cases: [(target: String, field: String)] = [
            ("\(stats)?threshold=1.01", "threshold"),
            ("\(stats)?threshold=-0.1", "threshold"),
            ("\(stats)?threshold=2", "threshold"),
            ("\(stats)?threshold=abc", "threshold"),
            ("\(stats)?threshold=", "threshold"),
            ("\(stats)?threshold=NaN", "threshold"),
            ("\(stats)?threshold=inf", "threshold"),
            ("\(stats)?threshold=0x1p-1", "threshold"),
            ("\(stats)?threshold=0.5&threshold=0.6", "threshold"),
            ("\(stats)?threshold=%zz", "threshold"),
            ("\(stats)?threshold=0.5%00", "threshold"),
            ("\(stats)?minEngagedSeconds=-1", "minEngagedSeconds"),
            ("\(stats)?minEngagedSeconds=1e13", "minEngagedSeconds"),
            ("\(stats)?minEngagedSeconds=ten", "minEngagedSeconds"),
            ("\(stats)?minEngagedSeconds=Infinity", "minEngagedSeconds"),
            ("\(stats)?metric=depth", "metric"),
            ("\(stats)?metric=PROGRESS", "metric"),
            ("\(stats)?metric=", "metric"),
            ("\(stats)?from=2026-13-01", "from"),
            ("\(stats)?from=2026-02-30", "from"),
            ("\(stats)?from=2026-1-1", "from"),
            ("\(stats)?from=yesterday", "from"),
            ("\(stats)?from=2026-01-01T00:00:00Z", "from"),
            ("\(stats)?to=01-01-2026", "to"),
            ("\(stats)?to=2026-00-10", "to"),
            ("\(stats)?from=2026-11-30&to=2026-11-01", "from"),
            // A bad query is refused before the article is looked up.
            ("\(unknown)?threshold=7", "threshold"),
            ("/v1/articles?sort=popular", "sort"),
            ("/v1/articles?sort=", "sort"),
            ("/v1/articles?limit=0", "limit"),
            ("/v1/articles?limit=1001", "limit"),
            ("/v1/articles?limit=-1", "limit"),
            ("/v1/articles?limit=ten", "limit"),
            ("/v1/articles?limit=1.5", "limit"),
            ("/v1/articles?limit=99999999999999999999", "limit"),
            ("/v1/articles?from=2026-02-29", "from"),
            ("/v1/articles?to=tomorrow", "to"),
            ("/v1/articles?from=2026-06-02&to=2026-06-01", "from"),
            ("/v1/articles?cursor=", "cursor"),
            ("/v1/articles?cursor=abc", "cursor"),
            ("/v1/articles?cursor=1", "cursor"),
            ("/v1/articles?cursor=1.0000000000000000", "cursor"),
            ("/v1/articles?cursor=-1.0000000000000000", "cursor"),
        ]
        for target in ["/v1/articles/%FF/stats", "/v1/articles/%2/stats", "/v1/articles/%C0%AF/stats"] {
            let response = try client.get(target)
            #expect(response.status == 400, "\(target): \(response.text)")
            let error = (try? response.json["error"]) as? [String: Any]
            #expect(error?["code"] as? String == "invalid_path", "\(target)")
            #expect(error?["field"] as? String == "article", "\(target)")
        }
        for (target, field) in cases {
            let response = try client.get(target)
            #expect(response.status == 400, "\(target): \(response.text)")
            #expect(response.header("Content-Type") == "application/json", "\(target)")
            let error = (try? response.json["error"]) as? [String: Any]
            #expect(error?["code"] as? String == "invalid_query", "\(target): \(response.text)")
            #expect(error?["field"] as? String == field, "\(target): \(response.text)")
            #expect((error?["message"] as? String)?.isEmpty == false, "\(target)")
        }
    }

    @Test("a cursor works only unaltered and for the query it was made for")
    func forgedCursors() throws {
        let server = try ServerProcess(store: "memory:")
        let client = server.client()
        let now = Int64(Date().timeIntervalSince1970 * 1000)
        for (index, article) in Self.articles.enumerated() {
            let event = Scenario.event(article: article, reader: "r\(index)", y: 500, timeMs: now - 1000)
            #expect(try client.post("/v1/events", json: event).status == 202)
        }
        let first = try client.get("/v1/articles?sort=article&limit=1")
        #expect(first.status == 200)
        let cursor = try #require(try first.json["next"] as? String)
        let page = try client.get("/v1/articles?sort=article&limit=1&cursor=\(cursor)")
        #expect(page.status == 200, "the genuine cursor must work: \(page.text)")
        #expect((try page.json["articles"] as? [[String: Any]])?.first?["article"] as? String == "/q/three")

        let parts = cursor.split(separator: ".")
        let offset = try #require(Int(parts[0]))
        let checksum = String(parts[1])
        let flipped = String(checksum.dropLast()) + (checksum.hasSuffix("0") ? "1" : "0")
        let forged = [
            ("/v1/articles?sort=article&limit=1&cursor=\(offset + 1).\(checksum)", "another offset"),
            ("/v1/articles?sort=article&limit=1&cursor=\(offset).\(flipped)", "another checksum"),
            (
                "/v1/articles?sort=article&limit=1&cursor=\(offset).\(checksum.uppercased())x",
                "a longer checksum"
            ),
            ("/v1/articles?sort=readers&limit=1&cursor=\(cursor)", "another sort"),
            ("/v1/articles?limit=1&cursor=\(cursor)", "the default sort"),
            ("/v1/articles?sort=article&limit=1&from=2020-01-01&cursor=\(cursor)", "another range"),
            ("/v1/articles?sort=article&limit=1&cursor=\(cursor).\(checksum)", "an extra part"),
        ]
        for (target, name) in forged {
            let response = try client.get(target)
            #expect(response.status == 400, "\(name): \(response.text)")
            let error = (try? response.json["error"]) as? [String: Any]
            #expect(error?["code"] as? String == "invalid_query", "\(name)")
            #expect(error?["field"] as? String == "cursor", "\(name): \(response.text)")
        }
    }
}
