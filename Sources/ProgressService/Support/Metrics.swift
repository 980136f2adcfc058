import ProgressStore
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Counters and histograms for `GET /metrics` (docs/operations.md), safe to update from any thread.
///
/// Every request adds to them, so they take no lock: each series the service can produce is
/// an atomic counter at a fixed index (route × method × status), and only a status outside the
/// usual set goes to a locked dictionary.
public final class Metrics: Sendable {
    private struct RequestKey: Hashable {
        var route: RouteLabel
        var method: MethodLabel
        var status: Int
    }

    /// The statuses the service answers with, each with a counter per route and method.
    private static let statuses = [200, 202, 204, 304, 400, 401, 403, 404, 405, 413, 415, 429, 501, 503]
    private let requests = AtomicCounters(
        count: RouteLabel.allCases.count * MethodLabel.allCases.count * Metrics.statuses.count)
    private let otherRequests = Mutex<[RequestKey: Int]>([:])
    /// Events accepted, rejected and duplicate, in that order.
    private let events = AtomicCounters(count: 3)
    private let requestSeconds = Histogram()
    private let commitSeconds = Histogram()
    /// Erasures of a reader and of an article, then the (article, reader, day) records each
    /// kind removed.
    private let erasures = AtomicCounters(count: 4)

    public init() {}

    func recordRequest(route: RouteLabel, method: MethodLabel, status: Int, nanoseconds: Int) {
        if let slot = Self.slot(of: status) {
            let index =
                (route.rawValue * MethodLabel.allCases.count + method.rawValue) * Self.statuses.count + slot
            requests.add(1, at: index)
        } else {
            otherRequests.withLock {
                $0[RequestKey(route: route, method: method, status: status), default: 0] += 1
            }
        }
        requestSeconds.observe(nanoseconds: nanoseconds)
    }

    /// The status's place in `statuses`; a short scan, so the two can never disagree.
    private static func slot(of status: Int) -> Int? {
        statuses.firstIndex(of: status)
    }

    func recordEvents(accepted: Int, rejected: Int, duplicates: Int) {
        if accepted > 0 { events.add(accepted, at: 0) }
        if rejected > 0 { events.add(rejected, at: 1) }
        if duplicates > 0 { events.add(duplicates, at: 2) }
    }

    func recordCommit(nanoseconds: Int) {
        commitSeconds.observe(nanoseconds: nanoseconds)
    }

    func recordErasure(_ kind: ErasureKind, readerDays: Int) {
        erasures.add(1, at: kind.rawValue)
        if readerDays > 0 { erasures.add(readerDays, at: 2 + kind.rawValue) }
    }

