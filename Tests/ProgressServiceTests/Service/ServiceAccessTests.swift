import ProgressService
import Testing

@Suite("The service in process: the bearer token")
struct ServiceTokenTests {
    typealias Service = ServiceUnderTest
    static let token = "s3cret-Token_42"

    /// The routes the token guards, with a known article, an unknown one and a bad query: the
    /// token is checked first, so a caller without it learns nothing of what exists.
    static let guarded = [
        Service.statsPath("/t"), "/v1/articles", "/metrics", Service.statsPath("/never"),
        "/v1/articles?limit=0", "/v1/articles/%2Ft/segments?by=device",
    ]

    static let wrongAuthorizations: [String?] = [
        nil, "Bearer wrong", "Bearer", "Bearer ", "Basic \(token)", token, "Bearer \(token.dropLast())",
        "Bearer \(token)x", "Bearer \(token.uppercased())", "Bearer  \(token)",
    ]

    @Test("stats, segments, the listing and /metrics need the token: 401 with WWW-Authenticate without it")
    func guardedRoutes() throws {
        let service = try Service(ServiceConfiguration(apiToken: Self.token))
        try service.ingest([Service.event("/t", "r1")])
        for target in Self.guarded {
            for authorization in Self.wrongAuthorizations {
                let headers = authorization.map { [("Authorization", $0)] } ?? []
                for method in ["GET", "HEAD"] {
                    let answer = try service.ask(method, target, headers: headers)
                    let label = "\(method) \(target) with \(authorization ?? "none")"
                    #expect(answer.status == 401, "\(label)")
                    #expect(answer.error.code == "unauthorized", "\(label)")
                    #expect(
                        answer.header("WWW-Authenticate") == #"Bearer realm="reading-progress""#, "\(label)")
                }
            }
        }
    }

    @Test("the right token opens them, its scheme in any case")
    func rightToken() throws {
        let service = try Service(ServiceConfiguration(apiToken: Self.token))
        try service.ingest([Service.event("/t", "r1")])
        for scheme in ["Bearer", "bearer", "BEARER"] {
            let headers = [("Authorization", "\(scheme) \(Self.token)")]
            #expect(try service.get(Self.guarded[0], headers: headers).status == 200)
            #expect(try service.get(Self.guarded[1], headers: headers).status == 200)
            #expect(try service.get(Self.guarded[2], headers: headers).status == 200)
            #expect(try service.get(Self.guarded[3], headers: headers).error.code == "unknown_article")
            #expect(try service.get(Self.guarded[4], headers: headers).error.code == "invalid_query")
            #expect(try service.get(Self.guarded[5], headers: headers).status == 200)
        }
    }

    @Test("ingest, /v1/progress, /healthz and preflights stay open, whatever token comes with them")
    func openRoutes() throws {
        let service = try Service(ServiceConfiguration(apiToken: Self.token))
        for authorization in [nil, "Bearer wrong"] {
            let headers = authorization.map { [("Authorization", $0)] } ?? []
            let reader = "r-\(authorization ?? "none")"
            #expect(
                try service.post("/v1/events", Service.event("/open", reader), headers: headers).status == 202
            )
            #expect(
                try service.post("/v1/progress", Service.event("/open", reader), headers: headers).status
                    == 200)
            #expect(try service.get("/healthz", headers: headers).status == 200)
            for target in ["/v1/events", "/v1/progress", "/v1/articles", Service.statsPath("/open")] {
                #expect(try service.ask("OPTIONS", target, headers: headers).status == 204, "\(target)")
            }
        }
        let stats = try service.get(
            Service.statsPath("/open"), headers: [("Authorization", "Bearer \(Self.token)")])
        #expect(try stats.json()["readers"] as? Int == 2)
    }

    @Test("without a token every route is open")
    func noToken() throws {
        let service = try Service()
        try service.ingest([Service.event("/t", "r1")])
        for target in Self.guarded.prefix(3) {
            #expect(try service.get(target).status == 200, "\(target)")
        }
    }
}

@Suite("The service in process: CORS")
struct ServiceCORSTests {
    typealias Service = ServiceUnderTest
    static let allowed = ["https://news.example", "https://Blog.Example"]
    static let refused = [
        "https://other.example", "http://news.example", "https://news.example.evil.com",
        "https://xnews.example",
        "null", "https://news.example:8443", "",
    ]
    static var configuration: ServiceConfiguration { ServiceConfiguration(allowedOrigins: allowed) }

