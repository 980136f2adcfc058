/// The routes of SPEC §2–§7, matched on the raw (still percent-encoded) path.
enum Route: Sendable, Equatable {
    case events
    case progress
    case articles
    /// `rawArticle` is the still-encoded segment between `/v1/articles/` and `/stats`.
    case stats(rawArticle: Substring)
    case healthz
    case metrics

    init?(path: String) {
        switch path {
        case "/v1/events": self = .events
        case "/v1/progress": self = .progress
        case "/v1/articles": self = .articles
        case "/healthz": self = .healthz
        case "/metrics": self = .metrics
        default:
            // Lenient on purpose: an id with unencoded slashes (`/v1/articles//blog/a/stats`)
            // still finds its article, since the last `/stats` ends the id.
            let prefix = "/v1/articles/"
            let suffix = "/stats"
            guard path.hasPrefix(prefix), path.hasSuffix(suffix),
                path.utf8.count > prefix.utf8.count + suffix.utf8.count
            else { return nil }
            let start = path.utf8.index(path.startIndex, offsetBy: prefix.utf8.count)
            let end = path.utf8.index(path.endIndex, offsetBy: -suffix.utf8.count)
            self = .stats(rawArticle: path[start..<end])
        }
    }

    /// The label in metrics and logs: the route's template, never the article id.
    var label: String {
        switch self {
        case .events: return "/v1/events"
        case .progress: return "/v1/progress"
        case .articles: return "/v1/articles"
        case .stats: return "/v1/articles/{article}/stats"
        case .healthz: return "/healthz"
        case .metrics: return "/metrics"
        }
    }

    /// Methods the route answers, in the order `Allow` lists them.
    var methods: [String] {
        switch self {
        case .events, .progress: return ["POST", "OPTIONS"]
        case .articles, .stats: return ["GET", "HEAD", "OPTIONS"]
        case .healthz, .metrics: return ["GET", "HEAD"]
        }
    }

    /// Whether `--api-token` guards the route.
    var needsToken: Bool {
        switch self {
        case .articles, .stats, .metrics: return true
        case .events, .progress, .healthz: return false
        }
    }
}
