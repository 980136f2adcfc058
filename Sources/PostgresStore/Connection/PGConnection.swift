internal import CLibPQ
import Foundation
import ProgressStore
import Synchronization

/// One libpq connection, used by one thread at a time (its owner guarantees it). A failed call
/// becomes a thrown ``StoreError`` here and nowhere else, with PostgreSQL's SQLSTATE.
///
/// Reconnects on demand: after the connection breaks, the next call connects again, but not
/// sooner than the backoff allows (doubling from 100 ms to 5 s), so that a node whose database
/// is gone answers 503 at once instead of waiting on a connect for every request. The backoff
/// is shared by every connection of a store (``Reconnection``): the database is reachable or
/// not for all of them, and once one connects again, every other tries at once — otherwise a
/// node whose health probe got through would go on refusing writes on its other connections.
final class PGConnection: @unchecked Sendable {
    private let uri: String
    private var handle: OpaquePointer?
    private let reconnection: Reconnection
    /// The statements prepared on this connection, by their text: parsed and planned once.
    private var prepared: [String: String] = [:]

    /// A connection to `uri`, made at the first call (or now, with `connectNow`), backing off
    /// with the other connections that share `reconnection`.
    init(uri: String, reconnection: Reconnection = Reconnection(), connectNow: Bool = false)
        throws(StoreError)
    {
        self.uri = uri
        self.reconnection = reconnection
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
        guard reconnection.mayTry else {
            throw StoreError.postgres(sqlState: nil, "PostgreSQL is unreachable (retrying)")
        }
        handle = PQconnectdb(Self.withTimeouts(uri))
        guard isConnected else { throw lost("cannot connect to PostgreSQL") }
        reconnection.succeeded()
    }

    /// Lets go of a connection the server has closed while it sat idle (a restart, an
    /// administrator's `pg_terminate_backend`), so that the next call connects anew instead of
    /// failing on it. One `poll` that does not wait: an idle connection has nothing to read
    /// unless the server has said goodbye (or sent a notice, which is consumed).
    func dropIfClosedByServer() {
        guard let handle else { return }
        var descriptor = pollfd(fd: PQsocket(handle), events: Int16(POLLIN), revents: 0)
        guard poll(&descriptor, 1, 0) > 0 else { return }
        // Not an error to report: no request failed. Nor a reason to back off, since the next
        // call should connect at once to a server that has only restarted.
        if PQconsumeInput(handle) == 0 || !isConnected { close() }
    }

    /// Runs `sql` with `parameters` ($1, $2…), in text form but for `.bytes` (binary); results in
    /// text form, or binary when `binaryResult`.
    @discardableResult
    func execute(_ sql: String, _ parameters: [PGValue] = [], binaryResult: Bool = false) throws(StoreError)
        -> PGResult
    {
        try connect()
        let name = try preparedName(of: sql, parameterCount: parameters.count)
        return try pqCall(binaryResult: binaryResult) { handle in
            PGValue.withCParameters(parameters) { values, lengths, formats in
                PQexecPrepared(
                    handle, name, Int32(parameters.count), values, lengths, formats, binaryResult ? 1 : 0)
            }
        }
    }

    /// The name `sql` is prepared under on this connection, preparing it the first time.
    private func preparedName(of sql: String, parameterCount: Int) throws(StoreError) -> String {
        if let name = prepared[sql] { return name }
        let name = "s\(prepared.count)"
        try pqCall { handle in PQprepare(handle, name, sql, Int32(parameterCount), nil) }
        prepared[sql] = name
        return name
    }

    /// Runs `sql`, which may hold several statements, without parameters.
    func executeScript(_ sql: String) throws(StoreError) {
        try connect()
        try pqCall { handle in PQexec(handle, sql) }
    }

    /// Makes one libpq call that answers with a result, and hands the result over if the
    /// statement succeeded: the one place that turns a result's status into a thrown
    /// ``StoreError``, in the manner of NIO's `syscall { }`. No result at all (libpq could not
    /// send the command), or a failure that leaves the connection down, means the connection
    /// broke: it is closed, and the backoff begins. Any other failure is the statement's, with
    /// its SQLSTATE.
    @discardableResult
    private func pqCall(binaryResult: Bool = false, _ body: (OpaquePointer?) -> OpaquePointer?)
        throws(StoreError) -> PGResult
    {
        guard let cResult = body(handle) else { throw lost("the connection to PostgreSQL broke") }
        let result = PGResult(cResult, binary: binaryResult)
        guard let failure = result.failure else { return result }
        guard isConnected else { throw lost("the connection to PostgreSQL broke") }
        throw failure
    }

    /// Runs `body` in a transaction: committed when it returns, rolled back when it throws.
    func transaction<Value>(_ body: () throws(StoreError) -> Value) throws(StoreError) -> Value {
        try execute("BEGIN")
        do {
            let value = try body()
            try execute("COMMIT")
            return value
        } catch {
            // The body's error is the one to report; should the rollback fail, the connection
            // has broken (and closed), which rolls the transaction back just as well.
            if isConnected { _ = try? execute("ROLLBACK") }
            throw error
        }
    }

    /// Lets go of a connection that failed, or never came up, and starts the backoff shared
    /// with the store's other connections: `what` happened, with libpq's reason.
    private func lost(_ what: String) -> StoreError {
        let error = StoreError(postgresConnection: handle, what)
        close()
        reconnection.failed()
        return error
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
}

/// When the connections of one store may next try to connect: the backoff they share.
final class Reconnection: Sendable {
    private struct State {
        var nextAttempt = Date.distantPast
        var backoff: TimeInterval = 0.1
    }

    private let state = Mutex(State())

    init() {}

    /// Whether the backoff after the last failure is over.
    var mayTry: Bool { state.withLock { Date() >= $0.nextAttempt } }

    /// A connect failed or a connection broke: no connection tries before the backoff is
    /// over, and the next backoff is twice as long (at most 5 s).
    func failed() {
        state.withLock { state in
            state.nextAttempt = Date().addingTimeInterval(state.backoff)
            state.backoff = min(state.backoff * 2, 5)
        }
    }

    /// A connection got through: every other may try again at once.
    func succeeded() {
        state.withLock { $0 = State() }
    }
}
