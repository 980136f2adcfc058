internal import CLibPQ
import Foundation
import ProgressStore

extension StoreError {
    /// The error PostgreSQL reports in a failed `result`, with its SQLSTATE: callers match on
    /// some (`55P03`, a lock not to be had; `23505`, a key already taken).
    init(postgresResult result: OpaquePointer) {
        // PG_DIAG_SQLSTATE, a character macro that Swift does not import.
        let sqlState = PQresultErrorField(result, Int32(UInt8(ascii: "C"))).map { String(cString: $0) }
        self = .postgres(sqlState: sqlState, Self.oneLine(String(cString: PQresultErrorMessage(result))))
    }

    /// A failure of the connection itself, which has no SQLSTATE: `what`, then libpq's last
    /// message on `connection` (`nil` when libpq could not even allocate one).
    init(postgresConnection connection: OpaquePointer?, _ what: String) {
        let detail = connection.map { Self.oneLine(String(cString: PQerrorMessage($0))) } ?? "out of memory"
        self = .postgres(sqlState: nil, "\(what): \(detail)")
    }

    /// libpq's messages end in a newline and may span several lines; a log line holds one.
    private static func oneLine(_ message: String) -> String {
        message.trimmingCharacters(in: .whitespacesAndNewlines).replacingOccurrences(of: "\n", with: " ")
    }
}
