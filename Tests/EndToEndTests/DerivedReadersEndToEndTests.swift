import Foundation
import Testing

/// Events without `reader` (docs/privacy.md): the service derives one from the day's salt, the
/// client address, the `User-Agent` and the `Origin` host. The figures show it through the
/// number of readers.
@Suite("Derived readers, end to end")
struct DerivedReadersEndToEndTests {
    static let agent = "Mozilla/5.0 (X11; Linux x86_64) Derived/1.0"
    static let site = "https://news.example"

    @Test(
        "the same address, agent and site make one reader; another address, agent or site another; a batch shares one"
    )
    func sameAndDifferent() throws {
        let server = try ServerProcess(store: "memory:", arguments: ["--trusted-proxies", "127.0.0.1/32"])
        let port = server.port
        let article = "/derived/one"
        let event = Privacy.event(article: article)
        func post(_ agent: String?, _ origin: String?, _ address: String?, from source: String? = nil) throws
        {
            let headers = Privacy.browser(agent: agent, origin: origin, forwardedFor: address)
            let answer = try Privacy.post(event, port: port, headers: headers, sourceAddress: source)
            #expect(answer.status == 202, "\(answer.text)")
        }
        try post(Self.agent, Self.site, "203.0.113.1")
        try post(Self.agent, Self.site, "203.0.113.1")
        // The site is the Origin's host: its scheme, port and case do not count.
        try post(Self.agent, "http://NEWS.example:8443", "203.0.113.1")
        #expect(try Privacy.readers(article, port: port) == 1)

        try post(Self.agent + " (other)", Self.site, "203.0.113.1")
        #expect(try Privacy.readers(article, port: port) == 2)
        try post(Self.agent, "https://blog.example", "203.0.113.1")
        #expect(try Privacy.readers(article, port: port) == 3)
        try post(Self.agent, Self.site, "203.0.113.2")
        #expect(try Privacy.readers(article, port: port) == 4)
        try post(Self.agent, Self.site, "2001:db8::1")
        try post(Self.agent, Self.site, "2001:db8::2")
        #expect(try Privacy.readers(article, port: port) == 6)
        try post(nil, nil, "203.0.113.1")
        #expect(try Privacy.readers(article, port: port) == 7)
        // Another peer on the loopback network is another address too; it is no trusted proxy,
        // so what it claims in X-Forwarded-For changes nothing.
        try post(Self.agent, Self.site, nil, from: "127.0.0.2")
        try post(Self.agent, Self.site, "203.0.113.99", from: "127.0.0.2")
        #expect(try Privacy.readers(article, port: port) == 8)
        // A reader the client names is its own.
        let named = Privacy.event(article: article, reader: "r-named")
        #expect(try Privacy.post(named, port: port).status == 202)
        #expect(try Privacy.readers(article, port: port) == 9)

        // A batch and an NDJSON body derive one id for the request: with the headers of the
        // first events above, the same one.
        let headers = Privacy.browser(agent: Self.agent, origin: Self.site, forwardedFor: "203.0.113.1")
        let batch =
            "[" + Array(repeating: Privacy.event(article: "/derived/batch"), count: 3).joined(separator: ",")
            + "," + Privacy.event(article: "/derived/batch", reader: "r-named") + "]"
        let answer = try Privacy.post(batch, port: port, headers: headers)
        #expect(answer.status == 202)
        #expect(try answer.json["accepted"] as? Int == 4)
        let lines = Array(repeating: Privacy.event(article: article), count: 3).joined(separator: "\n")
        let ndjson = try Privacy.post(
            lines, port: port, headers: headers, contentType: "application/x-ndjson")
        #expect(ndjson.status == 202)
        #expect(try Privacy.readers("/derived/batch", port: port) == 2)
        let stats = try #require(try Privacy.stats(article, port: port))
        #expect(stats["readers"] as? Int == 9)
        #expect(stats["events"] as? Int == 15)
        #expect(server.stop() == 0)
    }

