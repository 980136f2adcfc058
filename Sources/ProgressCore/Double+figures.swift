// `rounded(_:)` and `Int(exactly:)` compile to calls into libm, which on Linux only comes along
// with Foundation or Glibc; this module links against the standard library alone, so it rounds
// with truncation and comparisons instead.
extension Double {
    /// The value pinned to `0...1`, with `-0` coming out as `0` so JSON never shows `-0`.
    /// Callers never pass NaN.
    var clampedToUnit: Double {
        // On a tie `max` returns its second argument and `min` its first, so -0 becomes the literal 0.
        Swift.min(Swift.max(self, 0), 1)
    }

    /// A whole percentage of a fraction in `0...1`, `0.15` → `"15%"`: `self × 100` rounded to the
    /// nearest whole number, ties to even.
    var percentText: String {
        "\(wholePercent)%"
    }

    /// The number in ``percentText``: `self × 100` rounded to the nearest whole number, ties to even.
    var wholePercent: Int {
        let hundredths = self * 100
        var whole = Int(hundredths)
        // Exact: both terms lie in 0...100, where a Double holds every fraction the product can have.
        let fraction = hundredths - Double(whole)
        if fraction > 0.5 || (fraction == 0.5 && !whole.isMultiple(of: 2)) { whole += 1 }
        return whole
    }

    /// A non-negative number as a person would write it in a message: `1200`, not `1200.0`.
    var plainText: String {
        // Below 2⁵³ every whole Double converts to Int and back unchanged.
        if self < 0x1p53, Double(Int(self)) == self { return "\(Int(self))" }
        return "\(self)"
    }
}
