import Foundation
import ProgressStore
import Testing

@testable import EmbeddedStore

/// `/healthz` while the store takes writes but something in its background fails.
@Suite("Health with a failing checkpoint")
struct HealthProblemTests {
    @Test("a checkpoint that keeps failing turns /healthz to 200 degraded, naming why, and back to ok")
    func degradedNamesTheCause() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "health-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("store.sqlite3").path
        let store = try EmbeddedStore.open(
            path: path,
            options: .init(busyTimeoutMs: 10, checkpointIntervalMs: 0, clock: { ServiceUnderTest.nowMs }))
        defer { store.close() }
        let service = ServiceUnderTest(store: store)
        #expect(try service.get("/healthz").text == #"{"status":"ok"}"#)

        // Another connection holds the database's write lock: every checkpoint fails.
        let blocker = try SQLiteConnection(filename: path, busyTimeoutMs: 10)
        try blocker.execute("BEGIN IMMEDIATE")
        try service.ingest([ServiceUnderTest.event("/a", "r")])
        #expect(eventually { (try? service.get("/healthz").text.contains("degraded")) == true })
        let answer = try service.get("/healthz")
        #expect(answer.status == 200)
        let json = try answer.json()
        #expect(json["status"] as? String == "degraded")
        #expect((json["reason"] as? String)?.hasPrefix("checkpoint failing: ") == true, "\(answer.text)")
        try blocker.execute("ROLLBACK")
        blocker.close()
        #expect(eventually { (try? service.get("/healthz").text) == #"{"status":"ok"}"# })
    }
}
