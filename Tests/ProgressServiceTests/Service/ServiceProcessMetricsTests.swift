import Foundation
import Testing

@testable import ProgressService

#if canImport(Glibc)
    import Glibc
#endif

/// The series of `/metrics` that say how the process and its disk are doing (docs/operations.md,
/// "Metrics"), each moved by something the test does to this very process.
@Suite("/metrics: the process, the build and the room under the store")
struct ServiceProcessMetricsTests {
    typealias Service = ServiceUnderTest

    /// Every sample of `/metrics` by its series (name and labels), as Prometheus would read it.
    static func samples(_ service: Service) throws -> [String: Double] {
        let answer = try service.get("/metrics")
        #expect(answer.status == 200)
        var samples: [String: Double] = [:]
        for line in answer.text.split(separator: "\n") where !line.hasPrefix("#") {
            let parts = line.split(separator: " ")
            guard parts.count == 2, let value = Double(parts[1]) else {
                Issue.record("not a sample: \(line)")
                continue
            }
            samples[String(parts[0])] = value
        }
        return samples
    }

    @Test("build_info names the release; the file system's room is there only with a store's path")
    func buildAndFileSystem() throws {
        let folder = FileManager.default.temporaryDirectory.path
        let withPath = try Service(ServiceConfiguration(version: "9.8.7", storePath: folder + "/rp.sqlite3"))
        let samples = try Self.samples(withPath)
        #expect(samples[#"reading_progress_build_info{version="9.8.7"}"#] == 1)
        let attributes = try FileManager.default.attributesOfFileSystem(forPath: folder)
        let size = try #require(samples["reading_progress_store_filesystem_size_bytes"])
        let free = try #require(samples["reading_progress_store_filesystem_free_bytes"])
        #expect(size == (attributes[.systemSize] as? NSNumber)?.doubleValue)
        #expect(free > 0 && free <= size)
        // Others write on the same disk meanwhile: near enough, not equal.
        let freeNow = try #require((attributes[.systemFreeSize] as? NSNumber)?.doubleValue)
        #expect(abs(free - freeNow) < 256 * 1_048_576, "\(free) against \(freeNow)")

        let withoutPath = try Self.samples(Service())
        #expect(withoutPath.keys.contains { $0.hasPrefix("reading_progress_store_filesystem") } == false)
        #expect(withoutPath[#"reading_progress_build_info{version="unknown"}"#] == 1)
    }

    @Test("the fields of /proc/self/stat start after the last parenthesis of the command name")
    func statFields() throws {
        let line = "4242 (a (b) c) S 1 " + (5...52).map(String.init).joined(separator: " ") + "\n"
        let fields = try #require(ProcessCollector.statFields(line))
        #expect(fields.first == "S")
        // Field 14 of proc(5), utime, is the twelfth after the name.
        #expect(fields[14 - 3] == "14")
        #expect(ProcessCollector.statFields("4242 (short) S 1 2") == nil)
        #expect(ProcessCollector.statFields("no name at all") == nil)
    }

    #if os(Linux)
        @Test("open and max descriptors follow what the process holds and may hold")
        func descriptors() throws {
            let service = try Service()
            let before = try #require(try Self.samples(service)["process_open_fds"])
            var pipes: [Int32] = []
            defer { for fd in pipes { close(fd) } }
            for _ in 0..<100 {
                var pair: [Int32] = [0, 0]
                try #require(pipe(&pair) == 0)
                pipes += pair
            }
            let samples = try Self.samples(service)
            let during = try #require(samples["process_open_fds"])
            // Tests running beside this one open and close descriptors of their own.
            #expect(during - before >= 150, "\(before) then \(during)")
            var limit = rlimit()
            try #require(getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0)
            #expect(samples["process_max_fds"] == Double(limit.rlim_cur))
            #expect(during <= Double(limit.rlim_cur))
        }

        @Test("CPU seconds grow by the CPU this thread spends; resident memory by memory it touches")
        func cpuAndMemory() throws {
            let service = try Service()
            let before = try Self.samples(service)
            let cpuBefore = try #require(before["process_cpu_seconds_total"])
            let residentBefore = try #require(before["process_resident_memory_bytes"])
            let spent = threadCPUSeconds()
            var sink = 0
            while threadCPUSeconds() - spent < 0.3 { sink &+= Int.random(in: 0..<10) }
            let bytes = 64 * 1_048_576
            let block = UnsafeMutableRawPointer.allocate(byteCount: bytes, alignment: 4096)
            defer { block.deallocate() }
            // One byte in every page makes the whole block resident.
            for page in stride(from: 0, to: bytes, by: 4096) {
                block.storeBytes(of: UInt8(1), toByteOffset: page, as: UInt8.self)
            }
            let after = try Self.samples(service)
            let cpuAfter = try #require(after["process_cpu_seconds_total"])
            // The kernel counts CPU time in ticks of 10 ms.
            #expect(cpuAfter - cpuBefore >= 0.28, "\(cpuBefore) then \(cpuAfter) (\(sink))")
            let residentAfter = try #require(after["process_resident_memory_bytes"])
            #expect(
                residentAfter - residentBefore >= 48 * 1_048_576, "\(residentBefore) then \(residentAfter)")
            #expect(try #require(after["process_virtual_memory_bytes"]) >= residentAfter)
        }

        @Test("the start time is when this process started, in seconds since the epoch")
        func startTime() throws {
            let started = try #require(try Self.samples(Service())["process_start_time_seconds"])
            let now = Date().timeIntervalSince1970
            var uptime = timespec()
            clock_gettime(CLOCK_BOOTTIME, &uptime)
            // Not before the machine booted, not after now.
            #expect(started >= now - Double(uptime.tv_sec) - 2, "\(started)")
            #expect(started <= now + 1, "\(started)")
            // The test process is at most as old as the build that ran it; hours, not days.
            #expect(now - started < 6 * 3600, "\(started)")
        }

        private func threadCPUSeconds() -> Double {
            var time = timespec()
            clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
            return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
        }
    #endif
}
