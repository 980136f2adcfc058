import Foundation
import Testing

/// Events from a site not in `--allowed-origins` (docs/api.md, "CORS"): a browser sends a beacon
/// whatever the answer's CORS fields say, so the service refuses them itself — 403
/// `origin_not_allowed`, nothing counted — while requests without `Origin` are unaffected.
@Suite("Events from origins not allowed, end to end")
struct OriginRefusalTests {
    static let site = "https://news.example"

    @Test("single events, batches and NDJSON from another origin are refused and change nothing")
    func refused() throws {
        let server = try ServerProcess(store: "memory:", arguments: ["--allowed-origins", Self.site])
        let client = server.client()
        let now = Int64(Date().timeIntervalSince1970 * 1000)
        let event = Scenario.event(article: "/refused", reader: "r1", y: 500, timeMs: now)
        let bodies: [(json: String, type: String)] = [
            (event, "text/plain;charset=UTF-8"), ("[\(event),\(event)]", "application/json"),
            (event + "\n", "application/x-ndjson"), ("{", "application/json"),
        ]
        for origin in ["https://copy.example", "http://news.example", "null"] {
            for body in bodies {
                let response = try client.post(
                    "/v1/events", json: body.json, contentType: body.type, headers: [("Origin", origin)])
                #expect(response.status == 403, "\(body.type) from \(origin)")
                let error = try response.json["error"] as? [String: Any]
                #expect(error?["code"] as? String == "origin_not_allowed")
                #expect(response.header("Access-Control-Allow-Origin") == nil)
            }
        }
        let unknown = try client.get("/v1/articles/\(Scenario.segment("/refused"))/stats")
        #expect(unknown.status == 404, "nothing was counted: \(unknown.text)")

        let fromSite = try client.post(
            "/v1/events", json: event, contentType: "text/plain;charset=UTF-8",
            headers: [("Origin", Self.site.uppercased())])
        #expect(fromSite.status == 202)
        #expect(fromSite.header("Access-Control-Allow-Origin") == Self.site.uppercased())
        let withoutOrigin = Scenario.event(article: "/refused", reader: "app", y: 100, timeMs: now)
        #expect(try client.post("/v1/events", json: withoutOrigin).status == 202)
        let stats = try client.get("/v1/articles/\(Scenario.segment("/refused"))/stats")
        #expect(try stats.json["events"] as? Int == 2)
        #expect(try stats.json["readers"] as? Int == 2)
        #expect(server.stop() == 0)
    }

    @Test("with the default allowlist every origin's events are counted")
    func everyOriginByDefault() throws {
        let server = try ServerProcess(store: "memory:")
        let client = server.client()
        let now = Int64(Date().timeIntervalSince1970 * 1000)
        let event = Scenario.event(article: "/open", reader: "r1", y: 500, timeMs: now)
        let response = try client.post(
            "/v1/events", json: event, headers: [("Origin", "https://any.example")])
        #expect(response.status == 202)
        #expect(server.stop() == 0)
    }
}
