import Foundation
import ProgressStore
import Synchronization
import Testing

@testable import EmbeddedStore

#if canImport(Glibc)
    import Glibc
#endif

/// VmRSS of this process, in bytes (Linux only).
private func residentBytes() -> Int {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
        let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
        let kB = Int(line.split(separator: " ", omittingEmptySubsequences: true)[1])
    else { return 0 }
    return kB * 1024
}

/// CPU seconds this process has used, all threads: on a shared machine a steadier measure of
/// work than the wall clock.
private func cpuSeconds() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) * 1e-9
}

/// Returns freed heap to the system (glibc's malloc_trim, which Glibc's module map leaves out),
/// so that a later RSS difference counts new allocations rather than reused ones.
private func trimHeap() {
    #if canImport(Glibc)
        typealias Trim = @convention(c) (Int) -> Int32
        if let trim = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "malloc_trim") {
            _ = unsafeBitCast(trim, to: Trim.self)(0)
        }
    #endif
}

/// Wall and CPU seconds of `body`.
private func timed(_ body: () throws -> Void) rethrows -> (wall: Double, cpu: Double) {
    let cpu = cpuSeconds()
    let start = ContinuousClock.now
    try body()
    let elapsed = ContinuousClock.now - start
    let wall = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
    return (wall, cpuSeconds() - cpu)
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
    @Test(
        "bytes per pair, apply time, snapshot size and speed on a production-shaped load",
        arguments: pairCounts)
    func footprint(pairs: Int) throws {
        let workload = MemoryIndexWorkload(pairs: pairs)
        let label = "MemoryIndex \(pairs) pairs:"
        trimHeap()
        var before = residentBytes()
        let original = MemoryIndex()
        var applying = (wall: 0.0, cpu: 0.0)
        var events = 0
        workload.forEachBatch { batch in
            events += batch.count
            let time = timed { original.apply(batch) }
            applying = (applying.wall + time.wall, applying.cpu + time.cpu)
        }
        // Read before formatting anything: the first FormatStyle call loads megabytes of ICU data.
        let applied = residentBytes() - before
        #expect(original.pairCount == pairs)
        print(
            "\(label) apply \(figure(applying.wall / Double(events) * 1e9)) ns/event "
                + "(CPU \(figure(applying.cpu / Double(events) * 1e9))) over \(events) events; "
                + "\(figure(Double(applied) / Double(pairs))) bytes RSS per pair")

        // The start-up path this replaces: stored rows folded one by one (without SQLite). In a
        // scope of its own, so that its index is gone before the snapshot restores below.
        do {
            let rows = MemoryIndex()
            var folding = (wall: 0.0, cpu: 0.0)
            workload.forEachBatch(of: 8_192) { batch in
                let stored = batch.map { event in
                    StoredReaderDay(
                        article: event.article, reader: event.reader, day: event.day,
                        maxProgress: event.progress, maxSeenDepth: event.seenDepth,
                        scrollable: event.scrollable, events: 1,
                        engagedMs: event.engagedMs, firstMs: event.timeMs, lastMs: event.timeMs)
                }
                let time = timed { rows.restore(stored) }
                folding = (folding.wall + time.wall, folding.cpu + time.cpu)
            }
            print(
                "\(label) restore(rows) \(figure(folding.wall * 1e3)) ms (CPU \(figure(folding.cpu * 1e3))), "
                    + "\(figure(Double(pairs) / folding.wall / 1e6)) M pairs/s")
        }

        var blobs: [[UInt8]] = []
        let encoding = timed {
            for (article, _) in original.articleVersions() {
                blobs.append(original.encodeArticle(article)!.bytes)
            }
        }
        let bytes = blobs.reduce(0) { $0 + $1.count }
        print(
            "\(label) encode \(figure(encoding.wall * 1e3)) ms (CPU \(figure(encoding.cpu * 1e3))), "
                + "\(figure(Double(pairs) / encoding.wall / 1e6)) M pairs/s; "
                + "\(figure(Double(bytes) / Double(pairs))) snapshot bytes per pair")

        let snapshots = blobs
        for threads in [1, 2] {
            trimHeap()
            before = residentBytes()
            let restored = MemoryIndex()
            let failures = Atomic(0)
            let restoring = try timed {
                if threads == 1 {
                    for blob in snapshots { try blob.withUnsafeBytes { try restored.restoreArticle($0) } }
                } else {
                    // Decoding on each thread, inserting as each finishes (restoreArticle).
                    DispatchQueue.concurrentPerform(iterations: threads) { thread in
                        for index in stride(from: thread, to: snapshots.count, by: threads) {
                            do {
                                try snapshots[index].withUnsafeBytes { try restored.restoreArticle($0) }
                            } catch {
                                failures.add(1, ordering: .relaxed)
                            }
                        }
                    }
                }
            }
            let grown = residentBytes() - before
            print(
                "\(label) restore on \(threads) thread\(threads > 1 ? "s" : "") "
                    + "\(figure(restoring.wall * 1e3)) ms (CPU \(figure(restoring.cpu * 1e3))), "
                    + "\(figure(Double(pairs) / restoring.wall / 1e6)) M pairs/s "
                    + "(\(figure(Double(pairs) / restoring.cpu / 1e6)) per CPU-second); "
                    + "\(figure(Double(grown) / Double(pairs))) bytes RSS per pair")
            #expect(failures.load(ordering: .relaxed) == 0)
            #expect(restored.pairCount == pairs)
            #expect(
                restored.listing(in: .allTime, threshold: 0.9)
                    == original.listing(in: .allTime, threshold: 0.9))
        }
    }
}
