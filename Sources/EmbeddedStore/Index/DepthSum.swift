import ProgressStore

/// A sum of depths in fixed point, so that taking a value back out is exact.
///
/// When a reader's maximum rises from `a` to `b` the article's sum loses `a` and gains `b`;
/// in floating point every such step would leave a little rounding behind, and a million
/// steps drift. Each depth is truncated once to a multiple of 2⁻⁶⁰ (an error below 10⁻¹⁸) and
/// the integers add and subtract exactly in 128 bits.
struct DepthSum {
    private var units: Int128 = 0

    private static let scale = 0x1p60

    mutating func add(_ depth: Double) {
        units += Self.units(of: depth)
    }

    mutating func remove(_ depth: Double) {
        units -= Self.units(of: depth)
    }

    /// The sum divided by `count`; 0 when `count` is 0.
    func mean(over count: Int) -> Double {
        count > 0 ? Double(units) / Self.scale / Double(count) : 0
    }

    /// Depths are 0…1 (docs/api.md, "The figures"); the clamp only keeps a bad value from trapping.
    private static func units(of depth: Double) -> Int128 {
        // Truncating is one instruction; rounding was a call into libm on every fold.
        depth.isNaN ? 0 : Int128(Int64(min(max(depth, -4), 4) * scale))
    }
}
