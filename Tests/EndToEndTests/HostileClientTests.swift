import Foundation
import Testing

/// docs/api.md, "Limits": the service never hangs on a slow or silent client, and one address cannot crowd
/// out the others. Also the upload framings real clients use (100-continue, chunked).
@Suite("Slow and hostile clients, end to end")
struct HostileClientTests {
    static let event = Scenario.event(
        article: "/hostile", reader: "r1", y: 100, timeMs: Int64(Date().timeIntervalSince1970 * 1000))

    @Test("a client that goes silent mid-request is dropped after the connection timeout")
    func silentClientsAreDropped() throws {
        let server = try ServerProcess(store: "memory:", arguments: ["--connection-timeout", "2"])
        let body = Array(Self.event.utf8)
        let halves: [(name: String, bytes: String)] = [
            ("nothing at all", ""),
            ("half a request line", "POST /v1/ev"),
            ("half the headers", "POST /v1/events HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Ty"),
            (
                "the headers and half the body",
                "POST /v1/events HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                    + "Content-Length: \(body.count)\r\n\r\n"
                    + String(decoding: body.prefix(40), as: UTF8.self)
            ),
            (
                "100-continue, then no body",
                "POST /v1/events HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                    + "Expect: 100-continue\r\nContent-Length: \(body.count)\r\n\r\n"
            ),
            (
                "half a chunked body",
                "POST /v1/events HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                    + "Transfer-Encoding: chunked\r\n\r\n20\r\n"
                    + String(decoding: body.prefix(32), as: UTF8.self)
            ),
        ]
        let started = Date()
        let connections = try halves.map { half in
            let connection = try Connection(port: server.port)
            if !half.bytes.isEmpty { try connection.write(half.bytes) }
            return connection
        }
        // An idle keep-alive connection after a complete exchange times out the same way.
        let idle = try Connection(port: server.port)
        let health = try idle.exchange(method: "GET", target: "/healthz", headers: [], body: [])
        #expect(health.status == 200)

        for (half, connection) in zip(halves, connections) {
            #expect(connection.isClosedByPeer(within: 6), "\(half.name)")
        }
        #expect(idle.isClosedByPeer(within: 6))
        let elapsed = Date().timeIntervalSince(started)
        #expect(elapsed >= 1.5, "dropped after \(elapsed) s, before the 2 s timeout")
        #expect(elapsed < 6)
        // None of the halves counted as an event.
        let stats = try server.client().get("/v1/articles/\(Scenario.segment("/hostile"))/stats")
        #expect(stats.status == 404)
    }

    @Test("hundreds of silent connections from one address do not keep another from being served")
    func crowdFromOneAddress() throws {
        let server = try ServerProcess(
            store: "memory:", arguments: ["--connection-timeout", "2", "--per-ip-connection-limit", "50"])
        var crowd: [Connection] = []
        for _ in 0..<300 {
            // Connections over the per-IP limit may be refused at once; that is the limit working.
            guard let connection = try? Connection(port: server.port) else { continue }
            try? connection.write(
                "POST /v1/events HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 500\r\n\r\n{")
            crowd.append(connection)
        }
        #expect(crowd.count >= 50)

        let started = Date()
        do {
            let other = try Connection(
                port: server.port, sourceAddress: "127.0.0.2", receiveTimeoutSeconds: 2)
            let health = try other.exchange(method: "GET", target: "/healthz", headers: [], body: [])
            #expect(health.status == 200)
            let ingest = try other.exchange(
                method: "POST", target: "/v1/events", headers: [("Content-Type", "application/json")],
                body: Array(Self.event.utf8))
            #expect(ingest.status == 202)
        } catch {
            Issue.record("the client at 127.0.0.2 was not served: \(error)")
        }
        let waited = Date().timeIntervalSince(started)
        #expect(waited < 1, "served after \(waited) s")

        // Once the crowd has timed out, the crowded address is served again. libmicrohttpd frees
        // a per-IP slot a moment after it closes the connection, hence a few tries.
        #expect(crowd.allSatisfy { $0.isClosedByPeer(within: 6) })
        crowd.removeAll()
        let servedAgain = try eventually {
            let again = try Connection(port: server.port, receiveTimeoutSeconds: 2)
            let answer = try? again.exchange(method: "GET", target: "/healthz", headers: [], body: [])
            return answer?.status == 200
        }
        #expect(servedAgain, "127.0.0.1 was not served again after its crowd timed out")
    }

