/// A sum of depths in fixed point, so that taking a value back out is exact.
///
/// When a reader's maximum rises from `a` to `b` the article's sum loses `a` and gains `b`;
/// in floating point every such step would leave a little rounding behind, and a million
/// steps drift. Each depth is truncated once to a multiple of 2⁻⁶⁰ (an error below 10⁻¹⁸) and
/// the integers add and subtract exactly in 128 bits.
package struct DepthSum: Sendable, Equatable {
    // Depths are 0…1 (docs/api.md, "The figures"); the clamp in `units(of:)` only keeps a bad
    // value from trapping, and truncating is one instruction where rounding is a call into libm.
    private var units: Int128 = 0

    private static let scale = 0x1p60

    /// Units a depth of 1 counts: 2⁶⁰.
    package static var unitsPerDepth: Int64 { 1 << 60 }

    package init() {}

    /// A sum of these units (as ``units`` gave them).
    package init(units: Int128) {
        self.units = units
    }

    /// The sum in units of 2⁻⁶⁰.
    package var totalUnits: Int128 { units }

    /// A depth in units of 2⁻⁶⁰, as ``add(_:)`` counts it.
    package static func units(of depth: Double) -> Int128 {
        depth.isNaN ? 0 : Int128(Int64(min(max(depth, -4), 4) * scale))
    }

    package mutating func add(_ depth: Double) {
        units += Self.units(of: depth)
    }

    package mutating func remove(_ depth: Double) {
        units -= Self.units(of: depth)
    }

    /// The sum divided by `count`; 0 when `count` is 0.
    package func mean(over count: Int) -> Double {
        count > 0 ? total / Self.scale / Double(count) : 0
    }

    /// `units` as a `Double`, rounded as `Double(units)` rounds them: the conversion from
    /// `Int128` is generic code, slower than the answer it is part of. The top 64 bits with
    /// a bit set when any below them is (round to odd) round to 53 alike.
    private var total: Double {
        let magnitude = units.magnitude
        let high = UInt64(truncatingIfNeeded: magnitude >> 64)
        let low = UInt64(truncatingIfNeeded: magnitude)
        var value = Double(low)
        if high != 0 {
            let dropped = 64 - high.leadingZeroBitCount
            let top = dropped == 64 ? high : high << (64 - dropped) | low >> dropped
            let rest = dropped == 64 ? low : low << (64 - dropped)
            value = Double(top | (rest == 0 ? 0 : 1)) * Double(sign: .plus, exponent: dropped, significand: 1)
        }
        return units < 0 ? -value : value
    }

}
