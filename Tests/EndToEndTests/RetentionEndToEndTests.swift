import Foundation
import Testing

/// `--retention-days N` (docs/privacy.md, "Retention"): days before the last N leave the store,
/// and events of such days are refused.
@Suite("Retention, end to end")
struct RetentionEndToEndTests {
    /// One event a day for the last `days` days, each by a reader of its own (`day-K`).
    static func postDays(_ days: Int, article: String, port: UInt16) throws {
        for daysAgo in 0..<days {
            let time = min(Scenario.midnight(daysAgo: daysAgo) + 7_200_000, Privacy.nowMs)
            let event = Privacy.event(article: article, reader: "day-\(daysAgo)", timeMs: time)
            let answer = try Privacy.post(event, port: port)
            #expect(answer.status == 202, "\(answer.text)")
        }
    }

    @Test(
        "an event before the window is invalid_event on time, alone and in a batch; the first kept day is today − N + 1"
    )
    func refused() throws {
        let server = try ServerProcess(store: "memory:", arguments: ["--retention-days", "3"])
        let port = server.port
        let firstKept = Scenario.midnight(daysAgo: 2)
        let old = Privacy.event(article: "/retention/a", reader: "r", timeMs: firstKept - 1)
        let answer = try Privacy.post(old, port: port)
        #expect(answer.status == 400)
        let error = try answer.json["error"] as? [String: Any]
        #expect(error?["code"] as? String == "invalid_event")
        #expect(error?["field"] as? String == "time")
        #expect((error?["message"] as? String)?.contains(Scenario.date(daysAgo: 2)) == true, "\(answer.text)")

        let kept = Privacy.event(article: "/retention/a", reader: "r", timeMs: firstKept)
        let batch = try Privacy.post("[\(old),\(kept)]", port: port)
        #expect(batch.status == 202)
        let rejected = try #require(try batch.json["rejected"] as? [[String: Any]])
        #expect(rejected.count == 1)
        #expect(rejected.first?["index"] as? Int == 0)
        #expect((rejected.first?["error"] as? [String: Any])?["field"] as? String == "time")
        let stats = try #require(try Privacy.stats("/retention/a", port: port))
        #expect(stats["events"] as? Int == 1)
        // /v1/progress checks a time as an event's.
        let progress = try Connection(port: port).exchange(
            method: "POST", target: "/v1/progress", headers: [("Content-Type", "application/json")],
            body: Array(old.utf8))
        #expect(progress.status == 400)
    }

    @Test("a restart with a shorter retention drops the older days from the figures and from every file")
    func shorter() throws {
        let folder = try TemporaryDirectory()
        let article = "/retention/days"
        let first = try ServerProcess(store: folder.sqliteStore)
        try Self.postDays(6, article: article, port: first.port)
        #expect(try Privacy.readers(article, port: first.port) == 6)
        #expect(first.stop() == 0)

        let shorter = try ServerProcess(store: folder.sqliteStore, arguments: ["--retention-days", "3"])
        let stats = try #require(try Privacy.stats(article, port: shorter.port))
        #expect(stats["readers"] as? Int == 3)
        #expect(stats["events"] as? Int == 3)
        let old = Scenario.date(daysAgo: 3)
        let ofOld = try #require(
            try Privacy.stats(article, port: shorter.port, query: "from=2000-01-01&to=\(old)"))
        #expect(ofOld["readers"] as? Int == 0)
        #expect(shorter.stop() == 0)

        // A clean stop checkpoints: the dropped readers are in no file.
        let dropped = (3..<6).reduce(into: [String: [UInt8]]()) { needles, daysAgo in
            needles["day-\(daysAgo)"] = Array("day-\(daysAgo)".utf8)
        }
        for file in try Privacy.files(under: folder.url) {
            let found = Privacy.found(dropped, in: file.bytes)
            #expect(found.isEmpty, "\(file.path) holds \(found)")
        }
        // Kept ones are still there, somewhere.
        let kept = try Privacy.files(under: folder.url).contains {
            Privacy.contains($0.bytes, Array("day-0".utf8))
        }
        #expect(kept)

        // With the clock two days on, the window moves too: only today's of then stays.
        let later = try ServerProcess(
            store: folder.sqliteStore,
            arguments: ["--retention-days", "3", "--clock-offset-seconds", "172800"])
        #expect(try Privacy.readers(article, port: later.port) == 1)
        #expect(later.stop() == 0)
    }

    @Test("values that are no number of days, or no address, stop the service with status 2")
    func options() throws {
        let cases = [
            ["--retention-days", "-1"], ["--retention-days", "week"], ["--retention-days", "36501"],
            ["--clock-offset-seconds", "soon"], ["--clock-offset-seconds", "1.5"],
            ["--trusted-proxies", "10.0.0.0/33"], ["--trusted-proxies", "proxy.local"],
        ]
        for option in cases {
            let (status, errors) = try Privacy.run(["serve", "--port", "0", "--store", "memory:"] + option)
            #expect(status == 2, "\(option)")
            #expect(errors.contains(option[0]), "\(errors)")
        }
        let (status, errors) = try Privacy.run([
            "serve", "--port", "0", "--store", "memory:", "--trusted-proxies", "10.0.0.0/8, bad",
        ])
        #expect(status == 2)
        #expect(errors.contains("'bad'"), "\(errors)")
        let help = try Privacy.run(["--help"])
        #expect(help.status == 0)
    }
}
