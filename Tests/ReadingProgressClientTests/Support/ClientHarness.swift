import Foundation
import ProgressCore
import ReadingProgressClient
import Synchronization

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Runs blocking `work` (a process start, a socket read) on a thread of its own: the cooperative
/// pool, as wide as the machine's cores, is where the reporters under test do their work, and a
/// test that blocked it would starve them.
func onItsOwnThread<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread { continuation.resume(with: Result { try work() }) }.start()
    }
}

/// Starts the real service (see `ServerProcess`) without blocking the cooperative pool.
func startServer(store: String = "memory:", arguments: [String] = []) async throws -> ServerProcess {
    try await onItsOwnThread { try ServerProcess(store: store, arguments: arguments) }
}

extension Reporter.Configuration {
    /// A reporter for `port` with the delivery rules cut to test scale: it delivers only when
    /// told to (the count and timer are out of reach) and retries within a fraction of a second.
    static func testing(port: UInt16, folder: TemporaryDirectory, reader: String) -> Self {
        var configuration = Self(
            endpoint: URL(string: "http://127.0.0.1:\(port)")!, reader: reader,
            queueDirectory: folder.url.appendingPathComponent("queue"))
        configuration.flushCount = 10_000
        configuration.flushInterval = .seconds(3600)
        configuration.requestTimeout = .seconds(10)
        configuration.minimumBackoff = .milliseconds(20)
        configuration.maximumBackoff = .milliseconds(200)
        configuration.restDelay = .milliseconds(100)
        configuration.maximumQueuedEvents = 10_000
        return configuration
    }
}

/// The usual setup of a test: a service of its own (in memory) and a reporter for it, with the
/// real transport watched, a clock in the test's hand and a log of the reports.
struct Rig {
    let server: ServerProcess
    let folder: TemporaryDirectory
    let transport: WatchingTransport
    let clock: TestClock
    let reporter: Reporter
    let log: ReportLog

    /// Starts the service with `serverArguments`; `configure` adjusts the test configuration.
    static func start(
        serverArguments: [String] = [], configure: (inout Reporter.Configuration) -> Void = { _ in }
    ) async throws -> Rig {
        let server = try await startServer(arguments: serverArguments)
        let folder = try TemporaryDirectory()
        var configuration = Reporter.Configuration.testing(port: server.port, folder: folder, reader: "r")
        configure(&configuration)
        let transport = WatchingTransport()
        let clock = TestClock()
        let reporter = Reporter(configuration: configuration, transport: transport, clock: clock)
        return Rig(
            server: server, folder: folder, transport: transport, clock: clock, reporter: reporter,
            log: ReportLog(reporter))
    }
}

/// Every report a reporter makes, kept as it comes.
final class ReportLog: Sendable {
    private let kept = Mutex<[DeliveryReport]>([])

    init(_ reporter: Reporter) {
        Task { [self] in
            for await report in reporter.reports { kept.withLock { $0.append(report) } }
        }
    }

    var all: [DeliveryReport] { kept.withLock { $0 } }

    var deliveredIDs: [String] {
        all.flatMap { report -> [String] in
            guard case .delivered(let ids, _) = report else { return [] }
            return ids
        }
    }

    var duplicates: Int {
        all.reduce(0) { total, report in
            guard case .delivered(_, let duplicates) = report else { return total }
            return total + duplicates
        }
    }

    var rejected: [(id: String, error: ServiceError)] {
        all.compactMap { report in
            guard case .rejected(let id, _, let error) = report else { return nil }
            return (id, error)
        }
    }

    func dropped(_ reason: DropReason) -> [String] {
        all.flatMap { report -> [String] in
            guard case .dropped(let ids, reason) = report else { return [] }
            return ids
        }
    }

    var retries: [(after: Duration, reason: RetryReason)] {
        all.compactMap { report in
            guard case .retrying(let after, let reason) = report else { return nil }
            return (after, reason)
        }
    }
}

/// The real `URLSession` transport, watched: every exchange is noted, and a test may step in
/// after the real request, as a network that loses answers would.
final class WatchingTransport: Transport {
    /// One request and what came of it.
    struct Exchange: Sendable {
        var started: ContinuousClock.Instant
        var events: Int
        var bytes: Int
        var status: Int?
        var answered: ContinuousClock.Instant?
    }

