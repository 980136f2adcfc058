/// What the service needs to know beyond its store: SPEC §2's options that shape answers.
public struct ServiceConfiguration: Sendable {
    /// When set, read routes need `Authorization: Bearer <token>`.
    public var apiToken: String?
    /// The completion threshold used when a query names none.
    public var completionThreshold: Double
    /// Bodies over this many bytes get 413.
    public var maxBodyBytes: Int
    /// Origins whose browser requests are allowed; `*` allows every origin.
    public var allowedOrigins: [String]

    public init(
        apiToken: String? = nil, completionThreshold: Double = 0.9, maxBodyBytes: Int = 1_048_576,
        allowedOrigins: [String] = ["*"]
    ) {
        self.apiToken = apiToken
        self.completionThreshold = completionThreshold
        self.maxBodyBytes = maxBodyBytes
        self.allowedOrigins = allowedOrigins
    }
}