    @Test("an allowed origin is echoed with credentials, compared without regard to case; another is not")
    func realRequests() throws {
        let service = try Service(Self.configuration)
        let origins = Self.allowed + ["HTTPS://NEWS.EXAMPLE", "https://blog.example"] + Self.refused
        for (number, origin) in origins.enumerated() {
            let headers = [("Origin", origin)]
            let answers = [
                try service.post("/v1/events", Service.event("/cors", "r\(number)"), headers: headers),
                try service.post("/v1/progress", Service.event("/cors", "r\(number)"), headers: headers),
                try service.post("/v1/events", "{", headers: headers),
                try service.get(Service.statsPath("/cors"), headers: headers),
                try service.get("/v1/articles", headers: headers),
                try service.get("/nowhere", headers: headers),
            ]
            let isAllowed = number < Self.allowed.count + 2
            // Ingest refuses a foreign origin itself (a beacon goes out whatever CORS says).
            let expected = isAllowed ? [202, 200, 400, 200, 200, 404] : [403, 200, 403, 200, 200, 404]
            #expect(answers.map(\.status) == expected, "from \(origin)")
            for answer in answers {
                #expect(answer.header("Vary") == "Origin", "from \(origin)")
                #expect(
                    answer.header("Access-Control-Allow-Origin") == (isAllowed ? origin : nil),
                    "from \(origin)")
                #expect(
                    answer.header("Access-Control-Allow-Credentials") == (isAllowed ? "true" : nil),
                    "from \(origin)")
            }
        }
    }

    @Test("a preflight from an allowed origin names the route's methods and the headers asked for")
    func preflight() throws {
        let service = try Service(Self.configuration)
        let routes = [
            ("/v1/events", "POST, OPTIONS"), ("/v1/progress", "POST, OPTIONS"),
            ("/v1/articles", "GET, HEAD, OPTIONS"),
            (Service.statsPath("/a"), "GET, HEAD, OPTIONS"),
        ]
        for (target, methods) in routes {
            let asked = try service.ask(
                "OPTIONS", target,
                headers: [
                    ("Origin", Self.allowed[0]), ("Access-Control-Request-Method", "POST"),
                    ("Access-Control-Request-Headers", "Content-Type, X-Client"),
                ])
            #expect(asked.status == 204, "\(target)")
            #expect(asked.body.isEmpty)
            #expect(asked.header("Access-Control-Allow-Origin") == Self.allowed[0], "\(target)")
            #expect(asked.header("Access-Control-Allow-Methods") == methods, "\(target)")
            #expect(asked.header("Access-Control-Allow-Headers") == "Content-Type, X-Client", "\(target)")
            #expect(asked.header("Access-Control-Max-Age") == "86400", "\(target)")

            let plain = try service.ask("OPTIONS", target, headers: [("Origin", Self.allowed[0])])
            #expect(
                plain.header("Access-Control-Allow-Headers") == "Content-Type, Authorization", "\(target)")
        }
    }

    @Test("a preflight from another origin is a bare 204")
    func refusedPreflight() throws {
        let service = try Service(Self.configuration)
        for origin in Self.refused {
            let answer = try service.ask("OPTIONS", "/v1/events", headers: [("Origin", origin)])
            #expect(answer.status == 204, "from \(origin)")
            #expect(answer.header("Vary") == "Origin")
            for field in [
                "Access-Control-Allow-Origin", "Access-Control-Allow-Credentials",
                "Access-Control-Allow-Methods",
                "Access-Control-Allow-Headers", "Access-Control-Max-Age",
            ] {
                #expect(answer.header(field) == nil, "\(field) from \(origin)")
            }
        }
    }

    @Test("by default every origin is allowed, and echoed — never *")
    func everyOrigin() throws {
        let service = try Service()
        for origin in ["https://any.example", "null"] {
            let answer = try service.post(
                "/v1/events", Service.event("/any", "r1"), headers: [("Origin", origin)])
            #expect(answer.header("Access-Control-Allow-Origin") == origin)
        }
    }
}
