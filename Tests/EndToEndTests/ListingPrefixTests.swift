import Foundation
import Testing

/// `GET /v1/articles?prefix=`: only the articles whose id starts with the prefix's UTF-8 bytes,
/// in the same orders and pages, with cursors bound to the prefix.
@Suite("The listing's prefix filter, end to end")
struct ListingPrefixTests {
    static let articles = [
        "/blog/a", "/blog/b", "/blog", "/bloggers", "/news/x", "/café/1", "/cafe/2", "<b>",
    ]

    static func seeded() throws -> ServerProcess {
        let server = try ServerProcess(store: "memory:")
        let now = Int64(Date().timeIntervalSince1970 * 1000)
        var events: [String] = []
        for (index, article) in articles.enumerated() {
            // Article n has n + 1 readers, so the default sort is the reverse of this list.
            for reader in 0...index {
                events.append(Scenario.event(article: article, reader: "r\(reader)", y: 500, timeMs: now))
            }
        }
        let answer = try server.client().post("/v1/events", json: "[" + events.joined(separator: ",") + "]")
        #expect(answer.status == 202, "\(answer.text)")
        return server
    }

    static func ids(_ response: HTTPClient.Response) throws -> [String] {
        let rows = try #require(try response.json["articles"] as? [[String: Any]])
        return rows.compactMap { $0["article"] as? String }
    }

    @Test("byte prefixes select, the sorts still apply, and no prefix lists everything")
    func filters() throws {
        let server = try Self.seeded()
        let client = server.client()
        #expect(try Self.ids(client.get("/v1/articles?prefix=%2Fblog%2F")) == ["/blog/b", "/blog/a"])
        #expect(
            try Self.ids(client.get("/v1/articles?prefix=%2Fblog&sort=article"))
                == ["/blog", "/blog/a", "/blog/b", "/bloggers"])
        #expect(try Self.ids(client.get("/v1/articles?prefix=%2Fcaf%C3%A9")) == ["/café/1"])
        #expect(try Self.ids(client.get("/v1/articles?prefix=%2Fcafe")) == ["/cafe/2"])
        #expect(try Self.ids(client.get("/v1/articles?prefix=%3Cb")) == ["<b>"])
        #expect(try Self.ids(client.get("/v1/articles?prefix=%2Fnothing")) == [])
        #expect(try Self.ids(client.get("/v1/articles?prefix=%2Fblog%2Fa")) == ["/blog/a"])
        #expect(try Self.ids(client.get("/v1/articles")).count == Self.articles.count)
        #expect(server.stop() == 0)
    }

    @Test("pages follow the prefix, and a cursor of another prefix (or none) is refused")
    func paging() throws {
        let server = try Self.seeded()
        let client = server.client()
        let first = try client.get("/v1/articles?prefix=%2Fb&limit=2&sort=article")
        #expect(try Self.ids(first) == ["/blog", "/blog/a"])
        let next = try #require(try first.json["next"] as? String)
        let second = try client.get("/v1/articles?prefix=%2Fb&limit=2&sort=article&cursor=\(next)")
        #expect(try Self.ids(second) == ["/blog/b", "/bloggers"])
        #expect(try second.json["next"] is NSNull)
        for other in ["", "&prefix=%2Fc", "&prefix=%2Fbl"] {
            let refused = try client.get("/v1/articles?limit=2&sort=article&cursor=\(next)\(other)")
            #expect(refused.status == 400, "\(other)")
            #expect((try refused.json["error"] as? [String: Any])?["field"] as? String == "cursor")
        }
        // Cursors of listings without a prefix are unchanged by its existence.
        let plain = try client.get("/v1/articles?limit=3")
        let plainNext = try #require(try plain.json["next"] as? String)
        #expect(try client.get("/v1/articles?limit=3&cursor=\(plainNext)").status == 200)
        #expect(server.stop() == 0)
    }

    @Test("an empty prefix, one over 256 bytes, or one given twice is 400 invalid_query")
    func invalid() throws {
        let server = try Self.seeded()
        let long = String(repeating: "%C3%A9", count: 129)  // 258 bytes
        for query in ["prefix=", "prefix=\(long)", "prefix=a&prefix=b"] {
            let answer = try server.client().get("/v1/articles?\(query)")
            #expect(answer.status == 400, "\(query)")
            let error = try #require(try answer.json["error"] as? [String: Any])
            #expect(error["code"] as? String == "invalid_query")
            #expect(error["field"] as? String == "prefix")
        }
        let exact = String(repeating: "a", count: 256)
        #expect(try server.client().get("/v1/articles?prefix=\(exact)").status == 200)
        #expect(server.stop() == 0)
    }
}
