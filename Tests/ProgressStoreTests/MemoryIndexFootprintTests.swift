import Foundation
import ProgressStore
import Testing

/// VmRSS of this process, in bytes (Linux only).
private func residentBytes() -> Int? {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
        let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
        let kB = Int(line.split(separator: " ", omittingEmptySubsequences: true)[1])
    else { return nil }
    return kB * 1024
}

private func seconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) + Double(duration.components.attoseconds) * 1e-18
}

private func figure(_ value: Double, _ digits: Int = 1) -> String {
    value.formatted(.number.precision(.fractionLength(digits)).grouping(.never))
}

/// Pair counts to measure at, from READING_PROGRESS_SCALE_PAIRS (comma-separated), default 1M.
private let pairCounts: [Int] =
    ProcessInfo.processInfo.environment["READING_PROGRESS_SCALE_PAIRS"]?
    .split(separator: ",").compactMap { Int($0) } ?? [1_000_000]

/// Reports rather than asserts: the figures depend on the build and the machine. In release:
///
///     swift build -c release --build-tests -Xswiftc -enable-testing
///     READING_PROGRESS_SCALE_TESTS=1 READING_PROGRESS_SCALE_PAIRS=1000000,10000000 \
///         swift test -c release --skip-build -Xswiftc -enable-testing --filter MemoryIndexFootprint
@Suite(
    "MemoryIndex footprint and snapshot speed",
    .serialized,  // each measures this process's resident set
    .enabled(
        if: ProcessInfo.processInfo.environment["READING_PROGRESS_SCALE_TESTS"] != nil,
        "a measurement, not a check: set READING_PROGRESS_SCALE_TESTS=1 to run it"))
struct MemoryIndexFootprintTests {
    @Test("bytes per pair and apply time on a production-shaped load", arguments: pairCounts)
    func footprint(pairs: Int) throws {
        let workload = MemoryIndexWorkload(pairs: pairs)
        let before = residentBytes()
        let index = MemoryIndex()
        var applying = Duration.zero
        var events = 0
        let clock = ContinuousClock()
        workload.forEachBatch { batch in
            events += batch.count
            applying += clock.measure { index.apply(batch) }
        }
        let after = residentBytes()
        #expect(index.pairCount == pairs)
        let perPair = Double((after ?? 0) - (before ?? 0)) / Double(pairs)
        print(
            "MemoryIndex \(pairs) pairs, \(events) events: apply \(figure(seconds(applying) / Double(events) * 1e9)) ns/event, "
                + "\(figure(perPair)) bytes RSS per pair")
    }
}
