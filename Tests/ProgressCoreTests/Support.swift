import ProgressCore

/// Whether `actual` is within 1e-9 of `expected`, relative to the larger of the two; exact at 0.
func isClose(_ actual: Double, _ expected: Double) -> Bool {
    actual == expected
        || (actual - expected).magnitude <= 1e-9 * Swift.max(actual.magnitude, expected.magnitude)
}

/// Lengths along the scroll axis (the o, C, V, a, b of docs/api.md, "The figures"), laid onto
/// either axis.
///
/// The other axis gets decoy numbers that would change every figure if the code read the wrong
/// half of a point, size or inset.
struct Along: Sendable {
    var offset: Double
    var content: Double
    var container: Double
    var leading: Double = 0
    var trailing: Double = 0

    func geometry(
        _ axis: ScrollAxis, region: Region? = nil, step: Step? = nil, indicator: Indicator? = nil
    ) -> ScrollSnapshot {
        switch axis {
        case .vertical:
            ScrollSnapshot(
                axis: .vertical,
                contentOffset: Point(x: 333, y: offset),
                contentSize: Size(width: 5000, height: content),
                containerSize: Size(width: 700, height: container),
                contentInsets: Insets(top: leading, leading: 7, bottom: trailing, trailing: 9),
                region: region, step: step, indicator: indicator)
        case .horizontal:
            ScrollSnapshot(
                axis: .horizontal,
                contentOffset: Point(x: offset, y: 333),
                contentSize: Size(width: content, height: 5000),
                containerSize: Size(width: container, height: 700),
                contentInsets: Insets(top: 7, leading: leading, bottom: 9, trailing: trailing),
                region: region, step: step, indicator: indicator)
        }
    }
}
