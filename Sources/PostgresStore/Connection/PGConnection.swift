internal import CLibPQ
import Foundation
import ProgressStore

/// One libpq connection, used by one thread at a time (its owner guarantees it). A failed call
/// becomes a thrown ``StoreError`` here and nowhere else, with PostgreSQL's SQLSTATE.
///
/// Reconnects on demand: after the connection breaks, the next call connects again, but not
/// sooner than the backoff allows (doubling from 100 ms to 5 s), so that a node whose database
/// is gone answers 503 at once instead of waiting on a connect for every request.
final class PGConnection: @unchecked Sendable {
    private let uri: String
    private var handle: OpaquePointer?
    private var nextAttempt = Date.distantPast
    private var backoff: TimeInterval = 0.1
    /// Statements to run after every connect (`LISTEN`, session settings).
    private let onConnect: [String]
    /// The statements prepared on this connection, by their text: parsed and planned once.
    private var prepared: [String: String] = [:]

    /// A connection to `uri`, made at the first call (or now, with `connectNow`).
    init(uri: String, onConnect: [String] = [], connectNow: Bool = false) throws(StoreError) {
        self.uri = uri
        self.onConnect = onConnect
        if connectNow { try connect() }
    }

    deinit {
        close()
    }

    /// Whether the connection is up (it may still break at the next call).
    var isConnected: Bool { handle.map { PQstatus($0) == CONNECTION_OK } ?? false }

    func close() {
        if let handle { PQfinish(handle) }
        handle = nil
        prepared = [:]
    }

    /// Connects if not connected; throws at once while the backoff after a failure lasts.
    func connect() throws(StoreError) {
        if isConnected { return }
        close()
        guard Date() >= nextAttempt else {
            throw StoreError.postgres(sqlState: nil, "PostgreSQL is unreachable (retrying)")
        }
        let conninfo = Self.withTimeouts(uri)
        let connection = PQconnectdb(conninfo)
        guard let connection, PQstatus(connection) == CONNECTION_OK else {
            let message = connection.map { String(cString: PQerrorMessage($0)) } ?? "out of memory"
            if let connection { PQfinish(connection) }
            nextAttempt = Date().addingTimeInterval(backoff)
            backoff = min(backoff * 2, 5)
            throw StoreError.postgres(sqlState: nil, "cannot connect to PostgreSQL: \(Self.trimmed(message))")
        }
        handle = connection
        backoff = 0.1
        for statement in onConnect { _ = try execute(statement) }
    }

    /// Runs `sql` with `parameters` ($1, $2…), in text form but for `.bytes` (binary); results in
    /// text form, or binary when `binaryResult`.
    @discardableResult
    func execute(_ sql: String, _ parameters: [PGValue] = [], binaryResult: Bool = false) throws(StoreError)
        -> PGResult
    {
        try connect()
        let name = try preparedName(of: sql, parameterCount: parameters.count)
        let result = PGValue.withCParameters(parameters) { values, lengths, formats in
            PQexecPrepared(handle, name, Int32(parameters.count), values, lengths, formats, binaryResult ? 1 : 0)
        }
        guard let result else { throw brokenConnection("no result") }
        let status = PQresultStatus(result)
        guard status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK else {
            let sqlState = PQresultErrorField(result, Int32(UInt8(ascii: "C"))).map { String(cString: $0) }
            let message = Self.trimmed(String(cString: PQresultErrorMessage(result)))
            PQclear(result)
            if PQstatus(handle) != CONNECTION_OK { throw brokenConnection(message) }
            throw StoreError.postgres(sqlState: sqlState, message)
        }
        return PGResult(result, binary: binaryResult)
    }

    /// The name `sql` is prepared under on this connection, preparing it the first time.
    private func preparedName(of sql: String, parameterCount: Int) throws(StoreError) -> String {
        if let name = prepared[sql] { return name }
        let name = "s\(prepared.count)"
        guard let result = PQprepare(handle, name, sql, Int32(parameterCount), nil) else {
            throw brokenConnection("no result")
        }
        defer { PQclear(result) }
        guard PQresultStatus(result) == PGRES_COMMAND_OK else {
            let sqlState = PQresultErrorField(result, Int32(UInt8(ascii: "C"))).map { String(cString: $0) }
            let message = Self.trimmed(String(cString: PQresultErrorMessage(result)))
            if PQstatus(handle) != CONNECTION_OK { throw brokenConnection(message) }
            throw StoreError.postgres(sqlState: sqlState, message)
        }
        prepared[sql] = name
        return name
    }

    /// Runs `sql`, which may hold several statements, without parameters.
    func executeScript(_ sql: String) throws(StoreError) {
        try connect()
        guard let result = PQexec(handle, sql) else { throw brokenConnection("no result") }
        defer { PQclear(result) }
        let status = PQresultStatus(result)
        guard status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK else {
            let sqlState = PQresultErrorField(result, Int32(UInt8(ascii: "C"))).map { String(cString: $0) }
            let message = Self.trimmed(String(cString: PQresultErrorMessage(result)))
            if PQstatus(handle) != CONNECTION_OK { throw brokenConnection(message) }
            throw StoreError.postgres(sqlState: sqlState, message)
        }
    }

    /// Runs `body` in a transaction: committed when it returns, rolled back when it throws.
    func transaction<Value>(_ body: () throws(StoreError) -> Value) throws(StoreError) -> Value {
        try execute("BEGIN")
        do {
            let value = try body()
            try execute("COMMIT")
            return value
        } catch {
            if isConnected { _ = try? execute("ROLLBACK") }
            throw error
        }
    }

    /// Waits up to `seconds` for a notification on a channel this connection listens on;
    /// whether one came. Notifications that came meanwhile count.
    func waitForNotification(seconds: Double) -> Bool {
        guard let handle, isConnected else { return false }
        if drainNotifications(handle) { return true }
        var descriptor = pollfd(fd: PQsocket(handle), events: Int16(POLLIN), revents: 0)
        guard poll(&descriptor, 1, Int32(seconds * 1000)) > 0 else { return false }
        PQconsumeInput(handle)
        return drainNotifications(handle)
    }

    private func drainNotifications(_ handle: OpaquePointer) -> Bool {
        var any = false
        while let notification = PQnotifies(handle) {
            any = true
            PQfreemem(notification)
        }
        return any
    }

    private func brokenConnection(_ message: String) -> StoreError {
        close()
        nextAttempt = Date().addingTimeInterval(backoff)
        backoff = min(backoff * 2, 5)
        return StoreError.postgres(sqlState: nil, "the connection to PostgreSQL broke: \(message)")
    }

    /// The URI with the timeouts a node needs to notice an unreachable database within seconds,
    /// unless the URI sets them itself.
    static func withTimeouts(_ uri: String) -> String {
        let settings = [
            "connect_timeout=3", "keepalives=1", "keepalives_idle=5", "keepalives_interval=2",
            "keepalives_count=2", "tcp_user_timeout=6000",
        ].filter { setting in !uri.contains(setting.prefix(while: { $0 != "=" }) + "=") }
        guard !settings.isEmpty else { return uri }
        return uri + (uri.contains("?") ? "&" : "?") + settings.joined(separator: "&")
    }

    private static func trimmed(_ message: String) -> String {
        message.trimmingCharacters(in: .whitespacesAndNewlines).replacingOccurrences(of: "\n", with: " ")
    }
}
