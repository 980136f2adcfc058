import Foundation
import Testing

/// `serve --demo`: an in-memory store filled with the same sample every run, never another store.
@Suite("serve --demo, end to end")
struct DemoTests {
    /// Every article's stats over the days that are over (today's readers depend on the hour).
    static func pastDays(of server: ServerProcess) throws -> [String: String] {
        let rows = try #require(
            try server.client().get("/v1/articles?sort=article").json["articles"] as? [[String: Any]])
        var pages: [String: String] = [:]
        for article in rows.compactMap({ $0["article"] as? String }) {
            let path =
                "/v1/articles/\(Scenario.segment(article))/stats?from=\(Scenario.date(daysAgo: 27))&to=\(Scenario.date(daysAgo: 1))"
            pages[article] = try server.client().get(path).text
        }
        return pages
    }

    @Test("the sample spans four weeks of several articles and is the same on every start")
    func sample() throws {
        let first = try ServerProcess(store: "memory:", arguments: ["--demo"])
        let firstPages = try Self.pastDays(of: first)
        #expect(first.stop() == 0)
        // A store in the environment (a container's) gives way to --demo.
        let second = try ServerProcess(
            store: "memory:", arguments: ["--demo"],
            environment: ["READING_PROGRESS_STORE": "sqlite:/nonexistent/never-created.sqlite3"])
        let secondPages = try Self.pastDays(of: second)
        #expect(second.stop() == 0)
        #expect(firstPages == secondPages)
        #expect(firstPages.count >= 6)
        #expect(!FileManager.default.fileExists(atPath: "/nonexistent/never-created.sqlite3"))
        let readers = firstPages.values.compactMap { page in
            (try? JSONSerialization.jsonObject(with: Data(page.utf8)) as? [String: Any])?["readers"] as? Int
        }
        #expect(readers.count == firstPages.count)
        #expect(readers.allSatisfy { $0 > 50 })
    }

    @Test("the sample's segments are worth comparing: phones stop sooner, the newsletter reads further")
    func segments() throws {
        let server = try ServerProcess(store: "memory:", arguments: ["--demo"])
        let path = "/v1/articles/\(Scenario.segment("/blog/how-to-read-a-long-article"))/segments"
        func means(_ by: String) throws -> [String: Double] {
            let answer = try server.client().get("\(path)?by=\(by)&metric=seenDepth").json
            let segments = try #require(answer["segments"] as? [[String: Any]])
            return Dictionary(
                uniqueKeysWithValues: segments.compactMap { segment in
                    (segment["depth"] as? [String: Any])?["mean"].flatMap { $0 as? Double }.map {
                        (segment["segment"] as? String ?? "", $0)
                    }
                })
        }
        let devices = try means("device")
        #expect(Set(devices.keys) == ["phone", "tablet", "desktop"])
        #expect((devices["phone"] ?? 1) < (devices["desktop"] ?? 0), "\(devices)")
        let sources = try means("source")
        #expect(sources.count >= 5, "\(sources)")
        #expect((sources["newsletter"] ?? 0) > (sources["(direct)"] ?? 1), "\(sources)")
        #expect(server.stop() == 0)
    }

    @Test("--demo with another store on the command line is refused before anything starts")
    func refusesOtherStores() throws {
        let folder = try TemporaryDirectory()
        let (status, message) = try Privacy.run([
            "serve", "--port", "0", "--demo", "--store", folder.sqliteStore,
        ])
        #expect(status == 2)
        #expect(message.contains("--demo"))
        #expect(!FileManager.default.fileExists(atPath: folder.url.appendingPathComponent("data").path))
    }
}
