import Foundation
import Testing

/// Segments through the real service over a SQLite store: seven readers whose device classes and
/// sources are named, derived from widths, or settled by the earlier of two events that arrive in
/// the other order; every figure worked out by hand below, read from the stats route's filters
/// and from the segments route, again after `kill -9`. Then a privacy scan: a source sent as a
/// plain host, with a referrer carrying a path and a query beside it, leaves no trace of them.
///
/// Content 2000 in a container 1000 tall, so progress = y / 1000 (the horizontal reader: x / 1000).
///
/// | reader | day | device               | source                      | depth |
/// |--------|-----|----------------------|-----------------------------|-------|
/// | p1     | -1  | phone (named)        | `Newsletter`                | 0.2   |
/// | p2     | -1  | phone (width 390)    | none: `(direct)`            | 0.4   |
/// | p3     | -1  | phone (earlier: 390) | `first.example` (earlier)   | 0.3   |
/// | d1     | -1  | desktop (width 1280) | `www.newsletter`            | 1     |
/// | d2     | -2  | desktop (named, 390) | `search.example`            | 0.9   |
/// | h1     | -1  | other (horizontal)   | none: `(direct)`            | 0.5   |
@Suite("Segments, end to end")
struct SegmentsEndToEndTests {
    static let article = "/guide/segments"

