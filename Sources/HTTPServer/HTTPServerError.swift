/// Why an ``HTTPServer`` could not start.
public struct HTTPServerError: Error, CustomStringConvertible, Sendable {
    /// A sentence saying what failed, with the system's reason where there is one.
    public let description: String

    init(_ description: String) {
        self.description = description
    }
}