    @Test("the day of the salt is the server's, not the event's: events of other days get today's id")
    func dayOfTheServer() throws {
        let server = try ServerProcess(store: "memory:")
        let headers = Privacy.browser(agent: Self.agent, origin: Self.site)
        for daysAgo in [0, 1, 5] {
            let time = min(Scenario.midnight(daysAgo: daysAgo) + 3_600_000, Privacy.nowMs)
            let event = Privacy.event(article: "/derived/days", timeMs: time)
            #expect(try Privacy.post(event, port: server.port, headers: headers).status == 202)
        }
        let stats = try #require(try Privacy.stats("/derived/days", port: server.port))
        #expect(stats["readers"] as? Int == 1)
        #expect(stats["events"] as? Int == 3)
        let day = Scenario.date(daysAgo: 5)
        let ofThatDay = try #require(
            try Privacy.stats("/derived/days", port: server.port, query: "from=\(day)&to=\(day)"))
        #expect(ofThatDay["readers"] as? Int == 1, "the event counts on its own day")
    }

    @Test("X-Forwarded-For counts only from a trusted peer; the right-most entry that is no trusted proxy")
    func forwardedFor() throws {
        let untrusting = try ServerProcess(store: "memory:")
        let trustingOthers = try ServerProcess(
            store: "memory:", arguments: ["--trusted-proxies", "10.0.0.0/8"])
        for server in [untrusting, trustingOthers] {
            for address in ["203.0.113.1", "203.0.113.2", "198.51.100.7, 203.0.113.3"] {
                let headers = Privacy.browser(agent: Self.agent, origin: Self.site, forwardedFor: address)
                #expect(
                    try Privacy.post(Privacy.event(article: "/xff"), port: server.port, headers: headers)
                        .status == 202)
            }
            #expect(try Privacy.readers("/xff", port: server.port) == 1, "the peer is the client")
        }

        let trusting = try ServerProcess(
            store: "memory:", arguments: ["--trusted-proxies", "10.0.0.0/8, 127.0.0.1"])
        let sameClient = [
            "203.0.113.1", "198.51.100.7, 203.0.113.1", "203.0.113.1, 10.1.2.3", "203.0.113.1:52100",
            "  203.0.113.1 ,10.0.0.9,",
        ]
        for address in sameClient {
            let headers = Privacy.browser(agent: Self.agent, origin: Self.site, forwardedFor: address)
            #expect(
                try Privacy.post(Privacy.event(article: "/xff"), port: trusting.port, headers: headers).status
                    == 202)
        }
        #expect(try Privacy.readers("/xff", port: trusting.port) == 1)
        // Every entry a trusted proxy: the left-most. An entry that is no address: the trusted
        // hop that wrote it, here the peer.
        for address in ["10.0.0.5, 10.0.0.6", "203.0.113.1, unknown", "203.0.113.2"] {
            let headers = Privacy.browser(agent: Self.agent, origin: Self.site, forwardedFor: address)
            #expect(
                try Privacy.post(Privacy.event(article: "/xff"), port: trusting.port, headers: headers).status
                    == 202)
        }
        #expect(try Privacy.readers("/xff", port: trusting.port) == 4)
        let peer = Privacy.browser(agent: Self.agent, origin: Self.site)
        #expect(
            try Privacy.post(Privacy.event(article: "/xff"), port: trusting.port, headers: peer).status == 202
        )
        #expect(
            try Privacy.readers("/xff", port: trusting.port) == 4,
            "no X-Forwarded-For is the peer, as 'unknown' was")
    }

    @Test("the rate limit counts the resolved client, not the proxy")
    func rateLimitByClient() throws {
        let server = try ServerProcess(
            store: "memory:", arguments: ["--rate-limit", "2", "--trusted-proxies", "127.0.0.1/32"])
        let connection = try Connection(port: server.port)
        func post(as address: String) throws -> Int {
            try connection.exchange(
                method: "POST", target: "/v1/events",
                headers: [("Content-Type", "application/json"), ("X-Forwarded-For", address)],
                body: Array(Privacy.event(article: "/limited", reader: "r").utf8)
            ).status
        }
        var refused = false
        for _ in 0..<20 where !refused { refused = try post(as: "203.0.113.50") == 429 }
        #expect(refused)
        // Another client behind the same proxy has an allowance of its own, on the same connection.
        #expect(try post(as: "203.0.113.51") == 202)
    }

    @Test("ids are kept across a clean stop and kill -9, and change with the day")
    func acrossRestartsAndDays() throws {
        let folder = try TemporaryDirectory()
        let arguments = ["--trusted-proxies", "127.0.0.1/32"]
        let headers = Privacy.browser(agent: Self.agent, origin: Self.site, forwardedFor: "198.51.100.23")
        let article = "/derived/restart"
        let first = try ServerProcess(store: folder.sqliteStore, arguments: arguments)
        #expect(
            try Privacy.post(Privacy.event(article: article), port: first.port, headers: headers).status
                == 202)
        #expect(first.stop() == 0)

        let second = try ServerProcess(store: folder.sqliteStore, arguments: arguments)
        #expect(
            try Privacy.post(Privacy.event(article: article), port: second.port, headers: headers).status
                == 202)
        #expect(try Privacy.readers(article, port: second.port) == 1)
        second.kill()

        let third = try ServerProcess(store: folder.sqliteStore, arguments: arguments)
        #expect(
            try Privacy.post(Privacy.event(article: article), port: third.port, headers: headers).status
                == 202)
        let stats = try #require(try Privacy.stats(article, port: third.port))
        #expect(stats["readers"] as? Int == 1)
        #expect(stats["events"] as? Int == 3)
        #expect(third.stop() == 0)

        // Tomorrow, by the service's clock: a new salt, a new reader, counted on its own day.
        let tomorrow = try ServerProcess(
            store: folder.sqliteStore, arguments: arguments + ["--clock-offset-seconds", "86400"])
        #expect(
            try Privacy.post(Privacy.event(article: article), port: tomorrow.port, headers: headers).status
                == 202)
        #expect(try Privacy.readers(article, port: tomorrow.port) == 2)
        let day = Scenario.date(daysAgo: -1)
        let ofTomorrow = try #require(
            try Privacy.stats(article, port: tomorrow.port, query: "from=\(day)&to=\(day)"))
        #expect(ofTomorrow["readers"] as? Int == 1)
        #expect(ofTomorrow["events"] as? Int == 1)
        #expect(tomorrow.standardError.contains("--clock-offset-seconds"))
        #expect(tomorrow.stop() == 0)
    }

    @Test("an IPv6 peer derives an id too")
    func ipv6Peer() throws {
        let server: ServerProcess
        do {
            server = try ServerProcess(store: "memory:", arguments: ["--host", "::1"])
        } catch {
            // A machine without IPv6 loopback cannot run this case.
            print("skipped: cannot listen on ::1: \(error)")
            return
        }
        for agent in ["A/1", "A/1", "B/1"] {
            let posted = try ChildProcess.run(
                "/usr/bin/curl",
                [
                    "-sS", "-g", "-o", "/dev/null", "-w", "%{http_code}", "-X", "POST", "-H",
                    "Content-Type: application/json", "-H", "User-Agent: \(agent)", "--data",
                    Privacy.event(article: "/derived/v6"), "http://[::1]:\(server.port)/v1/events",
                ])
            #expect(posted.outputText == "202", "\(posted.errorText)")
        }
        let read = try ChildProcess.run(
            "/usr/bin/curl", ["-sS", "-g", "http://[::1]:\(server.port)/v1/articles/%2Fderived%2Fv6/stats"])
        let stats = try JSONSerialization.jsonObject(with: read.output)
        #expect((stats as? [String: Any])?["readers"] as? Int == 2)
    }
}
