import ProgressCore

/// One view's attention: for each twentieth of the article body, the engaged time during which
/// some of it was in view, not yet carried by an event (docs/api.md, "Sections and attention").
///
/// Every stretch of engaged time is given to each band the visible range touches, so several
/// bands accrue the same time, and no band gathers more than the engaged time counted: each
/// taken band is at most the event's `engagedMs`.
struct Attention: Equatable {
    /// The number of bands the body is cut into.
    static let bandCount = 20

    /// Seconds per band, not yet taken.
    private(set) var pending = [Double](repeating: 0, count: bandCount)

    /// `seconds` of engaged time passed while the view showed `snapshot`.
    mutating func add(_ seconds: Double, shown snapshot: ScrollSnapshot) {
        guard seconds > 0 else { return }
        for band in Self.bands(inView: snapshot) { pending[band] += seconds }
    }

    /// The bands as whole milliseconds for an event carrying `engagedMs`, each at most that; what
    /// is left stays pending, held to `engagedLeft` seconds (the engaged time still pending) so
    /// that the next event's bands stay within its `engagedMs` too.
    mutating func take(engagedMs: Int, engagedLeft: Double) -> [Int] {
        pending.indices.map { band in
            let milliseconds = min(Int((pending[band] * 1000).rounded(.down)), engagedMs)
            pending[band] = min(max(0, pending[band] - Double(milliseconds) / 1000), max(engagedLeft, 0))
            return milliseconds
        }
    }

    /// The bands `[i/20, (i+1)/20)` of the body (the snapshot's region, else the content, along
    /// its axis) that share some length with the visible range `[p, p + H]`. A body of no length
    /// is all in view, as its `seenDepth` of 1 says; an empty visible range shows nothing.
    static func bands(inView snapshot: ScrollSnapshot) -> Range<Int> {
        let lengths = VisibleRange(snapshot)
        let body = snapshot.region ?? Region(start: 0, end: lengths.content)
        let bodyLength = body.end - body.start
        guard bodyLength > 0 else { return 0..<bandCount }
        guard lengths.visible > 0 else { return 0..<0 }
        let near = (lengths.position - body.start) / bodyLength
        let far = (lengths.position + lengths.visible - body.start) / bodyLength
        guard near.isFinite, far.isFinite, far > 0, near < 1 else { return 0..<0 }
        let count = Double(bandCount)
        // Band i shares length with (near, far) when i/20 < far and near < (i+1)/20.
        let first = max(0, Int((near * count).rounded(.down)))
        let last = min(bandCount - 1, Int((far * count).rounded(.up)) - 1)
        return first <= last ? first..<(last + 1) : 0..<0
    }
}

/// `p`, `H` and `C` of a geometry along its axis (docs/api.md, "The figures").
private struct VisibleRange {
    var position: Double
    var visible: Double
    var content: Double

    init(_ snapshot: ScrollSnapshot) {
        let insets = snapshot.contentInsets
        switch snapshot.axis {
        case .vertical:
            position = snapshot.contentOffset.y + insets.top
            visible = snapshot.containerSize.height - insets.top - insets.bottom
            content = snapshot.contentSize.height
        case .horizontal:
            position = snapshot.contentOffset.x + insets.leading
            visible = snapshot.containerSize.width - insets.leading - insets.trailing
            content = snapshot.contentSize.width
        }
    }
}
