import Foundation
import Testing

/// `--api-token` (docs/api.md, "Authentication"): read routes need the exact bearer token;
/// ingest and health stay open.
@Suite("Access with --api-token, end to end")
struct AccessTests {
    static let token = "s3cret-Token_42"
    static let article = "/access/a"

    static let readRoutes = [
        "/v1/articles/\(Scenario.segment(article))/stats",
        "/v1/articles",
        "/metrics",
        // The token is checked before the article is looked up or the query read, so a caller
        // without it learns nothing about which articles exist.
        "/v1/articles/\(Scenario.segment("/access/never"))/stats",
        "/v1/articles?limit=0",
    ]

    static let refused: [(name: String, headers: [(String, String)])] = [
        ("no Authorization", []),
        ("a wrong token", [("Authorization", "Bearer wrong")]),
        ("an empty bearer", [("Authorization", "Bearer")]),
        ("the Basic scheme", [("Authorization", "Basic \(token)")]),
        ("the token without a scheme", [("Authorization", token)]),
        ("a prefix of the token", [("Authorization", "Bearer \(token.dropLast())")]),
        ("the token plus a character", [("Authorization", "Bearer \(token)x")]),
        ("the token in another case", [("Authorization", "Bearer \(token.uppercased())")]),
        ("the token twice", [("Authorization", "Bearer \(token)\(token)")]),
        ("the token in another header", [("X-Api-Token", token)]),
    ]

    @Test("read routes answer 401 with a JSON error and WWW-Authenticate without the right token")
    func refusedWithoutToken() throws {
        let server = try ServerProcess(store: "memory:", arguments: ["--api-token", Self.token])
        let client = server.client()
        let event = Scenario.event(article: Self.article, reader: "r1", y: 300, timeMs: Self.nowMs())
        #expect(try client.post("/v1/events", json: event).status == 202)

        for route in Self.readRoutes {
            for (name, headers) in Self.refused {
                for method in ["GET", "HEAD"] {
                    let response = try Connection(port: server.port).exchange(
                        method: method, target: route, headers: headers, body: [])
                    #expect(response.status == 401, "\(method) \(route) with \(name)")
                    #expect(
                        response.header("WWW-Authenticate")?.hasPrefix("Bearer") == true,
                        "\(method) \(route) with \(name)")
                    guard method == "GET" else { continue }
                    #expect(response.header("Content-Type") == "application/json")
                    let error = (try? response.json["error"]) as? [String: Any]
                    #expect(
                        error?["code"] as? String == "unauthorized", "\(route) with \(name): \(response.text)"
                    )
                }
            }
        }
    }

    @Test("with the right token every read route answers 200")
    func acceptedWithToken() throws {
        let server = try ServerProcess(store: "memory:", arguments: ["--api-token", Self.token])
        let client = server.client()
        let event = Scenario.event(article: Self.article, reader: "r1", y: 300, timeMs: Self.nowMs())
        #expect(try client.post("/v1/events", json: event).status == 202)
        // The scheme is case-insensitive (RFC 9110 §11.1); the token is not.
        for authorization in ["Bearer \(Self.token)", "bearer \(Self.token)", "BEARER \(Self.token)"] {
            for route in Self.readRoutes.prefix(3) {
                let response = try client.get(route, headers: [("Authorization", authorization)])
                #expect(response.status == 200, "\(route) with '\(authorization)': \(response.text)")
            }
        }
        let stats = try client.get(Self.readRoutes[0], headers: [("Authorization", "Bearer \(Self.token)")])
        #expect(try stats.json["events"] as? Int == 1)
        let metrics = try client.get("/metrics", headers: [("Authorization", "Bearer \(Self.token)")])
        #expect(metrics.text.contains("reading_progress_events_total{result=\"accepted\"} 1"))
    }

    @Test("ingest, /v1/progress and /healthz stay open without a token")
    func openRoutes() throws {
        let server = try ServerProcess(store: "memory:", arguments: ["--api-token", Self.token])
        let client = server.client()
        let event = Scenario.event(article: Self.article, reader: "r1", y: 300, timeMs: Self.nowMs())
        let ingest = try client.post("/v1/events", json: event)
        #expect(ingest.status == 202, "\(ingest.text)")
        let wrong = try client.post("/v1/events", json: event, headers: [("Authorization", "Bearer wrong")])
        #expect(wrong.status == 202, "a wrong token must not keep a beacon out: \(wrong.text)")
        let progress = try client.post("/v1/progress", json: event)
        #expect(progress.status == 200)
        #expect(try progress.json["progress"] as? Double == 0.3)
        #expect(try client.get("/healthz").status == 200)
        let stats = try client.get(Self.readRoutes[0], headers: [("Authorization", "Bearer \(Self.token)")])
        #expect(try stats.json["events"] as? Int == 2)
    }

    static func nowMs() -> Int64 { Int64(Date().timeIntervalSince1970 * 1000) }
}

