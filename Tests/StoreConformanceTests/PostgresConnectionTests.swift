import Foundation
import ProgressStore
import Synchronization
import Testing

@testable import PostgresStore

/// The PostgreSQL store's connections: the pool, the reading of results, what a node does right
/// after its database comes back, and letting go of everything.
@Suite("PostgreSQL connections", .enabled(if: StoreFactory.postgres != nil))
struct PostgresConnectionTests {
    /// A fresh database on the test server: its name, its URI and the server's (admin) URI.
    func database() throws -> (name: String, uri: String, admin: String) {
        let admin = try #require(ProcessInfo.processInfo.environment["READING_PROGRESS_TEST_POSTGRES"])
        let name = "rp_test_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
        let server = try PGConnection(uri: admin, connectNow: true)
        defer { server.close() }
        try server.execute("CREATE DATABASE \(name)")
        return (name, StoreFactory.uri(admin, database: name), admin)
    }

    func drop(_ name: String, admin: String) throws {
        let server = try PGConnection(uri: admin, connectNow: true)
        defer { server.close() }
        try server.execute("DROP DATABASE IF EXISTS \(name) WITH (FORCE)")
    }

    /// Sessions connected to database `name`.
    private func sessions(_ name: String, admin: String) throws -> Int64 {
        let server = try PGConnection(uri: admin, connectNow: true)
        defer { server.close() }
        return try server.execute("SELECT count(*) FROM pg_stat_activity WHERE datname = $1", [.text(name)])
            .int64(0, 0)
    }

    /// Runs `body` with `count` of the pool's connections taken at once.
    private func withConnections(
        _ count: Int, of pool: ConnectionPool, _ body: ([PGConnection]) throws(StoreError) -> Void
    ) throws(StoreError) {
        func take(_ taken: [PGConnection]) throws(StoreError) {
            guard taken.count < count else { return try body(taken) }
            try pool.withConnection { (connection) throws(StoreError) in try take(taken + [connection]) }
        }
        try take([])
    }

    @Test("closing the pool finishes a connection in use when it comes back")
    func closeFinishesConnectionsInUse() throws {
        let (name, uri, admin) = try database()
        defer { try? drop(name, admin: admin) }
        let pool = try ConnectionPool(uri: uri, size: 1, reconnection: Reconnection())
        nonisolated(unsafe) var held: PGConnection?
        try pool.withConnection { (connection) throws(StoreError) in
            try connection.execute("SELECT 1")
            held = connection
            pool.close()
        }
        #expect(held?.isConnected == false)
        #expect(eventually { (try? sessions(name, admin: admin)) == 0 })
    }

    @Test("callers who find every connection taken get them in the order they came")
    func connectionsInLine() throws {
        let (name, uri, admin) = try database()
        defer { try? drop(name, admin: admin) }
        let pool = try ConnectionPool(uri: uri, size: 1, reconnection: Reconnection())
        defer { pool.close() }
        let order = Mutex<[Int]>([])
        let release = DispatchSemaphore(value: 0)
        let held = DispatchSemaphore(value: 0)
        let group = DispatchGroup()
        DispatchQueue.global().async(group: group) {
            _ = try? pool.withConnection { (_) throws(StoreError) in
                held.signal()
                release.wait()
            }
        }
        held.wait()
        for caller in 0..<3 {
            DispatchQueue.global().async(group: group) {
                _ = try? pool.withConnection { (connection) throws(StoreError) in
                    try connection.execute("SELECT 1")
                    order.withLock { $0.append(caller) }
                }
            }
            #expect(eventually { pool.waitingCount == caller + 1 })
        }
        release.signal()
        #expect(group.wait(timeout: .now() + 10) == .success)
        #expect(order.withLock { $0 } == [0, 1, 2])
    }

    @Test("a NULL or a value that is not a number is an error, never 0")
    func resultsRefuseNullAndGarbage() throws {
        let (name, uri, admin) = try database()
        defer { try? drop(name, admin: admin) }
        let connection = try PGConnection(uri: uri, connectNow: true)
        defer { connection.close() }
        let text = try connection.execute(
            "SELECT NULL::int8, 'abc', 1.5::float8, NULL::bool, 'yes', 12::int8")
        #expect(throws: StoreError.self) { try text.int64(0, 0) }
        #expect(throws: StoreError.self) { try text.int64(0, 1) }
        #expect(throws: StoreError.self) { try text.double(0, 1) }
        #expect(try text.double(0, 2) == 1.5)
        #expect(throws: StoreError.self) { try text.bool(0, 3) }
        #expect(throws: StoreError.self) { try text.bool(0, 4) }
        #expect(try text.int64(0, 5) == 12)
        let binary = try connection.execute("SELECT -7::int4, -7::int8, NULL::int8", binaryResult: true)
        #expect(try binary.int64(0, 0) == -7)
        #expect(try binary.int64(0, 1) == -7)
        #expect(throws: StoreError.self) { try binary.int64(0, 2) }
    }

    @Test("once health says the database is back, every connection writes again")
    func healthAndWritesAgreeAfterAnOutage() throws {
        let (name, uri, admin) = try database()
        defer { try? drop(name, admin: admin) }
        let store = try PostgresStore.open(uri: uri, options: .init(readConnections: 4))
        defer { store.close() }
        try withConnections(4, of: store.pool) { (connections) throws(StoreError) in
            for connection in connections { try connection.execute("SELECT 1") }
        }
        let server = try PGConnection(uri: admin, connectNow: true)
        defer { server.close() }
        try server.execute("ALTER DATABASE \(name) ALLOW_CONNECTIONS false")
        try server.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1", [.text(name)])
        // An outage of a second and a half, through which every connection keeps trying (and
        // failing, as each request would), so that the backoff grows.
        let outageEnds = Date().addingTimeInterval(1.5)
        while Date() < outageEnds {
            try? withConnections(4, of: store.pool) { (connections) throws(StoreError) in
                for connection in connections { _ = try? connection.execute("SELECT 1") }
            }
            Thread.sleep(forTimeInterval: 0.02)
        }
        #expect(!store.probe())
        try server.execute("ALTER DATABASE \(name) ALLOW_CONNECTIONS true")
        #expect(eventually { store.probe() })
        // What `/healthz` now says, every request must find: four at once, on four connections.
        try withConnections(4, of: store.pool) { (connections) throws(StoreError) in
            for connection in connections { try connection.execute("SELECT 1") }
        }
        #expect(try store.append([EventRecord.sample(article: "/back")]).counted == 1)
    }

    @Test("a store dropped without close lets go of its threads and connections")
    func droppedStoreLetsGo() throws {
        let (name, uri, admin) = try database()
        defer { try? drop(name, admin: admin) }
        do {
            let store = try PostgresStore.open(uri: uri)
            #expect(try store.append([EventRecord.sample(article: "/a")]).counted == 1)
            #expect(try store.readers(of: "/a")?.count == 1)
        }
        #expect(eventually { (try? sessions(name, admin: admin)) == 0 })
    }
}

extension EventRecord {
    /// One reader's event on `article`, now.
    fileprivate static func sample(article: String) -> EventRecord {
        EventRecord(
            article: article, reader: "r", timeMs: Int64(Date().timeIntervalSince1970 * 1000), progress: 0.5,
            seenDepth: 0.5, scrollable: true, engagedMs: 0)
    }
}
