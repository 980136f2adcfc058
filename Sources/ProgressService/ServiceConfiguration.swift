/// What the service needs to know beyond its store: The options (docs/operations.md) that shape answers.
public struct ServiceConfiguration: Sendable {
    /// When set, read routes need `Authorization: Bearer <token>`.
    public var apiToken: String?
    /// The completion threshold used when a query names none.
    public var completionThreshold: Double
    /// Bodies over this many bytes get 413.
    public var maxBodyBytes: Int
    /// Origins whose browser requests are allowed; `*` allows every origin.
    public var allowedOrigins: [String]
    /// Requests a second one client may make (an IPv4 address, or an IPv6 /64), in bursts of as
    /// many; more get 429 with `Retry-After`. `nil`: no limit. `/healthz` is never limited.
    public var rateLimit: Int?

    public init(
        apiToken: String? = nil, completionThreshold: Double = 0.9, maxBodyBytes: Int = 1_048_576,
        allowedOrigins: [String] = ["*"], rateLimit: Int? = nil
    ) {
        self.apiToken = apiToken
        self.completionThreshold = completionThreshold
        self.maxBodyBytes = maxBodyBytes
        self.allowedOrigins = allowedOrigins
        self.rateLimit = rateLimit
    }
}
