/// The routes (docs/api.md), matched on the raw (still percent-encoded) path.
enum Route: Sendable, Equatable {
    case events
    case progress
    case articles
    /// `rawArticle` is the still-encoded segment between `/v1/articles/` and `/stats`.
    case stats(rawArticle: Substring)
    case healthz
    case metrics
    /// A file served from memory: its index in ``WebCatalog/builtIn``.
    case asset(Int)

    init?(path: String) {
        // By length first: a string comparison that fails costs more than one that succeeds.
        switch path.utf8.count {
        case 8 where path == "/healthz": self = .healthz
        case 8 where path == "/metrics": self = .metrics
        case 10 where path == "/v1/events": self = .events
        case 12 where path == "/v1/progress": self = .progress
        case 12 where path == "/v1/articles": self = .articles
        default:
            // Lenient on purpose: an id with unencoded slashes (`/v1/articles//blog/a/stats`)
            // still finds its article, since the last `/stats` ends the id.
            let prefix = "/v1/articles/"
            let suffix = "/stats"
            guard path.utf8.count > prefix.utf8.count + suffix.utf8.count, path.hasPrefix(prefix),
                path.hasSuffix(suffix)
            else {
                guard let asset = WebCatalog.builtIn.index(of: path) else { return nil }
                self = .asset(asset)
                return
            }
            let start = path.utf8.index(path.startIndex, offsetBy: prefix.utf8.count)
            let end = path.utf8.index(path.endIndex, offsetBy: -suffix.utf8.count)
            self = .stats(rawArticle: path[start..<end])
        }
    }

    /// The label in metrics and logs: the route's template, never the article id.
    var label: RouteLabel {
        switch self {
        case .events: return .events
        case .progress: return .progress
        case .articles: return .articles
        case .stats: return .stats
        case .healthz: return .healthz
        case .metrics: return .metrics
        case .asset(let index): return WebCatalog.builtIn.entries[index].label
        }
    }

    /// Methods the route answers, in the order `Allow` lists them.
    var methods: [String] {
        switch self {
        case .events, .progress: return Self.ingestMethods
        case .articles, .stats: return Self.readMethods
        case .healthz, .metrics, .asset: return Self.operationsMethods
        }
    }

    private static let ingestMethods = ["POST", "OPTIONS"]
    private static let readMethods = ["GET", "HEAD", "OPTIONS"]
    private static let operationsMethods = ["GET", "HEAD"]

    /// Whether the route answers `method` (``methods`` as a set, without comparing strings).
    func answers(_ method: MethodLabel) -> Bool {
        switch self {
        case .events, .progress: return method == .post || method == .options
        case .articles, .stats: return method == .get || method == .head || method == .options
        case .healthz, .metrics, .asset: return method == .get || method == .head
        }
    }

    /// Whether `--api-token` guards the route.
    var needsToken: Bool {
        switch self {
        case .articles, .stats, .metrics: return true
        case .events, .progress, .healthz, .asset: return false
        }
    }
}

/// A route's template as metrics and logs show it, or `unmatched`.
enum RouteLabel: Int, CaseIterable, Sendable {
    case healthz
    case metrics
    case articles
    case stats
    case events
    case progress
    /// The dashboard's page, `/`.
    case dashboard
    /// The dashboard's scripts, stylesheet and icon.
    case dashboardFile
    case favicon
    /// The web tracker, `/tracker.js`.
    case tracker
    case unmatched

    var text: String {
        switch self {
        case .healthz: return "/healthz"
        case .metrics: return "/metrics"
        case .articles: return "/v1/articles"
        case .stats: return "/v1/articles/{article}/stats"
        case .events: return "/v1/events"
        case .progress: return "/v1/progress"
        case .dashboard: return "/"
        case .dashboardFile: return "/dashboard/{file}"
        case .favicon: return "/favicon.ico"
        case .tracker: return "/tracker.js"
        case .unmatched: return "unmatched"
        }
    }
}

/// A request method as metrics count it: the standard ones by name, any other as `OTHER`, since
/// the method is the client's choice: quoted into a label it could break the exposition format,
/// and a new series per made-up method would grow without bound.
enum MethodLabel: Int, CaseIterable, Sendable {
    case get
    case head
    case post
    case put
    case delete
    case options
    case patch
    case trace
    case connect
    case other

    /// Exact and case-sensitive, as methods are (`get` is not `GET`).
    init(_ method: String) {
        switch method.utf8.count {
        case 3 where method == "GET": self = .get
        case 3 where method == "PUT": self = .put
        case 4 where method == "POST": self = .post
        case 4 where method == "HEAD": self = .head
        case 5 where method == "PATCH": self = .patch
        case 5 where method == "TRACE": self = .trace
        case 6 where method == "DELETE": self = .delete
        case 7 where method == "OPTIONS": self = .options
        case 7 where method == "CONNECT": self = .connect
        default: self = .other
        }
    }

    var text: String {
        switch self {
        case .get: return "GET"
        case .head: return "HEAD"
        case .post: return "POST"
        case .put: return "PUT"
        case .delete: return "DELETE"
        case .options: return "OPTIONS"
        case .patch: return "PATCH"
        case .trace: return "TRACE"
        case .connect: return "CONNECT"
        case .other: return "OTHER"
        }
    }
}
