/// What the service needs to know beyond its store: The options (docs/operations.md) that shape answers.
public struct ServiceConfiguration: Sendable {
    /// When set, read and erase routes need `Authorization: Bearer <token>`; without it the erase
    /// routes answer 403.
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
    /// Peers whose `X-Forwarded-For` names the client (docs/privacy.md, "The client address").
    public var trustedProxies: TrustedProxies
    /// Days of events kept, today's included; 0 keeps every day (docs/privacy.md, "Retention").
    public var retentionDays: Int
    /// The release `/metrics` names in `reading_progress_build_info`.
    public var version: String
    /// The embedded store's database file, whose file system `/metrics` reports the room of;
    /// nil for a store without files of its own (`memory:`, PostgreSQL).
    public var storePath: String?

    public init(
        apiToken: String? = nil, completionThreshold: Double = 0.9, maxBodyBytes: Int = 1_048_576,
        allowedOrigins: [String] = ["*"], rateLimit: Int? = nil, trustedProxies: TrustedProxies = .none,
        retentionDays: Int = 0, version: String = "unknown", storePath: String? = nil
    ) {
        self.apiToken = apiToken
        self.completionThreshold = completionThreshold
        self.maxBodyBytes = maxBodyBytes
        self.allowedOrigins = allowedOrigins
        self.rateLimit = rateLimit
        self.trustedProxies = trustedProxies
        self.retentionDays = retentionDays
        self.version = version
        self.storePath = storePath
    }
}
