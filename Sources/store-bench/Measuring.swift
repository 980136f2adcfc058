import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// This process's resident set (VmRSS), in bytes; 0 where /proc is missing.
func residentBytes() -> Int {
    // Without /proc (not Linux) the figure is 0, which the benchmark's report shows as such.
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
        let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
        let kB = Int(line.split(separator: " ", omittingEmptySubsequences: true)[1])
    else { return 0 }
    return kB * 1024
}

/// CPU seconds this process has used, all threads: on a shared machine a steadier measure of
/// work than the wall clock.
func cpuSeconds() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) * 1e-9
}

/// Returns freed heap to the system (glibc's `malloc_trim`, which Glibc's module map leaves
/// out), so that a later RSS difference counts new allocations rather than reused ones.
func trimHeap() {
    #if canImport(Glibc)
        typealias Trim = @convention(c) (Int) -> Int32
        if let trim = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "malloc_trim") {
            _ = unsafeBitCast(trim, to: Trim.self)(0)
        }
    #endif
}

/// Wall and CPU seconds of `body`.
func timed(_ body: () throws -> Void) rethrows -> (wall: Double, cpu: Double) {
    let cpu = cpuSeconds()
    let start = ContinuousClock.now
    try body()
    return (seconds(ContinuousClock.now - start), cpuSeconds() - cpu)
}

/// The median over `rounds` rounds of the seconds one call of `body` takes, each round
/// timing `calls` calls.
func medianSeconds(rounds: Int = 15, calls: Int = 200, _ body: () -> Void) -> Double {
    var samples: [Double] = []
    for _ in 0..<rounds {
        let start = ContinuousClock.now
        for _ in 0..<calls { body() }
        samples.append(seconds(ContinuousClock.now - start) / Double(calls))
    }
    return samples.sorted()[rounds / 2]
}

func seconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) + Double(duration.components.attoseconds) * 1e-18
}

/// `value` with `digits` decimals.
func figure(_ value: Double, _ digits: Int = 1) -> String {
    String(format: "%.\(digits)f", value)
}

/// Stops the benchmark when what it measured is not what it meant to: a figure of a broken
/// index would be no figure at all.
func check(_ condition: Bool, _ message: @autoclosure () -> String) {
    if !condition {
        FileHandle.standardError.write(Data("store-bench: \(message())\n".utf8))
        exit(1)
    }
}
