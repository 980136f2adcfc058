/// The five lengths along the scroll axis that the figures are defined in (docs/api.md), whichever axis that is.
struct AxisLengths {
    /// `o`, the content offset.
    var offset: Double
    /// `C`, the content length.
    var content: Double
    /// `V`, the container length.
    var container: Double
    /// `a`, the inset at the start of the axis (top or leading).
    var leadingInset: Double
    /// `b`, the inset at the end of the axis (bottom or trailing).
    var trailingInset: Double

    /// `p = o + a`: 0 at rest at the start, whatever the inset.
    var position: Double { offset + leadingInset }
    /// `H = V − a − b`: how much of the content the reader can see at once.
    var visible: Double { container - leadingInset - trailingInset }
    /// `S = C + a + b − V`: how far the content can scroll.
    var scrollRange: Double { content + leadingInset + trailingInset - container }

    /// The same lengths multiplied by `factor`.
    func scaled(by factor: Double) -> AxisLengths {
        AxisLengths(
            offset: offset * factor, content: content * factor, container: container * factor,
            leadingInset: leadingInset * factor, trailingInset: trailingInset * factor)
    }

    /// The largest magnitude among the lengths.
    var magnitude: Double {
        Swift.max(offset.magnitude, content, container, leadingInset, trailingInset)
    }
}

extension ScrollSnapshot {
    /// The geometry seen along ``axis``.
    var alongAxis: AxisLengths {
        switch axis {
        case .vertical:
            AxisLengths(
                offset: contentOffset.y, content: contentSize.height, container: containerSize.height,
                leadingInset: contentInsets.top, trailingInset: contentInsets.bottom)
        case .horizontal:
            AxisLengths(
                offset: contentOffset.x, content: contentSize.width, container: containerSize.width,
                leadingInset: contentInsets.leading, trailingInset: contentInsets.trailing)
        }
    }
}
