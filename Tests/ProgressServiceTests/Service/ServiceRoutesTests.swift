import Foundation
import HTTPServer
import ProgressService
import Testing

@Suite("The service in process: every route over the embedded store in memory")
struct ServiceRoutesTests {
    typealias Service = ServiceUnderTest

    @Test("one event is answered 202 with its figures and counted once")
    func singleEvent() throws {
        let service = try Service()
        let answer = try service.post("/v1/events", Service.event("/a", "r1", y: 250))
        #expect(answer.status == 202)
        let json = try answer.json()
        #expect(json["accepted"] as? Int == 1)
        #expect(json["progress"] as? Double == 0.25)
        #expect(json["percent"] as? String == "25%")
        #expect(json["seenDepth"] as? Double == 0.625)
        #expect(json["scrollable"] as? Bool == true)
        #expect(json["duplicate"] == nil)
        let stats = try service.get(Service.statsPath("/a")).json()
        #expect(stats["readers"] as? Int == 1)
        #expect(stats["events"] as? Int == 1)
    }

    @Test(
        "a body of events is taken in every framing the API names",
        arguments: [
            ("application/json", "array"), ("text/plain;charset=UTF-8", "array"),
            ("application/x-ndjson", "lines"), ("application/jsonl", "lines"),
            ("application/x-ndjson; charset=utf-8", "lines"),
        ])
    func framings(contentType: String, shape: String) throws {
        let service = try Service()
        let events = (0..<3).map { Service.event("/framed", "r\($0)", y: 100 * Double($0)) }
        let body =
            shape == "array"
            ? "[" + events.joined(separator: ",") + "]" : events.joined(separator: "\n") + "\n"
        let answer = try service.post("/v1/events", body, contentType: contentType)
        #expect(answer.status == 202, "\(answer.text)")
        let json = try answer.json()
        #expect(json["accepted"] as? Int == 3)
        #expect(json["duplicates"] as? Int == 0)
        #expect((json["rejected"] as? [Any])?.isEmpty == true)
        #expect(try service.get(Service.statsPath("/framed")).json()["readers"] as? Int == 3)
    }

    @Test("sendBeacon's text/plain carries one event, answered as one")
    func beacon() throws {
        let service = try Service()
        let answer = try service.post(
            "/v1/events", Service.event("/beacon", "r1"), contentType: "text/plain;charset=UTF-8")
        #expect(answer.status == 202)
        #expect(try answer.json()["progress"] as? Double == 0.5)
    }

