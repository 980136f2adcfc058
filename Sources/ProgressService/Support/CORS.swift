/// CORS (docs/api.md, "CORS"): allowed origins are echoed (never `*`, since beacons carry credentials),
/// with `Vary: Origin` so caches keep answers for different origins apart.
struct CORSPolicy: Sendable {
    private let allowsAll: Bool
    private let origins: Set<String>

    init(allowedOrigins: [String]) {
        let trimmed = allowedOrigins.map { String(Substring($0).trimmingSpaces) }.filter { !$0.isEmpty }
        allowsAll = trimmed.contains("*")
        origins = Set(trimmed.map { $0.lowercased() })
    }

    /// Headers for an answer to a request from `origin`; `Vary: Origin` always, since the answer
    /// depends on it.
    func headers(for origin: String?) -> [(name: String, value: String)] {
        var headers: [(name: String, value: String)] = []
        appendHeaders(for: origin, to: &headers)
        return headers
    }

    /// Appends ``headers(for:)`` to `headers`, without an array of its own.
    func appendHeaders(for origin: String?, to headers: inout [(name: String, value: String)]) {
        headers.append(("Vary", "Origin"))
        // An empty `Origin:` names no origin; libmicrohttpd refuses a header without a value.
        guard let origin, !origin.isEmpty, allows(origin) else { return }
        headers.append(("Access-Control-Allow-Origin", origin))
        headers.append(("Access-Control-Allow-Credentials", "true"))
    }

    /// How many headers ``appendHeaders(for:to:)`` adds at most.
    static let maximumHeaderCount = 3

    /// The extra headers of a preflight answer, when the origin is allowed.
    func preflightHeaders(
        for origin: String?, methods: [String], requestedHeaders: String?
    ) -> [(name: String, value: String)] {
        guard let origin, !origin.isEmpty, allows(origin) else { return [] }
        let requested = requestedHeaders.flatMap { $0.isEmpty ? nil : $0 }
        return [
            ("Access-Control-Allow-Methods", methods.joined(separator: ", ")),
            ("Access-Control-Allow-Headers", requested ?? "Content-Type, Authorization"),
            ("Access-Control-Max-Age", "86400"),
        ]
    }

    func allows(_ origin: String) -> Bool {
        if allowsAll { return true }
        // Origins are nearly always written in lower case already; lowercasing allocates.
        let plainLowercase = origin.utf8.allSatisfy { $0 < 0x80 && !(0x41...0x5A).contains($0) }
        return origins.contains(plainLowercase ? origin : origin.lowercased())
    }
}
