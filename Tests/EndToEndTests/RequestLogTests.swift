import Foundation
import Testing

/// The request log (on by default): one line a request on standard error, in order, whole.
@Suite("The request log")
struct RequestLogTests {
    @Test(
        "a line for every request, in order, whole, over flushes of many sizes (each reusing the last's buffer)"
    )
    func everyRequestOneLine() throws {
        let server = try ServerProcess(store: "memory:", arguments: ["--log-requests", "true"])
        let port = server.port

        // Events over one connection, flushed every 100 ms in batches of a few hundred; then two
        // requests of other routes, flushed on their own, into a buffer a larger flush has used.
        let connection = try Connection(port: port)
        let events = 3000
        for n in 0..<events {
            let body = Scenario.event(
                article: "/log/article", reader: "r\(n % 300)", y: 100,
                timeMs: Scenario.midnight(daysAgo: 0) + 1)
            let response = try connection.exchange(
                method: "POST", target: "/v1/events", headers: [("Content-Type", "application/json")],
                body: Array(body.utf8))
            #expect(response.status == 202)
        }
        // Once the events' lines are out, the next two requests make a flush of their own.
        let flushed = eventually {
            server.standardError.split(separator: "\n").count { $0.contains(" /v1/events 202 ") } == events
        }
        #expect(flushed, "the events' log lines were not all written within 10 s")
        #expect(
            try connection.exchange(method: "GET", target: "/healthz", headers: [], body: []).status == 200)
        #expect(
            try connection.exchange(method: "GET", target: "/nowhere", headers: [], body: []).status == 404)
        #expect(server.stop() == 0)

        let lines = server.standardError.split(
            separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.last == "", "the log ends with a whole line")
        // `2026-11-30T09:00:00.123Z POST /v1/events 202 0.840ms`; `… stopped` and the other
        // lifecycle lines.
        let requestLine = #/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z (GET|POST) (\S+) (\d{3}) \d+\.\d{3}ms/#
        let lifecycleLine = #/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z [a-z].*/#
        var requests: [(method: Substring, route: Substring, status: Substring)] = []
        for line in lines.dropLast() {
            if let match = try requestLine.wholeMatch(in: line) {
                requests.append((match.output.1, match.output.2, match.output.3))
            } else {
                #expect(try lifecycleLine.wholeMatch(in: line) != nil, "not a log line: \(line)")
            }
        }
        #expect(requests.count == events + 2)
        #expect(requests.prefix(events).allSatisfy { $0 == ("POST", "/v1/events", "202") })
        #expect(
            requests.dropFirst(events).map { "\($0.method) \($0.route) \($0.status)" } == [
                "GET /healthz 200", "GET unmatched 404",
            ])
        // The stop, in its order (docs/architecture.md, "Lifecycle"), the log's last line last.
        let stages = [
            "stopping: no new connections", "requests finished: committing and closing the store", "stopped",
        ]
        let positions = stages.map { stage in lines.firstIndex { $0.contains("Z " + stage) } }
        #expect(positions.allSatisfy { $0 != nil }, "\(lines.suffix(5))")
        #expect(positions.compactMap { $0 } == positions.compactMap { $0 }.sorted())
        #expect(lines.dropLast().last?.hasSuffix("Z stopped") == true)
    }
}
