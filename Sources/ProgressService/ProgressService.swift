import Dispatch
public import HTTPServer
public import ProgressStore

/// The HTTP API (docs/api.md): routes a request, renders its answer, and adds what every
/// answer carries (CORS, content type), then counts and logs it.
///
/// Built once and then immutable, so the request path reads no mutable shared state beyond
/// the store and the metrics.
public final class ProgressService: HTTPResponder {
    let configuration: ServiceConfiguration
    let store: any ProgressStore
    let metrics: Metrics
    let log: RequestLog
    let cors: CORSPolicy
    let token: BearerToken?
    /// Per-client request limits, when configured.
    let limiter: RateLimiter<ClientNetwork>?
    /// Stats answers by article and query, while the article is unchanged.
    let statsCache = AnswerCache()
    /// Segments answers, the same way.
    let segmentsCache = AnswerCache()
    /// Reader ids for events that name none, and today's salt.
    let derivedReaders: DerivedReaders
    /// Milliseconds since the epoch; replaceable so tests can pin the clock.
    let clock: @Sendable () -> Int64
    /// The healthy `/healthz` answer, prepared for requests without `Origin` (every load
    /// balancer's probe).
    private let healthy = SetOnce<Reply>()

    public convenience init(
        configuration: ServiceConfiguration, store: any ProgressStore, metrics: Metrics = Metrics(),
        log: RequestLog = RequestLog(enabled: false), clock: @escaping @Sendable () -> Int64 = wallClockMs
    ) {
        self.init(
            configuration: configuration, store: store, metrics: metrics, log: log, clock: clock,
            rateLimitClock: MonotonicClock.now)
    }

    /// The service with the rate limit's buckets refilling by `rateLimitClock` (nanoseconds on a
    /// monotonic clock), so that a test turns the time that passes between requests.
    package init(
        configuration: ServiceConfiguration, store: any ProgressStore, metrics: Metrics = Metrics(),
        log: RequestLog = RequestLog(enabled: false), clock: @escaping @Sendable () -> Int64 = wallClockMs,
        rateLimitClock: @escaping @Sendable () -> Int64
    ) {
        self.configuration = configuration
        self.store = store
        self.metrics = metrics
        self.log = log
        self.cors = CORSPolicy(allowedOrigins: configuration.allowedOrigins)
        self.token = configuration.apiToken.map(BearerToken.init)
        self.limiter = configuration.rateLimit.map { RateLimiter(rate: $0, clock: rateLimitClock) }
        self.derivedReaders = DerivedReaders(store: store)
        self.clock = clock
        // Hashes and compresses the web assets now rather than on the first request for one.
        _ = WebCatalog.builtIn
        var reply = health(writable: true)
        reply.prepared = prepare(reply)
        healthy.set(reply)
    }

    /// `reply` built into a libmicrohttpd response once, as requests without `Origin` get it,
    /// and a gzip copy of it when its body is large enough to gain; both then say they vary by
    /// `Accept-Encoding`.
    func prepare(_ reply: Reply) -> PreparedReply? {
        guard reply.body.count >= PreparedReply.gzipMinimumBytes,
            let packed = Gzip.compress(reply.body, level: 6)
        else {
            return PreparedResponse(render(.success(reply), origin: nil)).map { PreparedReply(identity: $0) }
        }
        var compressed = reply
        compressed.body = packed
        compressed.headers.append(("Content-Encoding", "gzip"))
        guard let identity = PreparedResponse(Self.varyingByEncoding(render(.success(reply), origin: nil)))
        else { return nil }
        return PreparedReply(
            identity: identity,
            gzip: PreparedResponse(Self.varyingByEncoding(render(.success(compressed), origin: nil))))
    }

    /// `response` with `Accept-Encoding` added to its `Vary` field.
    private static func varyingByEncoding(_ response: HTTPResponse) -> HTTPResponse {
        var varying = response
        if let index = varying.headers.firstIndex(where: { $0.name == "Vary" }) {
            varying.headers[index].value += ", Accept-Encoding"
        } else {
            varying.headers.append(("Vary", "Accept-Encoding"))
        }
        return varying
    }

    public func respond(to request: HTTPRequest, reply: @escaping @Sendable (HTTPResponse) -> Void) {
        let started = MonotonicClock.now()
        let route = Route(path: request.path)
        let label = route?.label ?? .unmatched
        let method = request.method
        let methodLabel = MethodLabel(method)
        let origin = request.header("Origin")
        // Only kept answers are ever compressed; they are the stats route's.
        let acceptsGzip = label == .stats && AcceptEncoding.allowsGzip(request.header("Accept-Encoding"))
        // Captures only what the answer needs, not the request (its body and headers).
        let finish: Completion = { [self] outcome in
            let ended = MonotonicClock.now()
            let nanoseconds = Int(ended - started)
            let status = outcome.status
            metrics.recordRequest(route: label, method: methodLabel, status: status, nanoseconds: nanoseconds)
            // The method as metrics name it: a client's made-up method never reaches the log.
            log.request(
                method: methodLabel.text, route: label, status: status, nanoseconds: nanoseconds,
                endedAt: ended)
            reply(render(outcome, origin: origin, acceptsGzip: acceptsGzip))
        }
        // Load balancers' probes are never refused, nor the files of a page (one load asks for
        // a dozen at once); every other route counts, `/metrics` too (its token could otherwise
        // be guessed at any rate).
        if let limiter, route?.isRateLimited ?? true,
            let wait = limiter.admit(limiterKey(of: request))
        {
            finish(.failure(.rateLimited(limit: limiter.rate, retryAfterSeconds: wait)))
            return
        }
        guard let route else {
            finish(.failure(.notFound(request.path)))
            return
        }
        dispatch(request, to: route, method: methodLabel, finish)
    }

