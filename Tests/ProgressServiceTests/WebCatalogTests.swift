import HTTPServer
import Testing

@testable import ProgressService

@Suite("Web assets: routes, validators, content negotiation")
struct WebCatalogTests {
    @Test("the page, its files and the icon are routes; other paths are not")
    func routes() throws {
        let catalog = WebCatalog.builtIn
        let page = try #require(catalog.index(of: "/"))
        #expect(Route(path: "/") == .asset(page))
        #expect(Route(path: "/")?.label == .dashboard)
        #expect(Route(path: "/dashboard/app.js")?.label == .dashboardFile)
        #expect(Route(path: "/favicon.ico")?.label == .favicon)
        #expect(Route(path: "/favicon.ico")?.needsToken == false)
        for path in [
            "/dashboard/", "/dashboard", "/index.html", "/dashboard/app.js/", "/DASHBOARD/app.js", "",
        ] {
            #expect(Route(path: path) == nil, "\(path)")
        }
        // The API's routes are still found first.
        #expect(Route(path: "/healthz") == .healthz)
    }

    @Test(
        "Accept-Encoding",
        arguments: [
            ("gzip", true), ("gzip, deflate, br, zstd", true), ("GZip", true), ("x-gzip", true),
            ("*", true), ("br;q=1, gzip;q=0.1", true), (" gzip ; q=0.5 ", true),
            ("gzip;q=0", false), ("gzip;q=0.0, *", false), ("*;q=0", false), ("identity", false),
            ("", false), ("br", false), ("gzipx", false), ("gzip;q=zero", false),
        ])
    func acceptEncoding(header: String, gzip: Bool) {
        #expect(AcceptEncoding.allowsGzip(header) == gzip)
    }

    @Test("If-None-Match lists: weak comparison, *, several tags")
    func entityTags() {
        let tag = EntityTag.strong(of: Array("body".utf8), suffix: "")
        #expect(tag.count == 18 && tag.hasPrefix("\"") && tag.hasSuffix("\""))
        #expect(tag != EntityTag.strong(of: Array("body!".utf8), suffix: ""))
        #expect(EntityTag.strong(of: [], suffix: ".gz").hasSuffix(".gz\""))
        #expect(EntityTag.list(tag, matchesAnyOf: [tag]))
        #expect(EntityTag.list("W/\(tag)", matchesAnyOf: [tag]))
        #expect(EntityTag.list("\"a\",\(tag)", matchesAnyOf: [tag]))
        #expect(EntityTag.list("*", matchesAnyOf: [tag]))
        #expect(!EntityTag.list("\"a\", \"b\"", matchesAnyOf: [tag]))
        #expect(!EntityTag.list(String(tag.dropLast()), matchesAnyOf: [tag]))
    }

    @Test("a file gzip does not shrink is served as it is, and a request's coding picks its answer")
    func negotiation() throws {
        let tiny = WebCatalog.Entry(
            WebAsset(
                paths: ["/t"], label: .dashboardFile, contentType: "text/plain", cacheControl: "no-cache",
                body: [65]))
        #expect(tiny.gzipped == nil)
        let gzipRequest = HTTPRequest(method: "GET", path: "/t", headers: [("Accept-Encoding", "gzip")])
        #expect(tiny.reply(to: gzipRequest).body == [65])

        let text = Array(String(repeating: "reach ", count: 200).utf8)
        let large = WebCatalog.Entry(
            WebAsset(
                paths: ["/l"], label: .dashboardFile, contentType: "text/plain", cacheControl: "no-cache",
                body: text))
        let zipped = try #require(large.gzipped)
        #expect(zipped.body.count < text.count)
        #expect(Array(zipped.body.prefix(2)) == [0x1F, 0x8B], "the gzip magic number")
        #expect(large.reply(to: gzipRequest).body == zipped.body)
        #expect(large.reply(to: HTTPRequest(method: "GET", path: "/l")).body == text)
        let revalidation = HTTPRequest(
            method: "GET", path: "/l", headers: [("If-None-Match", large.etag), ("Accept-Encoding", "gzip")])
        #expect(large.reply(to: revalidation).status == 304)
    }
}