/// CORS (docs/api.md) with an allowlist: only listed origins are echoed, on preflight and on real
/// requests, with `Vary: Origin` and credentials allowed.
@Suite("CORS with --allowed-origins, end to end")
struct CORSTests {
    static let allowed = ["https://a.example", "https://b.example"]
    static let others = [
        "https://c.example", "http://a.example", "https://a.example.evil.com", "https://xa.example", "null",
        "https://a.example:8443",
    ]

    @Test("preflight on ingest routes answers 204 and echoes only allowed origins")
    func preflight() throws {
        let server = try ServerProcess(
            store: "memory:", arguments: ["--allowed-origins", Self.allowed.joined(separator: ",")])
        for route in ["/v1/events", "/v1/progress"] {
            for origin in Self.allowed {
                let response = try Self.preflight(route, origin: origin, port: server.port)
                #expect(response.status == 204, "\(route) from \(origin)")
                #expect(response.header("Access-Control-Allow-Origin") == origin, "\(route) from \(origin)")
                #expect(response.header("Access-Control-Allow-Credentials") == "true")
                #expect(response.header("Vary")?.contains("Origin") == true)
                #expect(response.header("Access-Control-Allow-Methods")?.contains("POST") == true)
                #expect(response.header("Access-Control-Allow-Headers")?.contains("Content-Type") == true)
            }
            for origin in Self.others {
                let response = try Self.preflight(route, origin: origin, port: server.port)
                #expect(response.status == 204, "\(route) from \(origin)")
                #expect(response.header("Access-Control-Allow-Origin") == nil, "\(route) from \(origin)")
                #expect(response.header("Access-Control-Allow-Credentials") == nil, "\(route) from \(origin)")
                #expect(response.header("Access-Control-Allow-Methods") == nil, "\(route) from \(origin)")
                #expect(response.header("Vary")?.contains("Origin") == true)
            }
        }
    }

