import Foundation
import ProgressService
import Testing

@testable import HTTPServer

@Suite("The service in process: segments, as filters on the stats route and as their own route")
struct ServiceSegmentsTests {
    typealias Service = ServiceUnderTest

    static func path(_ article: String, _ query: String) -> String {
        "/v1/articles/\(Service.segment(article))/segments?" + query
    }

    /// `reader` on `article` at depth `y / 1000`, on `device` from `source` (each left out when nil).
    static func event(
        _ article: String, _ reader: String, y: Double, device: String?, source: String?, engagedMs: Int = 0
    ) -> String {
        var parts: [String] = []
        if let device { parts.append(#""device":"\#(device)""#) }
        if let source { parts.append(#""source":\#(Service.quoted(source))"#) }
        let event = Service.event(article, reader, y: y, engagedMs: engagedMs)
        return parts.isEmpty ? event : String(event.dropLast()) + "," + parts.joined(separator: ",") + "}"
    }

    /// Three phone readers who stop early, two desktop readers who finish, one tablet reader;
    /// the desktop readers and one phone reader came from a newsletter, the rest from nowhere.
    static func readers(_ service: Service, article: String = "/s") throws {
        try service.ingest([
            event(article, "p1", y: 200, device: "phone", source: "Newsletter", engagedMs: 5000),
            event(article, "p2", y: 300, device: "phone", source: nil),
            event(article, "p3", y: 400, device: "phone", source: nil),
            event(article, "d1", y: 1000, device: "desktop", source: "www.newsletter", engagedMs: 9000),
            event(article, "d2", y: 950, device: "desktop", source: "newsletter"),
            event(article, "t1", y: 600, device: "tablet", source: "social.example"),
        ])
    }

    @Test(
        "a bad device or source is 400 invalid_query naming it",
        arguments: [
            "device=watch", "device=", "device=Phone", "source=", "source=a%01b",
            "source=" + String(repeating: "a", count: 101), "device=phone&device=tablet",
        ])
    func badFilter(_ query: String) throws {
        let service = try Service()
        try Self.readers(service)
        let answer = try service.get(Service.statsPath("/s", query))
        #expect(answer.status == 400, "\(answer.text)")
        #expect(answer.error.code == "invalid_query")
        #expect(answer.error.field == String(query.prefix { $0 != "=" }))
    }

    @Test(
        "a bad by, limit or shared parameter on the segments route is 400 naming it",
        arguments: [
            ("", "by"), ("by=colour", "by"), ("by=device&limit=0", "limit"), ("by=source&limit=51", "limit"),
            ("by=source&limit=ten", "limit"), ("by=device&threshold=2", "threshold"),
            ("by=device&metric=time", "metric"), ("by=device&from=2026-13-01", "from"),
            ("by=device&minEngagedSeconds=-1", "minEngagedSeconds"), ("by=device&device=watch", "device"),
        ])
    func badSegmentsQuery(_ query: String, _ field: String) throws {
        let service = try Service()
        try Self.readers(service)
        let answer = try service.get(Self.path("/s", query))
        #expect(answer.status == 400, "\(answer.text)")
        #expect(answer.error.code == "invalid_query")
        #expect(answer.error.field == field)
    }

    @Test("an unknown article is 404 on the segments route, a broken id 400 invalid_path")
    func unknownArticle() throws {
        let service = try Service()
        let unknown = try service.get(Self.path("/never", "by=device"))
        #expect(unknown.status == 404)
        #expect(unknown.error.code == "unknown_article")
        let broken = try service.get("/v1/articles/%FF/segments?by=device")
        #expect(broken.status == 400)
        #expect(broken.error.code == "invalid_path")
        #expect(try service.ask("OPTIONS", Self.path("/never", "by=device")).status == 204)
        let post = try service.post(Self.path("/never", "by=device"), "{}")
        #expect(post.status == 405)
        #expect(post.header("Allow") == "GET, HEAD, OPTIONS")
    }

    @Test("device= counts the class's readers only, with null times and no attention or section seconds")
    func deviceFilter() throws {
        let service = try Service()
        try Self.readers(service)
        try service.ingest([
            ServicePartsTests.withParts(
                Service.event("/s", "p1", y: 200, engagedMs: 10),
                #""sections":[{"title":"Intro","start":0,"words":40}],"attention":[5,5,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0]"#
            )
        ])
        let all = try service.get(Service.statsPath("/s")).json()
        #expect(all["readers"] as? Int == 6)
        #expect(all["firstEventAt"] is String)
        #expect(all["attention"] is [Double])

        let phone = try service.get(Service.statsPath("/s", "device=phone")).json()
        #expect(phone["device"] as? String == "phone")
        #expect(phone["source"] is NSNull)
        #expect(phone["readers"] as? Int == 3)
        #expect(phone["events"] as? Int == 4)
        let depth = try #require(phone["depth"] as? [String: Any])
        #expect(abs((depth["mean"] as? Double ?? 0) - 0.3) < 1e-9)
        #expect(depth["median"] as? Double == 0.3)
        let reach = try #require(phone["reach"] as? [Double])
        #expect(reach.count == 101)
        #expect(reach[20] == 1)
        #expect(abs(reach[30] - 2.0 / 3) < 1e-9)
        #expect(reach[41] == 0)
        #expect((phone["completion"] as? [String: Any])?["completed"] as? Int == 0)
        #expect(phone["firstEventAt"] is NSNull)
        #expect(phone["lastEventAt"] is NSNull)
        #expect(phone["attention"] is NSNull)
        let section = try #require((phone["sections"] as? [[String: Any]])?.first)
        #expect(section["title"] as? String == "Intro")
        #expect(section["reached"] as? Double == 1)
        #expect(section["seconds"] is NSNull)
        #expect(section["wordsPerMinute"] is NSNull)

        let desktop = try service.get(Service.statsPath("/s", "device=desktop")).json()
        #expect(desktop["readers"] as? Int == 2)
        #expect((desktop["completion"] as? [String: Any])?["rate"] as? Double == 1)
        #expect((desktop["engagedSeconds"] as? [String: Any])?["total"] as? Double == 9)
    }

    @Test("source= is normalised; with device= both hold; a source nobody came from gives zeros")
    func sourceFilter() throws {
        let service = try Service()
        try Self.readers(service)
        let spellings = ["source=newsletter", "source=Newsletter", "source=WWW.NEWSLETTER"]
        let answers = try spellings.map { try service.get(Service.statsPath("/s", $0)).json() }
        for answer in answers {
            #expect(answer["source"] as? String == "newsletter")
            #expect(answer["readers"] as? Int == 3)
            #expect((answer["completion"] as? [String: Any])?["completed"] as? Int == 2)
        }
        let direct = try service.get(Service.statsPath("/s", "source=(direct)")).json()
        #expect(direct["readers"] as? Int == 2)
        let both = try service.get(Service.statsPath("/s", "device=phone&source=newsletter")).json()
        #expect(both["readers"] as? Int == 1)
        #expect((both["depth"] as? [String: Any])?["mean"] as? Double == 0.2)
        let nobody = try service.get(Service.statsPath("/s", "source=nowhere.example"))
        #expect(nobody.status == 200, "\(nobody.text)")
        let zeros = try nobody.json()
        #expect(zeros["readers"] as? Int == 0)
        #expect(zeros["events"] as? Int == 0)
        #expect((zeros["reach"] as? [Double]) == Array(repeating: 0, count: 101))
    }

    @Test("by=device lists every class present, most readers first, each as device= says")
    func byDevice() throws {
        let service = try Service()
        try Self.readers(service)
        let answer = try service.get(Self.path("/s", "by=device&threshold=0.5"))
        #expect(answer.status == 200, "\(answer.text)")
        let json = try answer.json()
        #expect(json["article"] as? String == "/s")
        #expect(json["by"] as? String == "device")
        #expect(json["other"] is NSNull)
        let segments = try #require(json["segments"] as? [[String: Any]])
        #expect(segments.map { $0["segment"] as? String } == ["phone", "desktop", "tablet"])
        #expect(segments.map { $0["readers"] as? Int } == [3, 2, 1])
        for segment in segments {
            let name = try #require(segment["segment"] as? String)
            let stats = try service.get(Service.statsPath("/s", "device=\(name)&threshold=0.5")).json()
            try Self.expectSame(segment, stats, "\(name)")
        }
    }

    @Test("by=source folds the sources past limit into other")
    func bySource() throws {
        let service = try Service()
        try Self.readers(service)
        let json = try service.get(Self.path("/s", "by=source&limit=1&metric=seenDepth")).json()
        let segments = try #require(json["segments"] as? [[String: Any]])
        #expect(segments.map { $0["segment"] as? String } == ["newsletter"])
        let newsletter = try service.get(Service.statsPath("/s", "source=newsletter&metric=seenDepth")).json()
        try Self.expectSame(segments[0], newsletter, "newsletter")
        let other = try #require(json["other"] as? [String: Any])
        #expect(other["segment"] as? String == "(other)")
        #expect(other["readers"] as? Int == 3)

        let every = try service.get(Self.path("/s", "by=source")).json()
        let names = (every["segments"] as? [[String: Any]])?.map { $0["segment"] as? String }
        #expect(names == ["newsletter", "(direct)", "social.example"])
        #expect(every["other"] is NSNull)
    }

    @Test("each filter and each segments query is its own kept answer, and an event renews them")
    func cached() throws {
        let service = try Service()
        try Self.readers(service)
        let targets = [
            Service.statsPath("/s", "device=phone"), Service.statsPath("/s", "device=desktop"),
            Service.statsPath("/s", "source=newsletter"), Service.statsPath("/s"),
            Self.path("/s", "by=device"), Self.path("/s", "by=source"),
        ]
        let first = try targets.map { try service.get($0) }
        #expect(Set(first.map(\.body)).count == targets.count, "one answer for each")
        for (target, answer) in zip(targets, first) {
            let again = try service.get(target)
            #expect(again.body == answer.body, "\(target)")
            #expect(again.response.prepared != nil && again.response.prepared === answer.response.prepared)
        }
        try service.ingest([Self.event("/s", "p4", y: 100, device: "phone", source: "newsletter")])
        for (target, answer) in zip(targets, first) where target != targets[1] {
            #expect(try service.get(target).body != answer.body, "\(target)")
        }
    }

    @Test("unencoded slashes end at the last /segments; HEAD and an allowed Origin as on the stats route")
    func paths() throws {
        let service = try Service(ServiceConfiguration(allowedOrigins: ["https://news.example"]))
        try Self.readers(service, article: "/blog/a")
        try Self.readers(service, article: "x/segments")
        let plain = try service.get(Self.path("/blog/a", "by=device"))
        #expect(try service.get("/v1/articles//blog/a/segments?by=device").body == plain.body)
        let stats = try service.get("/v1/articles/x/segments/stats").json()
        #expect(stats["article"] as? String == "x/segments")
        #expect(try service.get("/v1/articles/x/segments?by=device").status == 404)
        let head = try service.ask("HEAD", Self.path("/blog/a", "by=device"))
        #expect(head.status == 200)
        #expect(head.header("Cache-Control") == "no-store")
        let browser = try service.get(
            Self.path("/blog/a", "by=device"), headers: [("Origin", "https://news.example")])
        #expect(browser.body == plain.body)
        #expect(browser.header("Access-Control-Allow-Origin") == "https://news.example")
        #expect(browser.header("Access-Control-Allow-Credentials") == "true")
    }

    @Test("an erased reader is gone from the segments and the filtered stats at once")
    func erased() throws {
        let service = try Service(ServiceConfiguration(apiToken: "t0ken"))
        try Self.readers(service)
        let auth = [("Authorization", "Bearer t0ken")]
        let before = try service.get(Self.path("/s", "by=device"), headers: auth).json()
        #expect((before["segments"] as? [[String: Any]])?.first?["readers"] as? Int == 3)
        #expect(try service.ask("DELETE", "/v1/readers/p1", headers: auth).status == 200)
        let after = try service.get(Self.path("/s", "by=device"), headers: auth).json()
        #expect((after["segments"] as? [[String: Any]])?.first?["readers"] as? Int == 2)
        let phone = try service.get(Service.statsPath("/s", "device=phone"), headers: auth).json()
        #expect(phone["readers"] as? Int == 2)
    }

    /// A segment of the segments route says what the stats route filtered to it says.
    static func expectSame(
        _ segment: [String: Any], _ stats: [String: Any], _ label: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        #expect(
            segment["readers"] as? Int == stats["readers"] as? Int, "\(label)", sourceLocation: sourceLocation
        )
        let (a, b) = (segment["completion"] as? [String: Any], stats["completion"] as? [String: Any])
        #expect(
            a?["completed"] as? Int == b?["completed"] as? Int, "\(label)", sourceLocation: sourceLocation)
        #expect(a?["rate"] as? Double == b?["rate"] as? Double, "\(label)", sourceLocation: sourceLocation)
        let (c, d) = (segment["depth"] as? [String: Any], stats["depth"] as? [String: Any])
        #expect(c?["mean"] as? Double == d?["mean"] as? Double, "\(label)", sourceLocation: sourceLocation)
        #expect(
            c?["median"] as? Double == d?["median"] as? Double, "\(label)", sourceLocation: sourceLocation)
        #expect(
            segment["reach"] as? [Double] == stats["reach"] as? [Double], "\(label)",
            sourceLocation: sourceLocation)
    }
}
