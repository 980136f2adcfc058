/// The routes (docs/api.md), matched on the raw (still percent-encoded) path.
enum Route: Sendable, Equatable {
    case events
    case progress
    case articles
    /// `rawArticle` is the still-encoded segment between `/v1/articles/` and `/stats`.
    case stats(rawArticle: Substring)
    /// `rawArticle` is the still-encoded segment between `/v1/articles/` and `/segments`.
    case segments(rawArticle: Substring)
    /// `DELETE /v1/readers/{reader}`: `rawReader` is the still-encoded last segment.
    case reader(rawReader: Substring)
    /// `DELETE /v1/articles/{article}`: `rawArticle` is the still-encoded last segment.
    case article(rawArticle: Substring)
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
            // still finds its article, since the last `/stats` (or `/segments`) ends the id. Not so the erase
            // routes: a slip in the path must not erase something else, so their id is exactly
            // one segment.
            let articles = "/v1/articles/"
            let readers = "/v1/readers/"
            let suffix = "/stats"
            let segmentsSuffix = "/segments"
            if path.utf8.count > readers.utf8.count, path.hasPrefix(readers) {
                let rest = path.utf8.dropFirst(readers.utf8.count)
                guard !rest.contains(UInt8(ascii: "/")) else { return nil }
                self = .reader(rawReader: rest.substring(of: path))
                return
            }
            guard path.utf8.count > articles.utf8.count, path.hasPrefix(articles) else {
                guard let asset = WebCatalog.builtIn.index(of: path) else { return nil }
                self = .asset(asset)
                return
            }
            let rest = path.utf8.dropFirst(articles.utf8.count)
            if rest.count > suffix.utf8.count, path.hasSuffix(suffix) {
                self = .stats(rawArticle: rest.dropLast(suffix.utf8.count).substring(of: path))
            } else if rest.count > segmentsSuffix.utf8.count, path.hasSuffix(segmentsSuffix) {
                self = .segments(rawArticle: rest.dropLast(segmentsSuffix.utf8.count).substring(of: path))
            } else if !rest.contains(UInt8(ascii: "/")) {
                self = .article(rawArticle: rest.substring(of: path))
            } else {
                return nil
            }
        }
    }

    /// The label in metrics and logs: the route's template, never the article id.
    var label: RouteLabel {
        switch self {
        case .events: return .events
        case .progress: return .progress
        case .articles: return .articles
        case .stats: return .stats
        case .segments: return .segments
        case .reader: return .reader
        case .article: return .article
        case .healthz: return .healthz
        case .metrics: return .metrics
        case .asset(let index): return WebCatalog.builtIn.entries[index].label
        }
    }

    /// Methods the route answers, in the order `Allow` lists them.
    var methods: [String] {
        switch self {
        case .events, .progress: return Self.ingestMethods
        case .articles, .stats, .segments: return Self.readMethods
        case .reader, .article: return Self.eraseMethods
        case .healthz, .metrics, .asset: return Self.operationsMethods
        }
    }

    private static let ingestMethods = ["POST", "OPTIONS"]
    private static let eraseMethods = ["DELETE", "OPTIONS"]
    private static let readMethods = ["GET", "HEAD", "OPTIONS"]
    private static let operationsMethods = ["GET", "HEAD"]

    /// Whether the route answers `method` (``methods`` as a set, without comparing strings).
    func answers(_ method: MethodLabel) -> Bool {
        switch self {
        case .events, .progress: return method == .post || method == .options
        case .articles, .stats, .segments: return method == .get || method == .head || method == .options
        case .reader, .article: return method == .delete || method == .options
        case .healthz, .metrics, .asset: return method == .get || method == .head
        }
    }

    /// Whether `--rate-limit` counts requests for the route: not a load balancer's probe, nor a
    /// file served from memory (a page's modules come a dozen at once, and cost no more).
    var isRateLimited: Bool {
        switch self {
        case .healthz, .asset: return false
        case .events, .progress, .articles, .stats, .segments, .metrics, .reader, .article: return true
        }
    }

    /// Whether `--api-token` guards the route.
    var needsToken: Bool {
        switch self {
        case .articles, .stats, .segments, .metrics, .reader, .article: return true
        case .events, .progress, .healthz, .asset: return false
        }
    }

    /// Whether the route erases: it answers only a service with `--api-token` (403 otherwise).
    var erases: Bool {
        switch self {
        case .reader, .article: return true
        default: return false
        }
    }
}

/// A route's template as metrics and logs show it, or `unmatched`.
enum RouteLabel: Int, CaseIterable, Sendable {
    case healthz
    case metrics
    case articles
    case stats
    case segments
    case events
    case progress
    case reader
    case article
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
        case .segments: return "/v1/articles/{article}/segments"
        case .events: return "/v1/events"
        case .progress: return "/v1/progress"
        case .reader: return "/v1/readers/{reader}"
        case .article: return "/v1/articles/{article}"
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

extension Substring.UTF8View {
    /// These bytes of `text` as a substring of it (they lie on character boundaries: the
    /// routes cut only at ASCII).
    fileprivate func substring(of text: String) -> Substring {
        text[startIndex..<endIndex]
    }
}
