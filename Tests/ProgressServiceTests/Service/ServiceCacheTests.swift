import ProgressService
import Testing

@testable import HTTPServer

/// Stats answers are kept while their article is unchanged: a repeated question to a request
/// without `Origin` gets the very response built for the first (the same `PreparedResponse`), and
/// any event on the article makes the next answer a new one.
@Suite("The service in process: the stats answer cache")
struct ServiceCacheTests {
    typealias Service = ServiceUnderTest

    static func kept(_ answer: Answer, sourceLocation: SourceLocation = #_sourceLocation) throws
        -> PreparedResponse
    {
        try #require(answer.response.prepared, "the answer was not kept", sourceLocation: sourceLocation)
    }

    @Test("a repeated query is answered with the answer kept for it")
    func repeated() throws {
        let service = try Service()
        try service.ingest([Service.event("/c", "r1"), Service.event("/other", "r1")])
        let path = Service.statsPath("/c")
        let first = try service.get(path)
        let kept = try Self.kept(first)
        for _ in 0..<3 {
            let again = try service.get(path)
            #expect(try Self.kept(again) === kept)
            #expect(again.body == first.body)
        }
        // An event on another article leaves it.
        try service.ingest([Service.event("/other", "r2")])
        #expect(try Self.kept(service.get(path)) === kept)
    }

    @Test("an event on the article changes the answer, for every spelling and query kept")
    func eventOnTheArticle() throws {
        let service = try Service()
        try service.ingest([Service.event("/c/a", "r1", y: 1000)])
        let spellings = [
            Service.statsPath("/c/a"), "/v1/articles/%2fc%2fa/stats",
            Service.statsPath("/c/a", "threshold=0.5"),
            Service.statsPath("/c/a", "metric=seenDepth"), Service.statsPath("/c/a", "from=2026-11-30"),
        ]
        let before = try spellings.map { try service.get($0) }
        #expect(before.map(\.status) == Array(repeating: 200, count: spellings.count))
        let kept = try before.map { try Self.kept($0) }
        #expect(Set(kept.map(ObjectIdentifier.init)).count == spellings.count, "one answer kept per query")

        try service.ingest([Service.event("/c/a", "r2", y: 0)])
        for (index, path) in spellings.enumerated() {
            let after = try service.get(path)
            #expect(try after.json()["readers"] as? Int == 2, "\(path)")
            #expect(try Self.kept(after) !== kept[index], "\(path)")
            #expect(after.body != before[index].body, "\(path)")
        }
        // A repeat of an event already counted changes nothing, and the answer stays.
        let answer = try service.get(spellings[0])
        try service.ingest([Service.event("/c/a", "r3", id: "once")])
        let counted = try service.get(spellings[0])
        #expect(counted.body != answer.body)
        try service.ingest([Service.event("/c/a", "r3", id: "once")])
        #expect(try service.get(spellings[0]).body == counted.body)
    }

    @Test("a request with an allowed Origin gets the same figures with its CORS fields")
    func withOrigin() throws {
        let service = try Service(ServiceConfiguration(allowedOrigins: ["https://news.example"]))
        try service.ingest([Service.event("/c", "r1")])
        let path = Service.statsPath("/c")
        let plain = try service.get(path)
        _ = try Self.kept(plain)
        let browser = try service.get(path, headers: [("Origin", "https://news.example")])
        #expect(browser.body == plain.body)
        #expect(browser.header("Access-Control-Allow-Origin") == "https://news.example")
        #expect(try service.get(path).header("Access-Control-Allow-Origin") == nil)
    }

    @Test("an error is never kept: an article unknown at first is found once it has an event")
    func unknownThenKnown() throws {
        let service = try Service()
        let path = Service.statsPath("/late")
        #expect(try service.get(path).status == 404)
        #expect(try service.get(path).status == 404)
        try service.ingest([Service.event("/late", "r1")])
        #expect(try service.get(path).status == 200)
    }
}
