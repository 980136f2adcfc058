import Foundation
import Testing

/// Kept stats answers go gzipped to a client that accepts it, and only to one that does
/// (docs/api.md, "Compression").
@Suite("Stats answers, gzipped when accepted")
struct CompressedAnswersTests {
    @Test("the same bytes once inflated, Vary: Accept-Encoding, identity when refused or cross-origin")
    func gzippedStats() throws {
        let server = try ServerProcess(
            store: "memory:", arguments: ["--allowed-origins", "https://news.example"])
        let client = server.client()
        let time = Scenario.midnight(daysAgo: 1) + 3_600_000
        for (index, y) in [100.0, 400, 900].enumerated() {
            let event = Scenario.event(article: "/zipped", reader: "r\(index)", y: y, timeMs: time)
            #expect(try client.post("/v1/events", json: event).status == 202)
        }
        let path = "/v1/articles/\(Scenario.segment("/zipped"))/stats"
        let plain = try client.get(path)
        #expect(plain.status == 200)
        #expect(plain.header("Content-Encoding") == nil)
        for accepted in ["gzip", "gzip, deflate, br", "br;q=1, *;q=0.5"] {
            let zipped = try client.get(path, headers: [("Accept-Encoding", accepted)])
            #expect(zipped.status == 200)
            #expect(zipped.header("Content-Encoding") == "gzip", "\(accepted)")
            #expect(zipped.body.count < plain.body.count)
            #expect(try WebAssetTests.gunzip(zipped.body) == plain.body)
            #expect(zipped.header("Vary") == "Origin, Accept-Encoding")
        }
        #expect(plain.header("Vary") == "Origin, Accept-Encoding")
        for refusal in ["identity", "gzip;q=0", "br", "*;q=0"] {
            let answer = try client.get(path, headers: [("Accept-Encoding", refusal)])
            #expect(answer.header("Content-Encoding") == nil, "\(refusal)")
            #expect(answer.body == plain.body)
        }
        let browser = try client.get(
            path, headers: [("Accept-Encoding", "gzip"), ("Origin", "https://news.example")])
        #expect(browser.header("Access-Control-Allow-Origin") == "https://news.example")
        #expect(browser.body == plain.body)
        // After a new event the compressed answer is the new one.
        let event = Scenario.event(article: "/zipped", reader: "r9", y: 50, timeMs: time)
        #expect(try client.post("/v1/events", json: event).status == 202)
        let fresh = try client.get(path, headers: [("Accept-Encoding", "gzip")])
        let inflated = try WebAssetTests.gunzip(fresh.body)
        let figures = try JSONSerialization.jsonObject(with: Data(inflated)) as? [String: Any]
        #expect(figures?["readers"] as? Int == 4)
        #expect(server.stop() == 0)
    }
}
