import Testing

@testable import ProgressService

@Suite("The erase routes")
struct ErasureRouteTests {
    @Test("an id is exactly one percent-encoded segment; stats paths stay stats paths")
    func paths() {
        #expect(Route(path: "/v1/readers/r-7f3a") == .reader(rawReader: "r-7f3a"))
        #expect(Route(path: "/v1/readers/%E2%9C%93%20x") == .reader(rawReader: "%E2%9C%93%20x"))
        #expect(Route(path: "/v1/articles/%2Fblog%2Fa") == .article(rawArticle: "%2Fblog%2Fa"))
        #expect(Route(path: "/v1/articles/stats") == .article(rawArticle: "stats"))
        #expect(Route(path: "/v1/articles/%2Fblog%2Fa/stats") == .stats(rawArticle: "%2Fblog%2Fa"))
        #expect(Route(path: "/v1/articles//blog/a/stats") == .stats(rawArticle: "/blog/a"))
        for none in [
            "/v1/readers/", "/v1/readers", "/v1/readers/a/b", "/v1/articles//blog/a", "/v1/articles/a/",
        ] {
            #expect(Route(path: none) == nil, "\(none)")
        }
    }

    @Test("DELETE and its preflight, behind the token; the label names no id")
    func methods() {
        let route = Route.reader(rawReader: "x")
        #expect(route.methods == ["DELETE", "OPTIONS"])
        #expect(route.answers(.delete) && route.answers(.options))
        #expect(!route.answers(.get) && !route.answers(.post) && !route.answers(.head))
        #expect(route.needsToken && route.erases)
        #expect(!Route.stats(rawArticle: "x").erases && !Route.articles.erases)
        #expect(route.label.text == "/v1/readers/{reader}")
        #expect(Route.article(rawArticle: "x").label.text == "/v1/articles/{article}")
    }
}