    @Test("an empty Origin or an empty list of requested headers is no reason for a 500")
    func emptyValues() throws {
        let server = try ServerProcess(store: "memory:")
        for route in ["/v1/events", "/v1/articles", "/v1/articles/%2Fa/stats"] {
            let preflight = try Connection(port: server.port).exchange(
                method: "OPTIONS", target: route,
                headers: [("Origin", ""), ("Access-Control-Request-Method", "POST")], body: [])
            #expect(preflight.status == 204, "\(route)")
            #expect(preflight.header("Access-Control-Allow-Origin") == nil, "\(route)")
            let headers = try Connection(port: server.port).exchange(
                method: "OPTIONS", target: route,
                headers: [
                    ("Origin", "https://a.example"), ("Access-Control-Request-Method", "POST"),
                    ("Access-Control-Request-Headers", ""),
                ], body: [])
            #expect(headers.status == 204, "\(route)")
            #expect(
                headers.header("Access-Control-Allow-Headers")?.contains("Content-Type") == true, "\(route)")
        }
        let get = try Connection(port: server.port).exchange(
            method: "GET", target: "/v1/articles", headers: [("Origin", "")], body: [])
        #expect(get.status == 200)
    }

    @Test("real requests echo only allowed origins, on success and on error alike")
    func realRequests() throws {
        let server = try ServerProcess(
            store: "memory:", arguments: ["--allowed-origins", Self.allowed.joined(separator: ",")])
        let client = server.client()
        let now = Int64(Date().timeIntervalSince1970 * 1000)
        var reader = 0
        for origin in Self.allowed + Self.others {
            reader += 1
            let event = Scenario.event(article: "/cors", reader: "r\(reader)", y: 100, timeMs: now)
            let answers = [
                try client.post(
                    "/v1/events", json: event, contentType: "text/plain", headers: [("Origin", origin)]),
                try client.post("/v1/progress", json: event, headers: [("Origin", origin)]),
                try client.post("/v1/events", json: "{", headers: [("Origin", origin)]),
                try client.get("/v1/articles", headers: [("Origin", origin)]),
            ]
            let isAllowed = Self.allowed.contains(origin)
            // Beacons go out whatever CORS says: ingest refuses a foreign origin itself.
            let expected = isAllowed ? [202, 200, 400, 200] : [403, 200, 403, 200]
            #expect(answers.map(\.status) == expected, "from \(origin)")
            if !isAllowed {
                #expect(
                    try answers[0].json["error"].flatMap { ($0 as? [String: Any])?["code"] as? String }
                        == "origin_not_allowed")
            }
            for response in answers {
                #expect(response.header("Vary")?.contains("Origin") == true)
                #expect(
                    response.header("Access-Control-Allow-Origin") == (isAllowed ? origin : nil), "\(origin)")
                #expect(
                    response.header("Access-Control-Allow-Credentials") == (isAllowed ? "true" : nil),
                    "\(origin)")
            }
        }
        let stats = try client.get("/v1/articles/\(Scenario.segment("/cors"))/stats")
        // Only the allowed origins' events counted.
        #expect(try stats.json["readers"] as? Int == Self.allowed.count)
    }

    @Test(
        "a stats answer kept for plain requests still gets CORS fields for a browser, and changes with the article"
    )
    func cachedStatsAnswers() throws {
        let server = try ServerProcess(
            store: "memory:", arguments: ["--allowed-origins", Self.allowed.joined(separator: ",")])
        let client = server.client()
        let now = Int64(Date().timeIntervalSince1970 * 1000)
        let path = "/v1/articles/\(Scenario.segment("/cached"))/stats"
        let first = Scenario.event(article: "/cached", reader: "r1", y: 100, timeMs: now)
        #expect(try client.post("/v1/events", json: first).status == 202)
        // Twice without Origin: the second is the kept answer, built once for such requests.
        let plain = try (0..<2).map { _ in try client.get(path) }
        #expect(plain.map(\.status) == [200, 200])
        #expect(plain[0].text == plain[1].text)
        #expect(plain[1].header("Access-Control-Allow-Origin") == nil)
        // Another spelling of the same article is another kept answer, with the same figures.
        let lowercase = try client.get(path.replacingOccurrences(of: "%2F", with: "%2f"))
        #expect(lowercase.text == plain[1].text)
        let browser = try client.get(path, headers: [("Origin", Self.allowed[0])])
        #expect(browser.text == plain[1].text)
        #expect(browser.header("Access-Control-Allow-Origin") == Self.allowed[0])
        #expect(browser.header("Vary")?.contains("Origin") == true)
        let second = Scenario.event(article: "/cached", reader: "r2", y: 100, timeMs: now)
        #expect(try client.post("/v1/events", json: second).status == 202)
        #expect(try client.get(path).json["readers"] as? Int == 2)
    }

    static func preflight(_ route: String, origin: String, port: UInt16) throws -> HTTPClient.Response {
        try Connection(port: port).exchange(
            method: "OPTIONS", target: route,
            headers: [
                ("Origin", origin), ("Access-Control-Request-Method", "POST"),
                ("Access-Control-Request-Headers", "Content-Type"),
            ], body: [])
    }
}
