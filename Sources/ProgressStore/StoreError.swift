/// Why a store could not do what was asked. Renders as 503 `store_unavailable` at the edge.
///
/// A closed set of causes, so that a SQLite result code, an `errno` and a PostgreSQL SQLSTATE
/// can never be mistaken for one another.
public struct StoreError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Where a failure came from.
    public enum Cause: Sendable, Hashable {
        /// A SQLite call failed with this result code.
        case sqlite(Int32)
        /// A system call failed with this `errno`.
        case posix(Int32)
        /// PostgreSQL reported this SQLSTATE (or `nil`: the connection itself failed).
        case postgres(String?)
        /// The store's files or tables hold something they should not (damage, a missing part).
        case corrupt
        /// The store was written by a newer build, or holds a layout this build cannot read.
        case incompatible
        /// The store cannot be opened as asked (an unknown location, a bad setting).
        case configuration
        /// The store was closed; nothing more can be written or read.
        case closed
    }

    public let cause: Cause
    /// A sentence for logs and the error answer's message.
    public let message: String

    private init(_ cause: Cause, _ message: String) {
        self.cause = cause
        self.message = message
    }

    public static func sqlite(_ code: Int32, _ message: String) -> StoreError {
        StoreError(.sqlite(code), message)
    }
    public static func posix(_ code: Int32, _ message: String) -> StoreError {
        StoreError(.posix(code), message)
    }
    public static func postgres(sqlState: String?, _ message: String) -> StoreError {
        StoreError(.postgres(sqlState), message)
    }
    public static func corrupt(_ message: String) -> StoreError { StoreError(.corrupt, message) }
    public static func incompatible(_ message: String) -> StoreError { StoreError(.incompatible, message) }
    public static func configuration(_ message: String) -> StoreError { StoreError(.configuration, message) }

    /// The store was closed; nothing more can be written.
    public static let closed = StoreError(.closed, "the store is closed")

    /// The `errno` of a failed system call, if that is what this is.
    public var posixCode: Int32? {
        if case .posix(let code) = cause { return code }
        return nil
    }

    public var description: String { "store error (\(cause)): \(message)" }
}
