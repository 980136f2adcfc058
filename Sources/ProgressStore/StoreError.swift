/// Why a store could not do what was asked. Renders as 503 `store_unavailable` at the edge.
public struct StoreError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The underlying library's code (SQLite result code, or 0 when not from a C call).
    public var code: Int32
    public var message: String

    public init(code: Int32, message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { "store error \(code): \(message)" }

    /// The store was closed; nothing more can be written.
    public static let closed = StoreError(code: 0, message: "the store is closed")
}