    private let real = URLSessionTransport()
    private let exchanges = Mutex<[Exchange]>([])
    private let inFlight = Atomic<Int>(0)
    private let mostInFlight = Atomic<Int>(0)
    /// Runs after the real request with its number (0 first) and answer; what it throws is
    /// what the reporter sees instead of the answer.
    private let afterwards: (@Sendable (Int, TransportResponse) async throws -> Void)?

    init(afterwards: (@Sendable (Int, TransportResponse) async throws -> Void)? = nil) {
        self.afterwards = afterwards
    }

    func post(_ body: Data, to url: URL, timeout: Duration) async throws -> TransportResponse {
        let now = inFlight.add(1, ordering: .sequentiallyConsistent).newValue
        mostInFlight.max(now, ordering: .sequentiallyConsistent)
        defer { inFlight.subtract(1, ordering: .sequentiallyConsistent) }
        let events = (try? JSONSerialization.jsonObject(with: body) as? [Any])?.count ?? 0
        let started = ContinuousClock.now
        let number = exchanges.withLock {
            $0.append(Exchange(started: started, events: events, bytes: body.count))
            return $0.count - 1
        }
        let response = try await real.post(body, to: url, timeout: timeout)
        exchanges.withLock {
            $0[number].status = response.status
            $0[number].answered = ContinuousClock.now
        }
        try await afterwards?(number, response)
        return response
    }

    var all: [Exchange] { exchanges.withLock { $0 } }
    /// The most requests that were ever out at once.
    var greatestConcurrency: Int { mostInFlight.load(ordering: .sequentiallyConsistent) }
}

/// A clock that stands still until the test moves it, so that engaged time and rest come out
/// exactly as the test says; waits are real.
final class TestClock: ReportingClock {
    private let current: Mutex<Date>

    init(start: Date = Date()) { current = Mutex(start) }

    func now() -> Date { current.withLock { $0 } }

    func sleep(for duration: Duration) async throws { try await Task.sleep(for: duration) }

    func advance(by seconds: TimeInterval) { current.withLock { $0 = $0.addingTimeInterval(seconds) } }
}

/// Geometry of an article 2000 points long in a 1000-point viewport: progress is y / 1000 and
/// seen depth (y + 1000) / 2000.
func page(y: Double) -> ScrollSnapshot {
    ScrollSnapshot(
        contentOffset: Point(x: 0, y: y), contentSize: Size(width: 400, height: 2000),
        containerSize: Size(width: 400, height: 1000))
}

/// The parts of `GET /v1/articles/{article}/stats` the tests read, through `JSONDecoder`
/// (whose numbers round-trip, as `JSONSerialization`'s on Linux do not).
struct Statistics: Decodable, Sendable {
    struct Completion: Decodable, Sendable {
        var completed: Int
        var rate: Double
    }
    struct Depth: Decodable, Sendable {
        var mean: Double
        var median: Double
    }
    struct Engaged: Decodable, Sendable {
        var total: Double
    }
    var readers: Int
    var events: Int
    var completion: Completion
    var depth: Depth
    var engagedSeconds: Engaged
    var lastEventAt: String?
}

extension ServerProcess {
    /// The statistics of `article`, nil for an article the service never had an event for.
    func stats(_ article: String) async throws -> Statistics? {
        try await onItsOwnThread {
            let response = try self.client().get("/v1/articles/\(Scenario.segment(article))/stats")
            if response.status == 404 { return nil }
            guard response.status == 200 else {
                throw TestFailure("stats: \(response.status) \(response.text)")
            }
            return try JSONDecoder().decode(Statistics.self, from: Data(response.body))
        }
    }

    /// The `events` count of `article`'s statistics, 0 when it has none.
    func eventCount(_ article: String) async throws -> Int {
        try await stats(article)?.events ?? 0
    }

    /// The `events` count of every article, from one read of `GET /v1/articles` made from
    /// `sourceAddress` (another client, as far as a rate limit is concerned).
    func eventCounts(from sourceAddress: String? = nil) async throws -> [String: Int] {
        try await onItsOwnThread {
            let listing = try Connection(port: self.port, sourceAddress: sourceAddress).exchange(
                method: "GET", target: "/v1/articles?sort=article&limit=1000", headers: [], body: [])
            guard listing.status == 200, let articles = try listing.json["articles"] as? [[String: Any]]
            else {
                throw TestFailure("listing: \(listing.status) \(listing.text)")
            }
            var counts: [String: Int] = [:]
            for entry in articles {
                if let article = entry["article"] as? String { counts[article] = entry["events"] as? Int }
            }
            return counts
        }
    }
}
