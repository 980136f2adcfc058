import Foundation
import ProgressStore
import Testing

@testable import EmbeddedStore

/// The resident set size from /proc (Linux only; Glibc's module map leaves out mallinfo2).
private func residentBytes() -> Int? {
    guard let statm = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return nil }
    let fields = statm.split(separator: " ")
    guard fields.count > 1, let pages = Int(fields[1]) else { return nil }
    return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
}

/// Median seconds of `body` over `rounds` rounds of `calls` calls each.
private func medianSeconds(rounds: Int = 15, calls: Int = 200, _ body: () -> Void) -> Double {
    var samples: [Double] = []
    for _ in 0..<rounds {
        let start = ContinuousClock.now
        for _ in 0..<calls { body() }
        let elapsed = ContinuousClock.now - start
        samples.append(
            (Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18)
                / Double(calls))
    }
    return samples.sorted()[rounds / 2]
}

/// Reports rather than asserts: the figures depend on the build and the machine. Run in release
/// for timings (`swift build -c release --build-tests; swift test -c release --skip-build
/// --filter MemoryIndexScale`).
@Suite(
    "MemoryIndex at scale",
    .enabled(
        if: ProcessInfo.processInfo.environment["READING_PROGRESS_SCALE_TESTS"] != nil,
        "a measurement (20 s in debug), not a check: set READING_PROGRESS_SCALE_TESTS=1 to run it"))
struct MemoryIndexScaleTests {
    @Test("memory per (article, reader) pair, and statistics() for 1k vs 1M readers")
    func millionReaders() throws {
        let pairs = 1_000_000
        let before = residentBytes()
        let index = MemoryIndex()
        // 12-byte reader ids, one event (so one day) each, 10,000 to a commit.
        for start in stride(from: 0, to: pairs, by: 10_000) {
            index.apply(
                (start..<start + 10_000).map { i in
                    let id = String(i, radix: 16)
                    return EventRecord(
                        article: "/million", reader: String(repeating: "0", count: 12 - id.count) + id,
                        timeMs: Int64(i % 86_400_000), progress: Double(i % 1000) / 999,
                        seenDepth: Double(i % 997) / 996,
                        scrollable: i % 50 != 0, engagedMs: Int64(i % 7_000))
                })
        }
        let after = residentBytes()
        #expect(index.pairCount == pairs)
        if let before, let after {
            let perPair = Double(after - before) / Double(pairs)
            print(
                "MemoryIndex: \(perPair.formatted(.number.precision(.fractionLength(1)))) bytes per pair by RSS (12-byte ids, one day each)"
            )
        }

        index.apply(
            (0..<1_000).map { i in
                event(
                    "/thousand", "reader-\(i)", at: Int64(i), progress: Double(i) / 999, seen: Double(i) / 999
                )
            })
        let stats = { (article: String) in
            _ = index.statistics(
                of: article, in: .allTime, metric: .progress, threshold: 0.9, minEngagedSeconds: 0)
        }
        let small = medianSeconds { stats("/thousand") }
        let large = medianSeconds { stats("/million") }
        print(
            "MemoryIndex statistics(): 1k readers \((small * 1e6).formatted(.number.precision(.fractionLength(2)))) µs, "
                + "1M readers \((large * 1e6).formatted(.number.precision(.fractionLength(2)))) µs, "
                + "ratio \((large / small).formatted(.number.precision(.fractionLength(3))))")
        // What a query off the fast path costs at this size: every reader folded and sorted.
        let fallback = medianSeconds(rounds: 3, calls: 1) {
            _ = index.statistics(
                of: "/million", in: .allTime, metric: .progress, threshold: 0.9, minEngagedSeconds: 1)
        }
        print(
            "MemoryIndex statistics() off the fast path, 1M readers: \((fallback * 1e3).formatted(.number.precision(.fractionLength(1)))) ms"
        )
    }
}
