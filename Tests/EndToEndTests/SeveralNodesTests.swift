import Foundation
import Testing

/// Two nodes of the real executable on one PostgreSQL: any node answers any route, an event
/// acknowledged by one is in the statistics of the other, an id counts once whichever node its
/// repeats reach, and neither a killed node nor a database outage loses what was acknowledged.
@Suite("Several nodes on one PostgreSQL", .enabled(if: Postgres.adminURI != nil))
struct SeveralNodesTests {
    private func twoNodes(on uri: String, arguments: [String] = []) throws -> (ServerProcess, ServerProcess) {
        (
            try ServerProcess(store: uri, arguments: arguments),
            try ServerProcess(store: uri, arguments: arguments)
        )
    }

    private func stats(_ node: ServerProcess, _ article: String, _ query: String = "") throws -> [String:
        Any]?
    {
        let answer = try node.client().get("/v1/articles/\(Scenario.segment(article))/stats\(query)")
        return answer.status == 200 ? try answer.json : nil
    }

    private var now: Int64 { Int64(Date().timeIntervalSince1970 * 1000) }

    @Test("a scenario split between two nodes reads the same from both, each event within a second")
    func splitScenario() throws {
        let uri = try Postgres.database(on: Postgres.adminURI!)
        let (a, b) = try twoNodes(on: uri)
        for index in 0..<40 {
            let node = index.isMultiple(of: 2) ? a : b
            let event = Scenario.event(
                article: "/split", reader: "r\(index % 13)", y: Double(index * 25),
                timeMs: now - Int64(index) * 1_000,
                engagedMs: 500)
            #expect(try node.client().post("/v1/events", json: event).status == 202)
            // Acknowledged by one node: in the other's statistics within a second.
            let other = node === a ? b : a
            let seen = try eventually(within: 1) {
                (try stats(other, "/split")?["events"] as? Int) == index + 1
            }
            #expect(seen, "event \(index) reached the other node")
        }
        for query in ["", "?metric=seenDepth", "?threshold=0.5&minEngagedSeconds=1"] {
            let fromA = try #require(try stats(a, "/split", query))
            let fromB = try #require(try stats(b, "/split", query))
            #expect(NSDictionary(dictionary: fromA) == NSDictionary(dictionary: fromB), "\(query)")
            #expect(fromA["readers"] as? Int == 13)
        }
        let listA = try a.client().get("/v1/articles").text
        let listB = try b.client().get("/v1/articles").text
        #expect(listA == listB)
    }

    @Test("an id sent to both nodes, even at once, counts once")
    func idOnce() throws {
        let uri = try Postgres.database(on: Postgres.adminURI!)
        let (a, b) = try twoNodes(on: uri)
        let time = now
        for round in 0..<20 {
            let event = Scenario.event(
                article: "/ids", reader: "r1", y: 100, timeMs: time, id: "event-\(round)")
            let answers = Locked<[Int]>([])
            DispatchQueue.concurrentPerform(iterations: 4) { index in
                let node = index.isMultiple(of: 2) ? a : b
                let status = (try? node.client().post("/v1/events", json: event).status) ?? 0
                answers.withLock { $0.append(status) }
            }
            #expect(answers.value == [202, 202, 202, 202])
        }
        #expect(try stats(a, "/ids")?["events"] as? Int == 20)
        #expect(try stats(b, "/ids")?["events"] as? Int == 20)
    }

