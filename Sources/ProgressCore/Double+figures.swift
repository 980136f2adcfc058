extension Double {
    /// The value pinned to `0...1`. Callers never pass NaN.
    var clampedToUnit: Double { Swift.min(Swift.max(self, 0), 1) }

    /// The value with `-0` turned into `0`, so that a JSON encoder prints `0`, not `-0`.
    var withoutNegativeZero: Double { self == 0 ? 0 : self }

    /// A whole percentage of a fraction, `0.15` → `"15%"`, rounded to the nearest with ties to even.
    var percentText: String {
        let whole = (self * 100).rounded(.toNearestOrEven)
        return "\(Int(whole))%"
    }

    /// The number as a person would write it in a message: `1200`, not `1200.0`.
    var plainText: String {
        // Int(exactly:) fails on fractions and on magnitudes an Int cannot hold.
        if let whole = Int(exactly: self), whole.magnitude < 1 << 53 { return "\(whole)" }
        return "\(self)"
    }
}
