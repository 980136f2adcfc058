import ProgressStore
import Synchronization

/// Counters and histograms for `GET /metrics` (SPEC §7), safe to update from any thread.
public final class Metrics: Sendable {
    private struct RequestKey: Hashable {
        var route: String
        var method: String
        var status: Int
    }

    private let requests = Mutex<[RequestKey: Int]>([:])
    private let eventsAccepted = Atomic<Int>(0)
    private let eventsRejected = Atomic<Int>(0)
    private let eventsDuplicate = Atomic<Int>(0)
    private let requestSeconds = Histogram()
    private let commitSeconds = Histogram()

    public init() {}

    /// Methods counted under their own name; any other is counted as `OTHER`, since the method
    /// is the client's choice: quoted into a label it could break the exposition format, and a
    /// new series per made-up method would grow without bound.
    static let knownMethods: Set<String> = [
        "GET", "HEAD", "POST", "PUT", "DELETE", "OPTIONS", "PATCH", "TRACE", "CONNECT",
    ]

    func recordRequest(route: String, method: String, status: Int, seconds: Double) {
        let method = Self.knownMethods.contains(method) ? method : "OTHER"
        requests.withLock { $0[RequestKey(route: route, method: method, status: status), default: 0] += 1 }
        requestSeconds.observe(seconds)
    }

    func recordEvents(accepted: Int, rejected: Int, duplicates: Int) {
        if accepted > 0 { eventsAccepted.add(accepted, ordering: .relaxed) }
        if rejected > 0 { eventsRejected.add(rejected, ordering: .relaxed) }
        if duplicates > 0 { eventsDuplicate.add(duplicates, ordering: .relaxed) }
    }

    func recordCommit(seconds: Double) {
        commitSeconds.observe(seconds)
    }

    /// The Prometheus text exposition format, version 0.0.4.
    func render(storeSizeBytes: Int64, storeWritable: Bool, storeGauges: [StoreGauge] = []) -> String {
        var out = ""
        out +=
            "# HELP reading_progress_http_requests_total HTTP requests answered, by route, method and status.\n"
        out += "# TYPE reading_progress_http_requests_total counter\n"
        let counts = requests.withLock { $0 }.sorted {
            ($0.key.route, $0.key.method, $0.key.status) < ($1.key.route, $1.key.method, $1.key.status)
        }
        for (key, count) in counts {
            out +=
                "reading_progress_http_requests_total{route=\"\(key.route)\",method=\"\(key.method)\",status=\"\(key.status)\"} \(count)\n"
        }
        out += "# HELP reading_progress_events_total Events received, by result.\n"
        out += "# TYPE reading_progress_events_total counter\n"
        out +=
            "reading_progress_events_total{result=\"accepted\"} \(eventsAccepted.load(ordering: .relaxed))\n"
        out +=
            "reading_progress_events_total{result=\"rejected\"} \(eventsRejected.load(ordering: .relaxed))\n"
        out +=
            "reading_progress_events_total{result=\"duplicate\"} \(eventsDuplicate.load(ordering: .relaxed))\n"
        out += requestSeconds.render(
            name: "reading_progress_http_request_duration_seconds",
            help: "Time from a whole request to its answer.")
        out += commitSeconds.render(
            name: "reading_progress_store_commit_duration_seconds",
            help: "Time from handing events to the store until they are durable.")
        out += "# HELP reading_progress_store_size_bytes Bytes the store occupies on disk.\n"
        out += "# TYPE reading_progress_store_size_bytes gauge\n"
        out += "reading_progress_store_size_bytes \(storeSizeBytes)\n"
        out += "# HELP reading_progress_store_writable 1 while the store accepts writes.\n"
        out += "# TYPE reading_progress_store_writable gauge\n"
        out += "reading_progress_store_writable \(storeWritable ? 1 : 0)\n"
        for gauge in storeGauges {
            let name = "reading_progress_store_\(gauge.name)"
            out += "# HELP \(name) \(gauge.help)\n# TYPE \(name) gauge\n\(name) \(gauge.value)\n"
        }
        return out
    }
}

/// A Prometheus histogram with fixed buckets from 100 µs to 10 s.
final class Histogram: Sendable {
    static let bounds: [Double] = [
        0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10,
    ]

    private struct State {
        var buckets = [Int](repeating: 0, count: Histogram.bounds.count)
        var count = 0
        var sum = 0.0
    }

    private let state = Mutex(State())

    func observe(_ seconds: Double) {
        let bucket = Self.bounds.firstIndex { seconds <= $0 }
        state.withLock { state in
            if let bucket { state.buckets[bucket] += 1 }
            state.count += 1
            state.sum += seconds
        }
    }

    func render(name: String, help: String) -> String {
        let snapshot = state.withLock { $0 }
        var out = "# HELP \(name) \(help)\n# TYPE \(name) histogram\n"
        var cumulative = 0
        for (bound, count) in zip(Self.bounds, snapshot.buckets) {
            cumulative += count
            out += "\(name)_bucket{le=\"\(bound)\"} \(cumulative)\n"
        }
        out += "\(name)_bucket{le=\"+Inf\"} \(snapshot.count)\n"
        out += "\(name)_sum \(snapshot.sum)\n\(name)_count \(snapshot.count)\n"
        return out
    }
}
