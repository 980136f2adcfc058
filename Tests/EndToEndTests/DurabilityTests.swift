import Foundation
import Synchronization
import Testing

/// "202 means durable" (docs/durability.md) — what was acknowledged survives `kill -9` at any moment.
///
/// Serialized: each case keeps eight senders busy on the global dispatch queue, whose width is
/// the number of cores; side by side on a small machine, one case's senders would wait until
/// the other's server was killed, and see nothing acknowledged.
@Suite("Durability under kill -9, end to end", .serialized)
struct DurabilityTests {
    /// What the senders saw acknowledged, and what they sent at all.
    final class Tally: Sendable {
        let acknowledged = Mutex<Set<String>>([])
        let sent = Atomic<Int>(0)
    }

    @Test(
        "every acknowledged event is counted after kill -9 mid-stream and a restart",
        arguments: [false, true])
    func acknowledgedSurvivesKill(fsyncCommits: Bool) throws {
        let folder = try TemporaryDirectory()
        let server = try ServerProcess(
            store: folder.sqliteStore, arguments: ["--fsync-commits", String(fsyncCommits)])
        let port = server.port
        let tally = Tally()
        let senders = 8
        let group = DispatchGroup()
        for sender in 0..<senders {
            DispatchQueue.global().async(group: group) {
                Self.send(as: sender, port: port, into: tally)
            }
        }
        // Kill the server in the middle of the stream, once enough is acknowledged to mean
        // something.
        let enough = eventually(within: 60) { tally.acknowledged.withLock { $0.count } >= 500 }
        server.kill()
        #expect(group.wait(timeout: .now() + 30) == .success)
        try #require(enough, "fewer than 500 events acknowledged in 60 s")

        let acknowledged = tally.acknowledged.withLock { $0 }
        let sent = tally.sent.load(ordering: .relaxed)

        let restarted = try ServerProcess(store: folder.sqliteStore)
        let stats = try restarted.client().get("/v1/articles/\(Scenario.segment("/durable"))/stats")
        #expect(stats.status == 200)
        let readers = try #require(try stats.json["readers"] as? Int)
        let events = try #require(try stats.json["events"] as? Int)
        // Each reader sends one event, so every acknowledged one must be there; some sent but
        // unacknowledged ones may be there too, nothing else.
        #expect(readers >= acknowledged.count, "\(acknowledged.count) acknowledged, \(readers) counted")
        #expect(events >= acknowledged.count)
        #expect(readers <= sent)
        #expect(events == readers)
        #expect(restarted.stop() == 0)
    }

    /// Sends one event per reader, alone or in batches of five, on one keep-alive connection
    /// (reconnecting when it is closed) until the server is gone.
    static func send(as sender: Int, port: UInt16, into tally: Tally) {
        let now = Int64(Date().timeIntervalSince1970 * 1000)
        var connection: Connection?
        var next = 0
        while true {
            let count = next % 3 == 0 ? 5 : 1
            let readers = (next..<(next + count)).map { "s\(sender)-r\($0)" }
            next += count
            let events = readers.map { Scenario.event(article: "/durable", reader: $0, y: 700, timeMs: now) }
            let body = count == 1 ? events[0] : "[" + events.joined(separator: ",") + "]"
            do {
                if connection == nil { connection = try Connection(port: port, receiveTimeoutSeconds: 10) }
                tally.sent.add(count, ordering: .relaxed)
                let response = try connection!.exchange(
                    method: "POST", target: "/v1/events", headers: [("Content-Type", "application/json")],
                    body: Array(body.utf8))
                guard response.status == 202 else { return }
                tally.acknowledged.withLock { $0.formUnion(readers) }
            } catch {
                // A closed keep-alive connection is reopened; a refused one means the server is gone.
                connection = try? Connection(port: port, receiveTimeoutSeconds: 10)
                if connection == nil { return }
            }
        }
    }
}
