import Foundation
import Testing

/// `--rate-limit` (SPEC §6): past its requests a second a client gets 429 with `Retry-After`,
/// and what it sent counts for nothing.
@Suite("Rate limits, end to end")
struct RateLimitTests {
    static let article = "/limited/a"

    static func event(_ reader: String) -> String {
        Scenario.event(
            article: article, reader: reader, y: 300, timeMs: Int64(Date().timeIntervalSince1970 * 1000))
    }

    // One request a second: the second request of a client within that second is refused, however
    // slow the machine running the test (up to a second between two requests).
    @Test(
        "over its limit a client gets 429 with Retry-After and a JSON error; its event is not counted; /healthz, /metrics and other clients go on; a second later so does it"
    )
    func overTheLimit() throws {
        let server = try ServerProcess(store: "memory:", arguments: ["--rate-limit", "1"])
        let client = server.client()
        #expect(try client.post("/v1/events", json: Self.event("first")).status == 202)

        let refused = try client.post("/v1/events", json: Self.event("refused"))
        #expect(refused.status == 429)
        #expect(refused.header("Retry-After") == "1")
        #expect(refused.header("Content-Type") == "application/json")
        let error = try refused.json["error"] as? [String: Any]
        #expect(error?["code"] as? String == "rate_limited", "\(refused.text)")

        // Load balancers and scrapers are never refused.
        for _ in 0..<5 {
            #expect(try client.get("/healthz").status == 200)
            #expect(try client.get("/metrics").status == 200)
        }
        // Another address has an allowance of its own.
        let other = try Connection(port: server.port, sourceAddress: "127.0.0.2")
        let otherAnswer = try other.exchange(
            method: "POST", target: "/v1/events", headers: [("Content-Type", "application/json")],
            body: Array(Self.event("other").utf8))
        #expect(otherAnswer.status == 202)

        Thread.sleep(forTimeInterval: 1.2)
        let stats = try client.get("/v1/articles/\(Scenario.segment(Self.article))/stats")
        #expect(stats.status == 200)
        #expect(try stats.json["readers"] as? Int == 2, "\(stats.text)")
        #expect(try stats.json["events"] as? Int == 2, "\(stats.text)")
        let metrics = try client.get("/metrics").text
        #expect(metrics.contains(#"status="429""#), "\(metrics)")
    }

    @Test("READING_PROGRESS_RATE_LIMIT sets the limit too; a negative or non-numeric one exits with status 2")
    func option() throws {
        let server = try ServerProcess(store: "memory:", environment: ["READING_PROGRESS_RATE_LIMIT": "1"])
        let client = server.client()
        #expect(try client.post("/v1/events", json: Self.event("a")).status == 202)
        #expect(try client.post("/v1/events", json: Self.event("b")).status == 429)

        for value in ["-1", "many", "1.5"] {
            let process = Process()
            process.executableURL = ServerProcess.executable
            process.arguments = ["serve", "--port", "0", "--store", "memory:", "--rate-limit", value]
            process.standardOutput = FileHandle.nullDevice
            let errors = Pipe()
            process.standardError = errors
            try process.run()
            process.waitUntilExit()
            let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            #expect(process.terminationStatus == 2, "--rate-limit \(value)")
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