    @Test("a batch keeps its valid events and lists the others by position; with none valid it is 400")
    func partlyValidBatch() throws {
        let service = try Service()
        let broken = Service.event("/batch", "bad").replacingOccurrences(
            of: #""height":2000"#, with: #""height":-1"#)
        let answer = try service.post(
            "/v1/events", "[\(Service.event("/batch", "r1")),\(broken),\(Service.event("/batch", "r2"))]")
        #expect(answer.status == 202)
        let json = try answer.json()
        #expect(json["accepted"] as? Int == 2)
        let rejected = try #require(json["rejected"] as? [[String: Any]])
        #expect(rejected.count == 1)
        #expect(rejected.first?["index"] as? Int == 1)
        #expect((rejected.first?["error"] as? [String: Any])?["field"] as? String == "contentSize.height")

        let none = try service.post("/v1/events", "[\(broken)]")
        #expect(none.status == 400)
        #expect(none.error.code == "invalid_event")
        #expect(none.error.field == "[0].contentSize.height")
        #expect(try none.json()["accepted"] as? Int == 0)
        #expect(try service.get(Service.statsPath("/batch")).json()["readers"] as? Int == 2)
    }

    @Test("an event id seen already is acknowledged as a duplicate and not counted again")
    func duplicates() throws {
        let service = try Service()
        let event = Service.event("/idem", "r1", id: "e-1")
        #expect(try service.post("/v1/events", event).json()["duplicate"] == nil)
        let again = try service.post("/v1/events", event)
        #expect(again.status == 202)
        #expect(try again.json()["duplicate"] as? Bool == true)
        let batch = try service.post("/v1/events", "[\(event),\(Service.event("/idem", "r2", id: "e-2"))]")
        #expect(try batch.json()["accepted"] as? Int == 2)
        #expect(try batch.json()["duplicates"] as? Int == 1)
        #expect(try service.get(Service.statsPath("/idem")).json()["events"] as? Int == 2)
    }

    @Test(
        "bodies the ingest route cannot take get a JSON error and change nothing",
        arguments: [
            ("application/xml", Service.event("/x", "r1"), 415, "unsupported_media_type"),
            ("text/plain; charset=latin1", Service.event("/x", "r1"), 415, "unsupported_media_type"),
            ("application/json", "", 400, "invalid_json"),
            ("application/json", "{", 400, "invalid_json"),
            ("application/json", #"{"article":"/x"}"#, 400, "invalid_event"),
            ("application/json", "[]", 400, "invalid_event"),
        ])
    func refusedBodies(contentType: String, body: String, status: Int, code: String) throws {
        let service = try Service()
        let answer = try service.post("/v1/events", body, contentType: contentType)
        #expect(answer.status == status, "\(answer.text)")
        #expect(answer.error.code == code)
        #expect(answer.header("Content-Type") == "application/json")
        #expect(try service.get(Service.statsPath("/x")).status == 404)
    }

    @Test("a batch over 1000 events is 413 batch_too_large, a body over the limit 413 body_too_large")
    func tooLarge() throws {
        let service = try Service(ServiceConfiguration(maxBodyBytes: 100))
        let batch =
            "[" + Array(repeating: Service.event("/x", "r1"), count: 1001).joined(separator: ",") + "]"
        let many = try service.post("/v1/events", batch)
        #expect(many.status == 413)
        #expect(many.error.code == "batch_too_large")
        let response = service.service.bodyTooLarge(HTTPRequest(method: "POST", path: "/v1/events"))
        #expect(response.status == 413)
        #expect(Answer(response: response).error.code == "body_too_large")
    }

    @Test("POST /v1/progress answers the figures of one event and stores nothing")
    func progressOnly() throws {
        let service = try Service()
        let answer = try service.post("/v1/progress", Service.event("/p", "r1", y: 750))
        #expect(answer.status == 200)
        #expect(try answer.json()["progress"] as? Double == 0.75)
        #expect(try answer.json()["accepted"] == nil)
        // Article and reader are optional here.
        let unscrollable = #"{"contentOffset":{"x":0,"y":0},"contentSize":{"width":1,"height":10},"#
        let anonymous = try service.post(
            "/v1/progress", unscrollable + #""containerSize":{"width":1,"height":10}}"#)
        #expect(anonymous.status == 200)
        #expect(try anonymous.json()["scrollable"] as? Bool == false)
        let array = try service.post("/v1/progress", "[\(Service.event("/p", "r1"))]")
        #expect(array.status == 400)
        #expect(array.error.code == "invalid_event")
        let ndjson = try service.post(
            "/v1/progress", Service.event("/p", "r1"), contentType: "application/x-ndjson")
        #expect(ndjson.status == 415)
        #expect(try service.get(Service.statsPath("/p")).error.code == "unknown_article")
    }

    @Test("stats answer an article's figures; an unknown one is 404, a bad query or path 400")
    func statistics() throws {
        let service = try Service()
        try service.ingest([
            Service.event("/s", "r1", y: 1000, engagedMs: 3000), Service.event("/s", "r2", y: 500),
            Service.event("/s", "r3", y: 0, at: 2 * Service.dayMs),
        ])
        let stats = try service.get(Service.statsPath("/s")).json()
        #expect(stats["article"] as? String == "/s")
        #expect(stats["readers"] as? Int == 3)
        #expect(stats["metric"] as? String == "progress")
        let completion = try #require(stats["completion"] as? [String: Any])
        #expect(completion["completed"] as? Int == 1)
        #expect(completion["threshold"] as? Double == 0.9)
        #expect((stats["reach"] as? [Double])?.count == 101)
        #expect((stats["engagedSeconds"] as? [String: Any])?["total"] as? Double == 3)
        #expect(stats["firstEventAt"] as? String == "2026-11-28T12:00:00Z")

        let today = try service.get(Service.statsPath("/s", "from=2026-11-30&threshold=0.5")).json()
        #expect(today["readers"] as? Int == 2)
        #expect(today["from"] as? String == "2026-11-30")
        #expect((today["completion"] as? [String: Any])?["completed"] as? Int == 2)

        let unknown = try service.get(Service.statsPath("/never"))
        #expect(unknown.status == 404)
        #expect(unknown.error.code == "unknown_article")
        for (query, field) in [
            ("threshold=2", "threshold"), ("metric=depth", "metric"), ("from=2026-13-01", "from"),
            ("threshold=0.5&threshold=0.6", "threshold"), ("from=2026-11-30&to=2026-11-01", "from"),
        ] {
            let bad = try service.get(Service.statsPath("/s", query))
            #expect(bad.status == 400, "\(query)")
            #expect(bad.error.code == "invalid_query", "\(query)")
            #expect(bad.error.field == field, "\(query)")
        }
        let badPath = try service.get("/v1/articles/%ZZ/stats")
        #expect(badPath.status == 400)
        #expect(badPath.error.code == "invalid_path")
    }

    @Test("the listing has every article with its headline figures")
    func listing() throws {
        let service = try Service()
        try service.ingest([
            Service.event("/l/one", "r1", y: 1000), Service.event("/l/two", "r1"),
            Service.event("/l/two", "r2"),
        ])
        let json = try service.get("/v1/articles").json()
        let rows = try #require(json["articles"] as? [[String: Any]])
        #expect(rows.map { $0["article"] as? String } == ["/l/two", "/l/one"])
        #expect(rows.map { $0["readers"] as? Int } == [2, 1])
        #expect(rows.last?["completionRate"] as? Double == 1)
        #expect(rows.last?["lastEventAt"] as? String == "2026-11-30T11:59:00Z")
        #expect(json["next"] is NSNull)
    }

    @Test("/healthz is 200 while the store takes writes; /metrics counts what was asked")
    func operations() throws {
        let service = try Service()
        let health = try service.get("/healthz")
        #expect(health.status == 200)
        #expect(try health.json()["status"] as? String == "ok")
        _ = try service.post("/v1/events", Service.event("/m", "r1"))
        _ = try service.get("/nowhere")
        let metrics = try service.get("/metrics")
        #expect(metrics.status == 200)
        #expect(metrics.header("Content-Type")?.hasPrefix("text/plain; version=0.0.4") == true)
        for line in [
            #"reading_progress_http_requests_total{route="/healthz",method="GET",status="200"} 1"#,
            #"reading_progress_http_requests_total{route="/v1/events",method="POST",status="202"} 1"#,
            #"reading_progress_http_requests_total{route="unmatched",method="GET",status="404"} 1"#,
            #"reading_progress_events_total{result="accepted"} 1"#, "reading_progress_store_writable 1",
        ] {
            #expect(metrics.text.split(separator: "\n").contains(Substring(line)), "\(line)")
        }
    }

    @Test("an unknown route is 404; a method a route does not answer is 405 with Allow")
    func unknownRoutesAndMethods() throws {
        let service = try Service()
        // "/" is the dashboard.
        for target in [
            "/v1", "/v1/articles/", "/v1/articles//stats", "/v1/events/x", "/healthz/", "/nowhere",
        ] {
            let answer = try service.get(target)
            #expect(answer.status == 404, "\(target)")
            #expect(answer.error.code == "not_found", "\(target)")
        }
        let refused: [(String, String, String)] = [
            ("GET", "/v1/events", "POST, OPTIONS"), ("PUT", "/v1/progress", "POST, OPTIONS"),
            ("POST", "/v1/articles", "GET, HEAD, OPTIONS"),
            ("DELETE", "/v1/articles/a/stats", "GET, HEAD, OPTIONS"),
            ("POST", "/healthz", "GET, HEAD"), ("OPTIONS", "/metrics", "GET, HEAD"),
            ("get", "/healthz", "GET, HEAD"),
        ]
        for (method, target, allowed) in refused {
            let answer = try service.ask(method, target)
            #expect(answer.status == 405, "\(method) \(target)")
            #expect(answer.error.code == "method_not_allowed", "\(method) \(target)")
            #expect(answer.header("Allow") == allowed, "\(method) \(target)")
        }
    }

    @Test("HEAD answers with what GET would; every answer says no-store and varies by Origin")
    func headAndCommonFields() throws {
        let service = try Service()
        try service.ingest([Service.event("/h", "r1")])
        for target in [Service.statsPath("/h"), "/v1/articles", "/healthz", "/metrics", "/nowhere"] {
            let get = try service.get(target)
            let head = try service.ask("HEAD", target)
            #expect(head.status == get.status, "\(target)")
            #expect(head.header("Content-Type") == get.header("Content-Type"), "\(target)")
            if target != "/metrics" {
                // libmicrohttpd leaves out a HEAD answer's body and keeps its length.
                #expect(head.body.count == get.body.count, "\(target)")
            }
            #expect(get.header("Cache-Control") == "no-store", "\(target)")
            let varies = get.header("Vary")?.split(separator: ",").map {
                $0.trimmingCharacters(in: .whitespaces)
            }
            #expect(varies?.first == "Origin", "\(target)")
        }
    }
}
