/// Counted readers' all-time depths in 1001 bins of width 1/1000, for answers that cost the
/// same for a thousand readers as for a million.
///
/// Bin `k` holds the depths `d` with `Double(k) / 1000 <= d < Double(k + 1) / 1000`; bin 1000
/// holds 1. So "depth ≥ Double(k) / 1000" is exactly "bin ≥ k", which answers completion at
/// any threshold with three decimals and `reach` (`Double(k) / 100 == Double(10 * k) / 1000`,
/// both being the double nearest the same rational). A quantile is known only to its bin:
/// the least value it held (see ``quantiles(_:)``), at most 0.001 below the true one, and
/// exact when all its members share one value.
package struct DepthHistogram: Sendable, Equatable {
    package static let binCount = 1001
    /// `edges[k] == Double(k) / 1000`, for k = 0…1001.
    private static let edges = (0...binCount).map { Double($0) / 1000 }

    fileprivate var counts = [Int32](repeating: 0, count: binCount)
    /// The least value each bin held since it was last empty: its members' minimum unless the
    /// minimum left (a reader's depth rose), and always a lower bound inside the bin.
    fileprivate var lowest = [Double](repeating: .infinity, count: binCount)
    /// Depths held.
    package private(set) var total = 0

    package init() {}

    /// A histogram of these bin counts (as ``binCounts`` gave them), each bin's least value
    /// taken as its lower edge.
    package init(binCounts: [Int32]) {
        precondition(binCounts.count == Self.binCount, "a histogram has \(Self.binCount) bins")
        counts = binCounts
        lowest = (0..<Self.binCount).map { binCounts[$0] > 0 ? Self.edges[$0] : .infinity }
        total = binCounts.reduce(0) { $0 + Int($1) }
    }

    /// The count of each bin.
    package var binCounts: [Int32] { counts }

    /// The bin of `depth`: the largest `k` in 0…1000 with `Double(k) / 1000 <= depth`, or 0.
    package static func bin(of depth: Double) -> Int {
        guard depth.isFinite else { return depth == .infinity ? 1000 : 0 }
        var k = Int(min(max(depth * 1000, 0), 1000).rounded(.down))
        // depth * 1000 rounds; step to the exact answer (at most one step either way), against
        // the edges computed once rather than two divisions a call.
        edges.withUnsafeBufferPointer { edges in
            while k < 1000 && edges[k + 1] <= depth { k += 1 }
            while k > 0 && edges[k] > depth { k -= 1 }
        }
        return k
    }

    /// The `k` with `Double(k) / 1000 == threshold`, when there is one in 0…1000.
    package static func edge(of threshold: Double) -> Int? {
        guard threshold >= 0 && threshold <= 1 else { return nil }
        let k = Int((threshold * 1000).rounded())
        return Double(k) / 1000 == threshold ? k : nil
    }

    package mutating func insert(_ depth: Double) {
        let k = Self.bin(of: depth)
        counts[k] += 1
        lowest[k] = min(lowest[k], depth)
        total += 1
    }

    /// Whether `depth`'s bin holds a depth, as ``remove(_:)`` requires (and traps on, on the
    /// embedded store's hot path): a store whose histograms come from a database, which may
    /// contradict its rows, asks first and answers an error instead.
    package func holds(_ depth: Double) -> Bool {
        counts[Self.bin(of: depth)] > 0
    }

    package mutating func remove(_ depth: Double) {
        let k = Self.bin(of: depth)
        precondition(counts[k] > 0, "removing a depth the histogram does not hold")
        counts[k] -= 1
        if counts[k] == 0 {
            lowest[k] = .infinity
        }
        total -= 1
    }

    /// Counts at or above each bin: `atOrAbove[k]` for k = 0…1001 (the last is 0).
    package func countsAtOrAbove() -> [Int] {
        var result = [Int](repeating: 0, count: Self.binCount + 1)
        var running = 0
        for k in stride(from: Self.binCount - 1, through: 0, by: -1) {
            running += Int(counts[k])
            result[k] = running
        }
        return result
    }

    /// Nearest-rank quantiles (1-based rank ⌈q·n⌉, at least 1) for ascending `qs`; 0 when
    /// empty. Exact when the bin holds one value (or its least), else at most 0.001 low.
    package func quantiles(_ qs: [Double]) -> [Double] {
        guard total > 0 else { return qs.map { _ in 0 } }
        var results: [Double] = []
        var below = 0
        var k = 0
        for q in qs {
            let rank = max(1, Int((q * Double(total)).rounded(.up)))
            while below + Int(counts[k]) < min(rank, total) {
                below += Int(counts[k])
                k += 1
            }
            // Within 0.001 of every member, and their value when the bin holds one value.
            results.append(lowest[k])
        }
        return results
    }
}

extension DepthHistogram {
    /// Each bin's least value held, `.infinity` for an empty bin (for a snapshot).
    package var leastValues: [Double] { lowest }

    /// Takes the least values of `hints` (as ``leastValues`` gave them before a snapshot) for
    /// the bins they are a lower bound of: inside the bin, and at most its members' minimum.
    /// Others (from a damaged snapshot) leave the bin's minimum in place.
    package mutating func lower(toward hints: [Double]) {
        for k in 0..<min(hints.count, Self.binCount) where counts[k] > 0 {
            let hint = hints[k]
            if hint < lowest[k] && Self.bin(of: hint) == k {
                lowest[k] = hint
            }
        }
    }

    /// Depths in bins `edge`…1000: those ≥ `Double(edge) / 1000`.
    package func count(atOrAbove edge: Int) -> Int {
        counts[edge...].reduce(0) { $0 + Int($1) }
    }
}
