import Foundation
import Testing

/// `--rate-limit` (docs/api.md, "Rate limit") as the executable takes it: past its requests a
/// second a client gets 429 with `Retry-After`.
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

    // Of a quick run of requests on one connection, one past the limit is refused, unless the
    // machine running the test takes half a second a request. What a refusal says, and how the
    // bucket refills, ProgressServiceTests' ServiceRateLimitTests show on a clock of their own.
    @Test(
        "--rate-limit and READING_PROGRESS_RATE_LIMIT set the limit; a negative or non-numeric one exits with status 2"
    )
    func option() throws {
        let flag = try ServerProcess(store: "memory:", arguments: ["--rate-limit", "2"])
        let (acceptedByFlag, refusedByFlag) = try Self.postUntilRefused(
            Connection(port: flag.port), prefix: "f")
        #expect(acceptedByFlag >= 2)
        #expect(refusedByFlag?.status == 429)
        #expect(refusedByFlag?.header("Retry-After") == "1")

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
