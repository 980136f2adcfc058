import ProgressStore
import Testing

@testable import PostgresStore

extension PostgresConnectionTests {
    @Test(
        "a database of the first schema migrates to the current one, its log folded with maps and attention")
    func migratesFirstSchema() throws {
        let (name, uri, admin) = try database()
        defer { try? drop(name, admin: admin) }  // a database left behind is only space on a test server
        let time = Int64(firstDay) * dayMs
        let event = EventRecord(
            article: "/old", reader: "r", timeMs: time, progress: 0.4, seenDepth: 0.6, scrollable: true,
            engagedMs: 2000, sections: [Section(title: "Start", start: 0, words: 50)],
            attention: [UInt32](repeating: 2000, count: AttentionBands.count))
        do {
            let connection = try PGConnection(uri: uri, connectNow: true)
            defer { connection.close() }
            try connection.executeScript(PostgresSchema.migrations[0])
            try connection.executeScript(
                "CREATE TABLE rp_meta (key text PRIMARY KEY, value text NOT NULL); "
                    + "INSERT INTO rp_meta VALUES ('schema_version', '1')")
            try connection.execute(
                "INSERT INTO rp_log (committed_ms, payload) VALUES ($1, $2)",
                [.int(time), .bytes(EventLogCodec.encode([event]))])
        }
        let store = try PostgresStore.open(uri: uri)
        defer { store.close() }
        let query = StatisticsQuery(article: "/old", threshold: 0.9)
        #expect(try store.statistics(query)?.readers == 1)
        let parts = try #require(try store.sections(query))
        #expect(parts.attention == [Double](repeating: 2, count: AttentionBands.count))
        #expect(parts.sections.map(\.title) == ["Start"] && parts.sections.first?.seconds == 40)
        let check = try PGConnection(uri: uri, connectNow: true)
        defer { check.close() }
        let version = try check.execute("SELECT value FROM rp_meta WHERE key = 'schema_version'")
        #expect(version.string(0, 0) == String(PostgresSchema.currentVersion))
    }
}