    @Test("Expect: 100-continue gets 100, then the body is taken and counted")
    func expectContinue() throws {
        let server = try ServerProcess(store: "memory:")
        let body = Array(Self.event.utf8)
        let connection = try Connection(port: server.port, receiveTimeoutSeconds: 5)
        try connection.write(
            "POST /v1/events HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                + "Expect: 100-continue\r\nContent-Length: \(body.count)\r\n\r\n")
        let interim = try connection.readInterim()
        #expect(interim == "HTTP/1.1 100 Continue")
        try connection.write(body)
        let response = try connection.readResponse()
        #expect(response.status == 202, "\(response.text)")
        let stats = try server.client().get("/v1/articles/\(Scenario.segment("/hostile"))/stats")
        #expect(try stats.json["events"] as? Int == 1)
    }

    @Test("a chunked upload in small pieces is reassembled and counted")
    func chunkedUpload() throws {
        let server = try ServerProcess(store: "memory:")
        let now = Int64(Date().timeIntervalSince1970 * 1000)
        let events = (0..<20).map {
            Scenario.event(article: "/hostile", reader: "chunked-\($0)", y: Double($0 * 50), timeMs: now)
        }
        let body = Array(events.joined(separator: "\n").utf8)
        let connection = try Connection(port: server.port, receiveTimeoutSeconds: 5)
        try connection.write(
            "POST /v1/events HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/x-ndjson\r\n"
                + "Transfer-Encoding: chunked\r\n\r\n")
        // Chunk sizes that split lines, strings and UTF-8 at odd places.
        var offset = 0
        var size = 1
        while offset < body.count {
            let chunk = Array(body[offset..<min(offset + size, body.count)])
            try connection.write(
                Array("\(String(chunk.count, radix: 16));ext=1\r\n".utf8) + chunk + [13, 10])
            offset += chunk.count
            size = size * 3 % 257 + 1
        }
        try connection.write("0\r\nX-Trailer: ignored\r\n\r\n")
        let response = try connection.readResponse()
        #expect(response.status == 202, "\(response.text)")
        #expect(try response.json["accepted"] as? Int == 20)
        // The same connection stays usable after a chunked request.
        let health = try connection.exchange(method: "GET", target: "/healthz", headers: [], body: [])
        #expect(health.status == 200)
        let stats = try server.client().get("/v1/articles/\(Scenario.segment("/hostile"))/stats")
        #expect(try stats.json["readers"] as? Int == 20)
        #expect(try stats.json["events"] as? Int == 20)
    }

    @Test("heads of 10 KiB are served; one too large for the connection's memory gets 431")
    func headerFieldLimits() throws {
        let server = try ServerProcess(store: "memory:")
        let client = server.client()
        // Long cookies and tokens are real: the connection's memory must keep taking them.
        let long = try client.get("/healthz", headers: [("X-Long", String(repeating: "a", count: 10_240))])
        #expect(long.status == 200)
        let posted = try client.post(
            "/v1/events", json: Self.event, headers: [("Cookie", String(repeating: "c", count: 8_192))])
        #expect(posted.status == 202)
        let huge = try client.get("/healthz", headers: [("X-Huge", String(repeating: "a", count: 40_960))])
        #expect(huge.status == 431)
        // The refusal leaves the server serving.
        #expect(try client.get("/healthz").status == 200)
    }

    // The sizes keep a few KiB from each limit: just below one, libmicrohttpd can take a head
    // and then lack the room to answer it, and closes the connection instead of sending 431.
    @Test(
        "--connection-memory and its variable set how large a head may be; the default is 24 KiB, not libmicrohttpd's 32"
    )
    func connectionMemoryOption() throws {
        func head(_ count: Int) -> [(String, String)] { [("X-Long", String(repeating: "a", count: count))] }
        // 28,000 bytes fit in libmicrohttpd's own 32 KiB, not in the service's 24 KiB.
        let standard = try ServerProcess(store: "memory:")
        #expect(try standard.client().get("/healthz", headers: head(28_000)).status == 431)
        let larger = try ServerProcess(store: "memory:", arguments: ["--connection-memory", "65536"])
        #expect(try larger.client().get("/healthz", headers: head(28_000)).status == 200)
        let smaller = try ServerProcess(
            store: "memory:", environment: ["READING_PROGRESS_CONNECTION_MEMORY": "8192"])
        #expect(try smaller.client().get("/healthz", headers: head(6_000)).status == 200)
        #expect(try smaller.client().get("/healthz", headers: head(12_000)).status == 431)
    }

    @Test("made-up methods cannot break /metrics or grow it without bound")
    func madeUpMethods() throws {
        let server = try ServerProcess(store: "memory:")
        let methods = ["A\"B", "X}", "GET\\", "BREW"] + (0..<200).map { "M\($0)" }
        for method in methods {
            let response = try server.client().send(method: method, target: "/healthz", body: [])
            #expect(response.status == 405, "\(method)")
            #expect(response.header("Allow") == "GET, HEAD")
        }
        let metrics = try server.client().get("/metrics")
        #expect(metrics.status == 200)
        let samples = metrics.text.split(separator: "\n").filter { !$0.hasPrefix("#") }
        // The Prometheus text format: name, optional {label="value",...} with escaped values, number.
        let sample = #/[a-zA-Z_:][a-zA-Z0-9_:]*(\{([a-zA-Z_][a-zA-Z0-9_]*="([^"\\\n]|\\.)*",?)*\})? \S+/#
        for line in samples {
            #expect(line.wholeMatch(of: sample) != nil, "not a valid sample: \(line)")
        }
        let healthLines = samples.filter {
            $0.contains("reading_progress_http_requests_total{route=\"/healthz\"")
        }
        #expect(healthLines.count <= 3, "one series per made-up method: \(healthLines.count)")
    }
}

extension Connection {
    /// Reads an interim (1xx) status line and its blank line, and returns the status line.
    func readInterim() throws -> String {
        var bytes: [UInt8] = []
        var byte: UInt8 = 0
        while !bytes.suffix(4).elementsEqual([13, 10, 13, 10]) {
            guard recv(fd, &byte, 1, 0) == 1 else { throw TestFailure("closed before an interim answer") }
            bytes.append(byte)
        }
        return String(decoding: bytes, as: UTF8.self).components(separatedBy: "\r\n")[0]
    }
}