    @Test("kill -9 of a node under load loses nothing it acknowledged")
    func killedNode() throws {
        let uri = try Postgres.database(on: Postgres.adminURI!)
        let (a, b) = try twoNodes(on: uri)
        let acknowledged = Locked<Set<Int>>([])
        let time = now
        DispatchQueue.concurrentPerform(iterations: 4) { worker in
            for index in stride(from: worker, to: 4_000, by: 4) {
                let event = Scenario.event(
                    article: "/kill", reader: "r\(index)", y: 100, timeMs: time, id: "k\(index)")
                guard let answer = try? a.client().post("/v1/events", json: event) else { return }
                if answer.status == 202 { acknowledged.withLock { _ = $0.insert(index) } }
                if worker == 0 && index == 400 { a.kill() }
            }
        }
        let count = acknowledged.value.count
        #expect(count >= 100, "some events were acknowledged before the kill")
        let readers = try #require(try stats(b, "/kill")?["readers"] as? Int)
        // Every acknowledged event is there; some answered just as the node died may be too.
        #expect(readers >= count, "acknowledged \(count), counted \(readers)")
        // Sent again to the node that lives, the acknowledged ids count no more.
        for index in acknowledged.value.sorted().prefix(50) {
            let event = Scenario.event(
                article: "/kill", reader: "r\(index)", y: 100, timeMs: time, id: "k\(index)")
            #expect(try b.client().post("/v1/events", json: event).status == 202)
        }
        #expect(try stats(b, "/kill")?["readers"] as? Int == readers)
    }

    @Test("PostgreSQL stopped under load: 503 within seconds, then the nodes serve again by themselves")
    func outage() throws {
        let server = try ThrowawayPostgres()
        let uri = Postgres.replacingDatabase(of: server.uri, with: "postgres")
        let (a, b) = try twoNodes(on: uri)
        let acknowledged = Locked<Set<Int>>([])
        let stopped = Locked(false)
        let time = now
        let load = Thread {
            var index = 0
            while !stopped.value {
                index += 1
                let event = Scenario.event(
                    article: "/outage", reader: "r\(index)", y: 200, timeMs: time, id: "o\(index)")
                let node = index.isMultiple(of: 2) ? a : b
                if (try? node.client().post("/v1/events", json: event).status) == 202 {
                    acknowledged.withLock { _ = $0.insert(index) }
                }
            }
        }
        load.start()
        #expect(eventually(within: 10) { acknowledged.value.count >= 50 })
        try server.stop()
        // Both nodes say so within a few seconds, on /healthz and on ingest.
        for node in [a, b] {
            #expect(try eventually(within: 10) { try node.client().get("/healthz").status == 503 })
            let refused = try node.client().post(
                "/v1/events", json: Scenario.event(article: "/outage", reader: "x", y: 1, timeMs: time))
            #expect(refused.status == 503)
            #expect(
                try refused.json["error"].flatMap { ($0 as? [String: Any])?["code"] as? String }
                    == "store_unavailable")
        }
        try server.start()
        for node in [a, b] {
            #expect(try eventually(within: 20) { try node.client().get("/healthz").status == 200 })
        }
        let before = acknowledged.value.count
        #expect(eventually(within: 20) { acknowledged.value.count >= before + 50 }, "ingest goes on")
        stopped.withLock { $0 = true }
        #expect(eventually(within: 60) { !load.isExecuting }, "the load stops when told")
        let count = acknowledged.value.count
        let readers = try #require(try stats(a, "/outage")?["readers"] as? Int)
        #expect(readers >= count, "acknowledged \(count), counted \(readers)")
        #expect(try stats(b, "/outage")?["readers"] as? Int == readers)
    }

    @Test("an erasure answered by one node holds on the other at once")
    func erasureOnBoth() throws {
        let uri = try Postgres.database(on: Postgres.adminURI!)
        let (a, b) = try twoNodes(on: uri, arguments: ["--api-token", "s3cret"])
        for reader in ["keep", "erase-me"] {
            let event = Scenario.event(article: "/erase", reader: reader, y: 300, timeMs: now)
            #expect(try a.client().post("/v1/events", json: event).status == 202)
        }
        let auth = [("Authorization", "Bearer s3cret")]
        let erased = try a.client().send(
            method: "DELETE", target: "/v1/readers/erase-me", headers: auth, body: [])
        #expect(erased.status == 200, "\(erased.text)")
        let answer = try b.client().get("/v1/articles/\(Scenario.segment("/erase"))/stats", headers: auth)
        #expect(try answer.json["readers"] as? Int == 1)
    }
}

/// A value behind a lock, for tests' worker threads.
final class Locked<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Value
    init(_ value: Value) { stored = value }
    var value: Value { lock.withLock { stored } }
    func withLock<Result>(_ body: (inout Value) -> Result) -> Result { lock.withLock { body(&stored) } }
}
