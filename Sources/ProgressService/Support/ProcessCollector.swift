#if canImport(Glibc)
    import Glibc
#endif

/// The `process_*` series every Prometheus-instrumented server exports (docs/operations.md,
/// "Metrics"), read from `/proc/self` at each scrape with the semantics of Prometheus' own
/// process collector, so that dashboards and alerts written for any server work here unchanged.
/// Linux only: elsewhere it renders nothing.
enum ProcessCollector {
    /// What one reading of `/proc/self` found; a field the kernel did not give is left out.
    struct Sample: Equatable {
        var cpuSeconds: Double?
        var residentBytes: Int?
        var virtualBytes: Int?
        var startTimeSeconds: Double?
        var openFDs: Int?
        var maxFDs: Int?
    }

    static func render() -> String {
        let sample = sample()
        var out = ""
        func series(_ name: String, _ type: String, _ help: String, _ value: String?) {
            guard let value else { return }
            out += "# HELP \(name) \(help)\n# TYPE \(name) \(type)\n\(name) \(value)\n"
        }
        series(
            "process_cpu_seconds_total", "counter", "Total user and system CPU time spent in seconds.",
            sample.cpuSeconds.map { "\($0)" })
        series(
            "process_resident_memory_bytes", "gauge", "Resident memory size in bytes.",
            sample.residentBytes.map { "\($0)" })
        series(
            "process_virtual_memory_bytes", "gauge", "Virtual memory size in bytes.",
            sample.virtualBytes.map { "\($0)" })
        series(
            "process_start_time_seconds", "gauge", "Start time of the process since unix epoch in seconds.",
            sample.startTimeSeconds.map { "\($0)" })
        series(
            "process_open_fds", "gauge", "Number of open file descriptors.", sample.openFDs.map { "\($0)" })
        series(
            "process_max_fds", "gauge", "Maximum number of open file descriptors.",
            sample.maxFDs.map { "\($0)" })
        return out
    }

    static func sample() -> Sample {
        #if os(Linux)
            var sample = Sample()
            let ticks = Double(sysconf(Int32(_SC_CLK_TCK)))
            let pageSize = sysconf(Int32(_SC_PAGESIZE))
            if let stat = readText("/proc/self/stat").flatMap(statFields), ticks > 0 {
                // Fields counted from 1 as proc(5) numbers them; `stat` starts at field 3.
                func field(_ number: Int) -> Double? { Double(stat[number - 3]) }
                if let user = field(14), let system = field(15) {
                    sample.cpuSeconds = (user + system) / ticks
                }
                sample.virtualBytes = field(23).map { Int($0) }
                sample.residentBytes = field(24).map { Int($0) * pageSize }
                if let started = field(22), let boot = bootTimeSeconds() {
                    sample.startTimeSeconds = boot + started / ticks
                }
            }
            sample.openFDs = countEntries("/proc/self/fd")
            var limit = rlimit()
            // Linux refuses an infinite limit on descriptors; were one reported, the series is left out.
            if getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 {
                sample.maxFDs = Int(exactly: limit.rlim_cur)
            }
            return sample
        #else
            return Sample()
        #endif
    }

    /// The fields of `/proc/self/stat` after the command name, which is in parentheses and may
    /// itself hold spaces and parentheses: they start after the last `)`.
    static func statFields(_ text: String) -> [Substring]? {
        guard let close = text.lastIndex(of: ")") else { return nil }
        let fields = text[text.index(after: close)...].split(separator: " ")
        // Up to field 24 (the resident set) is needed.
        return fields.count >= 22 ? fields : nil
    }

    #if os(Linux)
        /// `btime` of `/proc/stat`: when the machine booted, in seconds since the epoch.
        private static func bootTimeSeconds() -> Double? {
            guard let text = readText("/proc/stat") else { return nil }
            for line in text.split(separator: "\n") where line.hasPrefix("btime ") {
                return Double(line.dropFirst("btime ".count))
            }
            return nil
        }

        /// A small file of `/proc` whole, or nil when it cannot be read.
        private static func readText(_ path: String) -> String? {
            let fd = open(path, O_RDONLY | O_CLOEXEC)
            guard fd >= 0 else { return nil }
            defer { close(fd) }
            var bytes: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
                if count < 0, errno == EINTR { continue }
                if count < 0 { return nil }
                if count == 0 { break }
                bytes += buffer[0..<count]
            }
            return String(decoding: bytes, as: UTF8.self)
        }

        /// Entries of a folder but `.` and `..`; as Prometheus counts `/proc/self/fd`, the
        /// descriptor that reads the folder is one of them.
        private static func countEntries(_ path: String) -> Int? {
            guard let folder = opendir(path) else { return nil }
            defer { closedir(folder) }
            var count = 0
            while let entry = readdir(folder) {
                let isDots = withUnsafeBytes(of: entry.pointee.d_name) { name in
                    name[0] == UInt8(ascii: ".")
                        && (name[1] == 0 || (name[1] == UInt8(ascii: ".") && name[2] == 0))
                }
                if !isDots { count += 1 }
            }
            return count
        }
    #endif
}
