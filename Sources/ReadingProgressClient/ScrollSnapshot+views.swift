public import Foundation
public import ProgressCore

// What the SwiftUI components need from a geometry, kept here so that it is tested on Linux.

extension Point {
    /// A point from CoreGraphics' type, as `ScrollGeometry.contentOffset` gives it.
    public init(_ point: CGPoint) {
        self.init(x: Double(point.x), y: Double(point.y))
    }
}

extension Size {
    /// A size from CoreGraphics' type, as `ScrollGeometry.contentSize` gives it.
    public init(_ size: CGSize) {
        self.init(width: Double(size.width), height: Double(size.height))
    }
}

extension ScrollSnapshot {
    /// A view at rest with nothing to scroll: where a page without a scroll view stands.
    public static let resting = ScrollSnapshot(
        contentOffset: Point(x: 0, y: 0), contentSize: Size(width: 0, height: 0),
        containerSize: Size(width: 0, height: 0))

    /// This geometry on page `index` (0 first) of a flow of `total` steps, for seed 002's step bar.
    public func onStep(_ index: Int, of total: Int) -> ScrollSnapshot {
        var copy = self
        copy.step = Step(index: index, total: total)
        return copy
    }
}