    /// Counts and logs a request the HTTP layer refuses for its framing (docs/proxies.md).
    public func refuse(_ request: HTTPRequest, because refusal: RequestRefusal) -> HTTPResponse {
        let label = Route(path: request.path)?.label ?? .unmatched
        let method = MethodLabel(request.method)
        metrics.recordRequest(route: label, method: method, status: refusal.status, nanoseconds: 0)
        log.request(
            method: method.text, route: label, status: refusal.status, nanoseconds: 0,
            endedAt: MonotonicClock.now())
        return render(.failure(APIError(refusal)), origin: request.header("Origin"))
    }

    /// The HTTP layer's own answers, through ``APIError`` as every error of the API.
    public func render(_ refusal: RequestRefusal) -> HTTPResponse {
        render(.failure(APIError(refusal)), origin: nil)
    }

    public func bodyTooLarge(_ request: HTTPRequest) -> HTTPResponse {
        let route = Route(path: request.path)
        metrics.recordRequest(
            route: route?.label ?? .unmatched, method: MethodLabel(request.method), status: 413,
            nanoseconds: 0)
        return render(
            .failure(.bodyTooLarge(limit: configuration.maxBodyBytes)), origin: request.header("Origin"))
    }

    private func dispatch(
        _ request: HTTPRequest, to route: Route, method: MethodLabel, _ finish: @escaping Completion
    ) {
        guard route.answers(method) else {
            finish(.failure(.methodNotAllowed(route.methods)))
            return
        }
        if method == .options {
            finish(.success(preflight(request, route: route)))
            return
        }
        if route.erases, token == nil {
            finish(.failure(.forbidden))
            return
        }
        if route.needsToken, let token, !token.accepts(authorization: request.header("Authorization")) {
            finish(.failure(.unauthorized))
            return
        }
        switch route {
        case .events:
            if let origin = request.header("Origin"), !cors.allows(origin) {
                metrics.recordEvents(accepted: 0, rejected: 1, duplicates: 0)
                finish(.failure(.originNotAllowed(origin)))
                return
            }
            ingest(request, finish)
        case .progress: finish(Result { () throws(APIError) in try progress(request) })
        case .articles: listing(request, finish)
        case .stats(let rawArticle): statistics(request, rawArticle: rawArticle, finish)
        case .segments(let rawArticle): segments(request, rawArticle: rawArticle, finish)
        case .reader(let rawReader): erase(.reader, rawID: rawReader, finish)
        case .article(let rawArticle): erase(.article, rawID: rawArticle, finish)
        case .healthz:
            guard store.isWritable else {
                // After a failed write, a probe decides: the cause may be gone while no
                // event has arrived to find out.
                store.probe { [self] writable in
                    finish(.success(health(writable: writable, problem: store.healthProblem)))
                }
                return
            }
            if let problem = store.healthProblem {
                finish(.success(health(writable: true, problem: problem)))
                return
            }
            finish(.success(healthy.value ?? health(writable: true)))
        case .metrics: metricsText(finish)
        case .asset(let index): finish(.success(WebCatalog.builtIn.entries[index].reply(to: request)))
        }
    }

    private func preflight(_ request: HTTPRequest, route: Route) -> Reply {
        .noContent(
            headers: cors.preflightHeaders(
                for: request.header("Origin"), methods: route.methods,
                requestedHeaders: request.header("Access-Control-Request-Headers")))
    }

    /// HEAD answers carry the GET body too: libmicrohttpd drops it and keeps its Content-Length.
    private func render(
        _ outcome: Result<Reply, APIError>, origin: String?, acceptsGzip: Bool = false
    ) -> HTTPResponse {
        if origin == nil, case .success(let reply) = outcome, let prepared = reply.prepared {
            return HTTPResponse(prepared: prepared.response(acceptingGzip: acceptsGzip))
        }
        switch outcome {
        case .success(let reply):
            return response(
                status: reply.status, body: reply.body, contentType: reply.contentType, origin: origin,
                extraCount: reply.headers.count
            ) { headers in
                headers.append(contentsOf: reply.headers)
            }
        case .failure(let error):
            return response(
                status: error.status, body: error.body, contentType: "application/json", origin: origin,
                extraCount: error.headers.count
            ) { headers in
                for header in error.headers { headers.append((header.name, header.value)) }
            }
        }
    }

    /// An answer with the route's own headers first, then those every answer carries; the
    /// header array is allocated once, at its final size.
    private func response(
        status: Int, body: [UInt8], contentType: String, origin: String?, extraCount: Int,
        extra: (inout [(name: String, value: String)]) -> Void
    ) -> HTTPResponse {
        // Most answers are JSON with no fields of their own to a request without an (allowed)
        // Origin: they share one array of fields.
        if extraCount == 0, contentType == "application/json", origin.map(cors.allows) != true {
            return HTTPResponse(status: status, headers: Self.plainJSONHeaders, body: body)
        }
        var headers: [(name: String, value: String)] = []
        headers.reserveCapacity(extraCount + 2 + CORSPolicy.maximumHeaderCount)
        extra(&headers)
        if !contentType.isEmpty { headers.append(("Content-Type", contentType)) }
        // Files served from memory say how long they may be cached; nothing else may be.
        if !headers.contains(where: { $0.name == "Cache-Control" }) {
            headers.append(("Cache-Control", "no-store"))
        }
        cors.appendHeaders(for: origin, to: &headers)
        return HTTPResponse(status: status, headers: headers, body: body)
    }

    private static let plainJSONHeaders: [(name: String, value: String)] = [
        ("Content-Type", "application/json"), ("Cache-Control", "no-store"), ("Vary", "Origin"),
    ]
}
