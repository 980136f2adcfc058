import Foundation
import Testing

/// `DELETE /v1/readers/{reader}` and `DELETE /v1/articles/{article}` (docs/privacy.md, "Erasure").
@Suite("Erasure, end to end")
struct ErasureEndToEndTests {
    static let readerPath = "/v1/readers/\(Scenario.segment("erase me/1"))"
    static let articlePath = "/v1/articles/\(Scenario.segment("/erase/a"))"

    @Test("without --api-token the erase routes answer 403 forbidden; with it, 401 without the token")
    func access() throws {
        let open = try ServerProcess(store: "memory:")
        for path in [Self.readerPath, Self.articlePath] {
            for headers in [[], Privacy.bearer] {
                let answer = try Privacy.send("DELETE", path, port: open.port, headers: headers)
                #expect(answer.status == 403, "\(path)")
                let error = try answer.json["error"] as? [String: Any]
                #expect(error?["code"] as? String == "forbidden", "\(answer.text)")
            }
        }
        let guarded = try ServerProcess(store: "memory:", arguments: ["--api-token", Privacy.token])
        for path in [Self.readerPath, Self.articlePath] {
            for headers in [[], [("Authorization", "Bearer wrong")], [("Authorization", Privacy.token)]] {
                let answer = try Privacy.send("DELETE", path, port: guarded.port, headers: headers)
                #expect(answer.status == 401, "\(path) \(headers)")
                #expect(answer.header("WWW-Authenticate")?.hasPrefix("Bearer") == true)
            }
            #expect(try Privacy.erase(path, port: guarded.port) == (200, 0, 0))
            // The routes answer DELETE, and a preflight that names it.
            let get = try Privacy.send("GET", path, port: guarded.port, headers: Privacy.bearer)
            #expect(get.status == 405)
            #expect(get.header("Allow") == "DELETE, OPTIONS")
            let preflight = try Privacy.send(
                "OPTIONS", path, port: guarded.port,
                headers: [("Origin", "https://admin.example"), ("Access-Control-Request-Method", "DELETE")])
            #expect(preflight.status == 204)
            #expect(preflight.header("Access-Control-Allow-Methods") == "DELETE, OPTIONS")
        }
        // An id that is no percent-encoded UTF-8 is refused; more than one segment is no route.
        #expect(
            try Privacy.send("DELETE", "/v1/readers/%FF", port: guarded.port, headers: Privacy.bearer).status
                == 400)
        #expect(
            try Privacy.send("DELETE", "/v1/readers/a/b", port: guarded.port, headers: Privacy.bearer).status
                == 404)
    }

    @Test(
        "erasing a reader takes it from every article and day, durably: after kill -9 too; later events count anew"
    )
    func reader() throws {
        let folder = try TemporaryDirectory()
        let arguments = ["--api-token", Privacy.token]
        let server = try ServerProcess(store: folder.sqliteStore, arguments: arguments)
        let port = server.port
        let erased = "erase me/1"
        for daysAgo in 0..<3 {
            for article in ["/erase/a", "/erase/b"] {
                let time = Scenario.midnight(daysAgo: daysAgo) + 3_600_000
                let event = Privacy.event(article: article, reader: erased, timeMs: min(time, Privacy.nowMs))
                #expect(try Privacy.post(event, port: port).status == 202)
            }
        }
        #expect(
            try Privacy.post(Privacy.event(article: "/erase/a", reader: "kept"), port: port).status == 202)
        #expect(try Privacy.readers("/erase/a", port: port, headers: Privacy.bearer) == 2)

        #expect(try Privacy.erase(Self.readerPath, port: port) == (200, 2, 6))
        #expect(try Privacy.readers("/erase/a", port: port, headers: Privacy.bearer) == 1)
        #expect(try Privacy.readers("/erase/b", port: port, headers: Privacy.bearer) == 0)
        // Nothing is left to erase.
        #expect(try Privacy.erase(Self.readerPath, port: port) == (200, 0, 0))
        let metrics = try Privacy.send("GET", "/metrics", port: port, headers: Privacy.bearer).text
        #expect(metrics.contains(#"reading_progress_erasures_total{kind="reader"} 2"#), "\(metrics)")
        #expect(metrics.contains(#"reading_progress_erased_reader_days_total{kind="reader"} 6"#))
        #expect(metrics.contains(#"route="/v1/readers/{reader}",method="DELETE",status="200"} 2"#))
        server.kill()

        let restarted = try ServerProcess(store: folder.sqliteStore, arguments: arguments)
        let stats = try #require(try Privacy.stats("/erase/a", port: restarted.port, headers: Privacy.bearer))
        #expect(stats["readers"] as? Int == 1)
        #expect(stats["events"] as? Int == 1)
        #expect(try Privacy.readers("/erase/b", port: restarted.port, headers: Privacy.bearer) == 0)
        // Events after the erasure are counted anew.
        #expect(
            try Privacy.post(Privacy.event(article: "/erase/b", reader: erased), port: restarted.port).status
                == 202)
        #expect(try Privacy.readers("/erase/b", port: restarted.port, headers: Privacy.bearer) == 1)
        #expect(restarted.stop() == 0)
    }

    @Test("erasing an article takes all its readers, durably: after kill -9 it is still unknown")
    func article() throws {
        let folder = try TemporaryDirectory()
        let arguments = ["--api-token", Privacy.token]
        let server = try ServerProcess(store: folder.sqliteStore, arguments: arguments)
        let port = server.port
        for reader in ["r1", "r2", "r3"] {
            #expect(
                try Privacy.post(Privacy.event(article: "/erase/a", reader: reader), port: port).status == 202
            )
            #expect(
                try Privacy.post(Privacy.event(article: "/erase/other", reader: reader), port: port).status
                    == 202)
        }
        // An answer kept for the article must not outlive it.
        #expect(try Privacy.stats("/erase/a", port: port, headers: Privacy.bearer)?["readers"] as? Int == 3)
        #expect(try Privacy.erase(Self.articlePath, port: port) == (200, 1, 3))
        #expect(try Privacy.stats("/erase/a", port: port, headers: Privacy.bearer) == nil)
        let listing = try Privacy.send(
            "GET", "/v1/articles?sort=article", port: port, headers: Privacy.bearer)
        #expect(!listing.text.contains("/erase/a\""), "\(listing.text)")
        #expect(try Privacy.erase(Self.articlePath, port: port) == (200, 0, 0))
        let metrics = try Privacy.send("GET", "/metrics", port: port, headers: Privacy.bearer).text
        #expect(metrics.contains(#"reading_progress_erasures_total{kind="article"} 2"#), "\(metrics)")
        #expect(metrics.contains(#"reading_progress_erased_reader_days_total{kind="article"} 3"#))
        server.kill()

        let restarted = try ServerProcess(store: folder.sqliteStore, arguments: arguments)
        #expect(try Privacy.stats("/erase/a", port: restarted.port, headers: Privacy.bearer) == nil)
        #expect(try Privacy.readers("/erase/other", port: restarted.port, headers: Privacy.bearer) == 3)
        #expect(restarted.stop() == 0)
    }
}