    /// The Prometheus text exposition format, version 0.0.4.
    func render(storeSizeBytes: Int64?, storeWritable: Bool, storeGauges: [StoreGauge] = []) -> String {
        var out = ""
        out +=
            "# HELP reading_progress_http_requests_total HTTP requests answered, by route, method and status.\n"
        out += "# TYPE reading_progress_http_requests_total counter\n"
        var counts = otherRequests.withLock { $0 }.map {
            (route: $0.key.route.text, method: $0.key.method.text, status: $0.key.status, count: $0.value)
        }
        for route in RouteLabel.allCases {
            for method in MethodLabel.allCases {
                for (slot, status) in Self.statuses.enumerated() {
                    let index =
                        (route.rawValue * MethodLabel.allCases.count + method.rawValue) * Self.statuses.count
                        + slot
                    let count = requests[index]
                    if count > 0 { counts.append((route.text, method.text, status, count)) }
                }
            }
        }
        counts.sort { ($0.route, $0.method, $0.status) < ($1.route, $1.method, $1.status) }
        for entry in counts {
            out +=
                "reading_progress_http_requests_total{route=\"\(entry.route)\",method=\"\(entry.method)\",status=\"\(entry.status)\"} \(entry.count)\n"
        }
        out += "# HELP reading_progress_events_total Events received, by result.\n"
        out += "# TYPE reading_progress_events_total counter\n"
        out +=
            "reading_progress_events_total{result=\"accepted\"} \(events[0])\n"
        out +=
            "reading_progress_events_total{result=\"rejected\"} \(events[1])\n"
        out +=
            "reading_progress_events_total{result=\"duplicate\"} \(events[2])\n"
        out += "# HELP reading_progress_erasures_total Erasures answered, by what they erased.\n"
        out += "# TYPE reading_progress_erasures_total counter\n"
        for kind in ErasureKind.allCases {
            out += "reading_progress_erasures_total{kind=\"\(kind.label)\"} \(erasures[kind.rawValue])\n"
        }
        out +=
            "# HELP reading_progress_erased_reader_days_total Records of one reader on one article and day that erasures removed.\n"
        out += "# TYPE reading_progress_erased_reader_days_total counter\n"
        for kind in ErasureKind.allCases {
            out +=
                "reading_progress_erased_reader_days_total{kind=\"\(kind.label)\"} \(erasures[2 + kind.rawValue])\n"
        }
        out += requestSeconds.render(
            name: "reading_progress_http_request_duration_seconds",
            help: "Time from a whole request to its answer.")
        out += commitSeconds.render(
            name: "reading_progress_store_commit_duration_seconds",
            help: "Time from handing events to the store until they are durable.")
        if let storeSizeBytes {
            out += "# HELP reading_progress_store_size_bytes Bytes the store occupies on disk.\n"
            out += "# TYPE reading_progress_store_size_bytes gauge\n"
            out += "reading_progress_store_size_bytes \(storeSizeBytes)\n"
        }
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

/// A Prometheus histogram with fixed buckets from 100 µs to 10 s, kept in atomic counters: one
/// per bucket (plus one past the last bound) and the sum in nanoseconds.
final class Histogram: Sendable {
    static let bounds: [Double] = [
        0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10,
    ]
    private static let nanosecondBounds = bounds.map { Int(($0 * 1e9).rounded()) }

    /// Bucket counts (not cumulative), then one for observations past every bound, then the
    /// sum in nanoseconds.
    private let buckets = AtomicCounters(count: Histogram.bounds.count + 2)

    func observe(nanoseconds: Int) {
        let bounds = Self.nanosecondBounds
        var bucket = 0
        while bucket < bounds.count && nanoseconds > bounds[bucket] { bucket += 1 }
        buckets.add(1, at: bucket)
        buckets.add(max(0, nanoseconds), at: bounds.count + 1)
    }

    func render(name: String, help: String) -> String {
        var out = "# HELP \(name) \(help)\n# TYPE \(name) histogram\n"
        var cumulative = 0
        for (index, bound) in Self.bounds.enumerated() {
            cumulative += buckets[index]
            out += "\(name)_bucket{le=\"\(bound)\"} \(cumulative)\n"
        }
        let count = cumulative + buckets[Self.bounds.count]
        let sum = Double(buckets[Self.bounds.count + 1]) / 1e9
        out += "\(name)_bucket{le=\"+Inf\"} \(count)\n"
        out += "\(name)_sum \(sum)\n\(name)_count \(count)\n"
        return out
    }
}

/// A fixed number of counters that any thread may add to without a lock.
///
/// Every request adds to a few of them, from whichever thread answers it: one shared set would
/// have those cache lines travel between the cores on every request. So each counter has
/// ``shards`` copies, each set on cache lines of its own; a thread adds to the copy its
/// identity hashes to (two threads that meet on one still count exactly: the additions are
/// atomic), and a read sums the copies.
final class AtomicCounters: @unchecked Sendable {
    private static let shards = 16
    // `Atomic` cannot live in an array; the buffer is allocated once and only ever reached
    // through the atomic operations below, which is what makes sharing it sound.
    private let counters: UnsafeMutablePointer<Atomic<Int>>
    private let count: Int
    /// Counters from one copy to the next: `count` rounded up to whole 128-byte blocks.
    private let stride: Int

    init(count: Int) {
        self.count = count
        stride = (count + 15) / 16 * 16
        counters = .allocate(capacity: stride * Self.shards)
        for index in 0..<(stride * Self.shards) { (counters + index).initialize(to: Atomic(0)) }
    }

    deinit {
        counters.deinitialize(count: stride * Self.shards)
        counters.deallocate()
    }

    func add(_ value: Int, at index: Int) {
        precondition(index >= 0 && index < count)
        let shard = Self.shard(of: Self.currentThread)
        counters[shard * stride + index].add(value, ordering: .relaxed)
    }

    /// The calling thread's identity: the address of its control block, which `pthread_t` is on
    /// both platforms, an integer in glibc and a pointer in Darwin.
    private static var currentThread: UInt {
        #if canImport(Darwin)
            UInt(bitPattern: pthread_self())
        #else
            UInt(pthread_self())
        #endif
    }

    /// Fibonacci hashing of a thread's identity (its control block's address) to a copy.
    private static func shard(of thread: UInt) -> Int {
        Int(truncatingIfNeeded: (thread &* 0x9E37_79B9_7F4A_7C15) >> 60) & (shards - 1)
    }

    subscript(index: Int) -> Int {
        precondition(index >= 0 && index < count)
        var total = 0
        for shard in 0..<Self.shards { total &+= counters[shard * stride + index].load(ordering: .relaxed) }
        return total
    }
}