    static func event(
        _ reader: String, y: Double, daysAgo: Int, hour: Int = 12, width: Int = 400, device: String? = nil,
        source: String? = nil
    ) -> String {
        let time = Scenario.midnight(daysAgo: daysAgo) + Int64(hour) * 3_600_000
        var json = Scenario.event(article: article, reader: reader, y: y, timeMs: time)
            .replacingOccurrences(
                of: #""containerSize":{"width":400"#, with: #""containerSize":{"width":\#(width)"#
            )
            .replacingOccurrences(
                of: #""contentSize":{"width":400"#, with: #""contentSize":{"width":\#(width)"#)
        json.removeLast()
        if let device { json += #","device":"\#(device)""# }
        if let source { json += #","source":\#(Scenario.quote(source))"# }
        return json + "}"
    }

    static func post(_ client: HTTPClient) throws {
        let time = Scenario.midnight(daysAgo: 1) + 12 * 3_600_000
        let horizontal = """
            {"article":\(Scenario.quote(article)),"reader":"h1","axis":"horizontal",\
            "contentOffset":{"x":500,"y":0},"contentSize":{"width":2000,"height":400},\
            "containerSize":{"width":1000,"height":400},"time":\(time)}
            """
        let events = [
            event("p1", y: 200, daysAgo: 1, width: 1280, device: "phone", source: "Newsletter"),
            event("p2", y: 400, daysAgo: 1, width: 390),
            // p3's later event arrives first: the earlier one's width and source decide.
            event("p3", y: 300, daysAgo: 1, hour: 13, width: 1280, source: "second.example"),
            event("p3", y: 100, daysAgo: 1, hour: 10, width: 390, source: "first.example"),
            event("d1", y: 1000, daysAgo: 1, width: 1280, source: "www.newsletter"),
            event("d2", y: 900, daysAgo: 2, width: 390, device: "desktop", source: "search.example"),
            horizontal,
        ]
        for event in events {
            let response = try client.post("/v1/events", json: event)
            #expect(response.status == 202, "\(response.text)")
        }
    }

    static func get(_ client: HTTPClient, _ route: String, _ query: String) throws -> [String: Any] {
        let response = try client.get("/v1/articles/\(Scenario.segment(article))/\(route)?\(query)")
        #expect(response.status == 200, "\(route)?\(query): \(response.status) \(response.text)")
        return try response.json
    }

    static func near(_ value: Any?, _ expected: Double) -> Bool {
        guard let value = value as? Double else { return false }
        return abs(value - expected) <= 1e-9
    }

    /// `segment`'s readers, completed readers, mean and median depth.
    static func figures(_ segment: [String: Any]?) -> (Int?, Int?, Double?, Double?) {
        let completion = segment?["completion"] as? [String: Any]
        let depth = segment?["depth"] as? [String: Any]
        return (
            segment?["readers"] as? Int, completion?["completed"] as? Int, depth?["mean"] as? Double,
            depth?["median"] as? Double
        )
    }

    static func check(_ client: HTTPClient) throws {
        let devices = try get(client, "segments", "by=device")
        let list = devices["segments"] as? [[String: Any]] ?? []
        #expect(list.map { $0["segment"] as? String } == ["phone", "desktop", "other"])
        let (phone, desktop, other) = (
            figures(list.first), figures(list.dropFirst().first), figures(list.last)
        )
        #expect(phone.0 == 3 && phone.1 == 0 && near(phone.2, 0.3) && near(phone.3, 0.3), "\(phone)")
        #expect(
            desktop.0 == 2 && desktop.1 == 2 && near(desktop.2, 0.95) && near(desktop.3, 0.9), "\(desktop)")
        #expect(other.0 == 1 && near(other.2, 0.5), "\(other)")
        #expect(devices["other"] is NSNull)

        let sources = try get(client, "segments", "by=source&limit=2")
        let named = sources["segments"] as? [[String: Any]] ?? []
        #expect(named.map { $0["segment"] as? String } == ["(direct)", "newsletter"])
        #expect(named.map { $0["readers"] as? Int } == [2, 2])
        let rest = figures(sources["other"] as? [String: Any])
        #expect((sources["other"] as? [String: Any])?["segment"] as? String == "(other)")
        #expect(rest.0 == 2 && rest.1 == 1 && near(rest.2, 0.6), "\(rest)")

        // Each segment as the stats route filters to it, reach curve included.
        for segment in list + named {
            let name = segment["segment"] as? String ?? ""
            let key = list.contains { $0["segment"] as? String == name } ? "device" : "source"
            let stats = try get(client, "stats", "\(key)=\(Scenario.segment(name))")
            #expect(stats["readers"] as? Int == segment["readers"] as? Int, "\(name)")
            #expect(stats["reach"] as? [Double] == segment["reach"] as? [Double], "\(name)")
            #expect(stats["firstEventAt"] is NSNull && stats["lastEventAt"] is NSNull, "\(name)")
        }
        #expect(try get(client, "stats", "source=first.example")["readers"] as? Int == 1)
        #expect(try get(client, "stats", "source=second.example")["readers"] as? Int == 0)
        let day = Scenario.date(daysAgo: 1)
        let yesterday = try get(client, "stats", "device=desktop&from=\(day)&to=\(day)")
        #expect(yesterday["readers"] as? Int == 1)
        #expect(near((yesterday["depth"] as? [String: Any])?["mean"], 1))
        let both = try get(client, "stats", "device=phone&source=NEWSLETTER")
        #expect(both["readers"] as? Int == 1 && both["source"] as? String == "newsletter")
        let all = try get(client, "stats", "")
        #expect(all["readers"] as? Int == 6 && all["firstEventAt"] is String)
    }

    @Test("the hand-worked segments from the filters and the segments route, and after kill -9")
    func figures() throws {
        let folder = try TemporaryDirectory()
        let server = try ServerProcess(store: folder.sqliteStore)
        try Self.post(server.client())
        try Self.check(server.client())
        server.kill()
        let restarted = try ServerProcess(store: folder.sqliteStore)
        try Self.check(restarted.client())
        #expect(restarted.stop() == 0)
    }

    @Test(
        "a source sent as a host beside a referrer with a path and a query: neither is in any file or the log"
    )
    func noReferrerPath() throws {
        let folder = try TemporaryDirectory()
        let server = try ServerProcess(store: folder.sqliteStore, arguments: ["--log-requests", "true"])
        let headers = [
            ("Referer", "https://referrer.example/secret-path?q=secret"), ("Origin", "https://site.example"),
        ]
        for reader in ["r1", "r2"] {
            let body = Self.event(reader, y: 500, daysAgo: 0, hour: 0, source: "referrer.example")
            let response = try Privacy.post(body, port: server.port, headers: headers)
            #expect(response.status == 202, "\(response.text)")
        }
        let target = "/v1/articles/\(Scenario.segment(Self.article))/segments?by=source"
        let split = try Privacy.send("GET", target, port: server.port, headers: headers).json
        #expect((split["segments"] as? [[String: Any]])?.first?["segment"] as? String == "referrer.example")
        #expect(eventually { server.standardError.contains("GET /v1/articles/{article}/segments 200") })
        let needles = Privacy.spellings(of: "secret")
        try DataScanTests.expectSource(folder: folder.url, log: server.standardError, free: needles)
        #expect(server.stop() == 0)
        try DataScanTests.expectSource(folder: folder.url, log: server.standardError, free: needles)
    }
}

extension DataScanTests {
    /// The store under `folder` holds the source `referrer.example` and nothing of `needles`, nor
    /// does `log`.
    static func expectSource(folder: URL, log: String, free needles: [String: [UInt8]]) throws {
        let files = try Privacy.files(under: folder)
        #expect(
            files.contains { Privacy.contains($0.bytes, Array("referrer.example".utf8)) },
            "the scan reads the store")
        for file in files {
            let found = Privacy.found(needles, in: file.bytes)
            #expect(found.isEmpty, "\(file.path) holds \(found)")
        }
        let inLog = Privacy.found(needles, in: Array(log.utf8))
        #expect(inLog.isEmpty, "the log holds \(inLog):\n\(log)")
    }
}
