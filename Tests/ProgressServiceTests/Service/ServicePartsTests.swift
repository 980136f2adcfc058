import Foundation
import Testing

@Suite("The service in process: sections, attention, device and source on the ingest routes")
struct ServicePartsTests {
    typealias Service = ServiceUnderTest

    static func withParts(_ event: String, _ members: String) -> String {
        String(event.dropLast()) + "," + members + "}"
    }

    static let parts =
        #""sections":[{"title":"Intro","start":0,"words":40}],"attention":[5,5,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0],"device":"phone","source":"Newsletter""#

    @Test("an event with every part is taken; a bad part refuses the event alone and changes nothing")
    func batch() throws {
        let service = try Service()
        let good = Self.withParts(Service.event("/parts", "r1", engagedMs: 10), Self.parts)
        let bad = Self.withParts(
            Service.event("/parts", "r2", engagedMs: 10),
            #""sections":[{"title":"A","start":0.5},{"title":"B","start":0.25}]"#)
        let answer = try service.post("/v1/events", "[" + good + "," + bad + "]")
        #expect(answer.status == 202, "\(answer.text)")
        let json = try answer.json()
        #expect(json["accepted"] as? Int == 1)
        let rejected = try #require(json["rejected"] as? [[String: Any]])
        #expect(rejected.count == 1)
        #expect(rejected.first?["index"] as? Int == 1)
        let error = rejected.first?["error"] as? [String: Any]
        #expect(error?["code"] as? String == "invalid_event")
        #expect(error?["field"] as? String == "sections[1].start")
        let stats = try service.get(Service.statsPath("/parts")).json()
        #expect(stats["readers"] as? Int == 1)
        #expect(stats["events"] as? Int == 1)
    }

    @Test("a lone event whose attention outgrows its engaged time is 400 on attention[i], counting nothing")
    func attentionOverEngaged() throws {
        let service = try Service()
        let event = Self.withParts(
            Service.event("/over", "r1", engagedMs: 4),
            #""attention":[0,0,0,0,0,0,0,5,0,0,0,0,0,0,0,0,0,0,0,0]"#)
        let answer = try service.post("/v1/events", event)
        #expect(answer.status == 400)
        let error = try answer.json()["error"] as? [String: Any]
        #expect(error?["field"] as? String == "attention[7]")
        #expect(try service.get(Service.statsPath("/over")).status == 404)
    }

    @Test("/v1/progress takes the parts, checks them and stores nothing")
    func progressRoute() throws {
        let service = try Service()
        let event = Self.withParts(Service.event("/figures", "r1", engagedMs: 10), Self.parts)
        let answer = try service.post("/v1/progress", event)
        #expect(answer.status == 200, "\(answer.text)")
        #expect(try answer.json()["progress"] as? Double == 0.5)
        let bad = Self.withParts(Service.event("/figures", "r1"), #""device":"watch""#)
        let refused = try service.post("/v1/progress", bad)
        #expect(refused.status == 400)
        #expect((try refused.json()["error"] as? [String: Any])?["field"] as? String == "device")
        #expect(try service.get(Service.statsPath("/figures")).status == 404)
    }
}
