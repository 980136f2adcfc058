import Foundation
import Testing

/// `--rate-limit` (docs/api.md, "Rate limit"): past its requests a second a client gets 429
/// with `Retry-After`, and what it sent counts for nothing.
@Suite("Rate limits, end to end")
struct RateLimitTests {
    static let article = "/limited/a"

    static func event(_ reader: String) -> String {
        Scenario.event(
            article: article, reader: reader, y: 300, timeMs: Int64(Date().timeIntervalSince1970 * 1000))
    }

    /// Posts events for readers `prefix0`, `prefix1`, … on one connection until one is refused
    /// (at most `limit`); returns how many were accepted and the refusal.
    static func postUntilRefused(_ connection: Connection, prefix: String, limit: Int = 20) throws -> (
        accepted: Int, refusal: HTTPClient.Response?
    ) {
        for n in 0..<limit {
            let answer = try connection.exchange(
                method: "POST", target: "/v1/events", headers: [("Content-Type", "application/json")],
                body: Array(event("\(prefix)\(n)").utf8))
            if answer.status == 429 { return (n, answer) }
            #expect(answer.status == 202)
        }
        return (limit, nil)
    }

    // Two requests a second: of a quick run of requests on one connection, the third or a later
    // one is refused — unless the machine running the test takes half a second a request.
    @Test(
        "over its limit a client gets 429 with Retry-After and a JSON error; what it sent is not counted; /healthz and other clients go on; a second later so does it"
    )
    func overTheLimit() throws {
        let server = try ServerProcess(store: "memory:", arguments: ["--rate-limit", "2"])
        let connection = try Connection(port: server.port)
        let (accepted, refusal) = try Self.postUntilRefused(connection, prefix: "r")
        let refused = try #require(refusal)
        #expect(accepted >= 2)
        #expect(refused.status == 429)
        #expect(refused.header("Retry-After") == "1")
        #expect(refused.header("Content-Type") == "application/json")
        let error = try refused.json["error"] as? [String: Any]
        #expect(error?["code"] as? String == "rate_limited", "\(refused.text)")

        // Load balancers' probes are never refused.
        for _ in 0..<10 {
            #expect(
                try connection.exchange(method: "GET", target: "/healthz", headers: [], body: []).status
                    == 200)
        }
        // Another address has an allowance of its own.
        let other = try Connection(port: server.port, sourceAddress: "127.0.0.2")
        let otherAnswer = try other.exchange(
            method: "POST", target: "/v1/events", headers: [("Content-Type", "application/json")],
            body: Array(Self.event("other").utf8))
        #expect(otherAnswer.status == 202)

        // A second later the bucket is full again. A sleep, since the time passing is what is
        // tested: nothing else refills the bucket, and asking earlier would be refused and counted.
        Thread.sleep(forTimeInterval: 1.2)
        let client = server.client()
        let stats = try client.get("/v1/articles/\(Scenario.segment(Self.article))/stats")
        #expect(stats.status == 200)
        #expect(try stats.json["readers"] as? Int == accepted + 1, "\(stats.text)")
        #expect(try stats.json["events"] as? Int == accepted + 1, "\(stats.text)")
        let metrics = try client.get("/metrics")
        #expect(metrics.status == 200)
        #expect(
            metrics.text.contains(#"route="/v1/events",method="POST",status="429"} 1"#), "\(metrics.text)")
    }

    @Test("READING_PROGRESS_RATE_LIMIT sets the limit too; a negative or non-numeric one exits with status 2")
    func option() throws {
        let server = try ServerProcess(store: "memory:", environment: ["READING_PROGRESS_RATE_LIMIT": "1"])
        let (accepted, refusal) = try Self.postUntilRefused(Connection(port: server.port), prefix: "e")
        #expect(accepted >= 1)
        #expect(refusal?.status == 429)

        for value in ["-1", "many", "1.5"] {
            let (status, message) = try Privacy.run(
                ["serve", "--port", "0", "--store", "memory:", "--rate-limit", value])
            #expect(status == 2, "--rate-limit \(value)")
            #expect(message.contains("--rate-limit"), "\(message)")
        }
    }

    @Test("without --rate-limit nothing is refused")
    func noLimitByDefault() throws {
        let server = try ServerProcess(store: "memory:")
        let client = server.client()
        for n in 0..<50 {
            #expect(try client.post("/v1/events", json: Self.event("r\(n)")).status == 202)
        }
    }
}
