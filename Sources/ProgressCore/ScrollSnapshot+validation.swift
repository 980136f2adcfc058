extension ScrollSnapshot {
    /// Checks the rules of an event's fields (docs/api.md) field by field, in the order of its table, and throws the first
    /// problem found: every number finite; sizes and insets ≥ 0; `0 ≤ region.start <
    /// region.end ≤ C`; `step.index ≥ 0`, `step.total ≥ 1`; `indicator.trackLength > 0` and
    /// `0 ≤ indicator.thumbLength ≤ indicator.trackLength`. Both halves of every point, size and
    /// inset are checked, even the half the axis ignores.
    public func validate() throws(GeometryError) {
        // The common case in one pass of comparisons; the field-by-field walk below only runs
        // to name the first field at fault.
        if contentOffset.x.isFinite && contentOffset.y.isFinite && isFiniteNonNegative(contentSize.width)
            && isFiniteNonNegative(contentSize.height) && isFiniteNonNegative(containerSize.width)
            && isFiniteNonNegative(containerSize.height) && isFiniteNonNegative(contentInsets.top)
            && isFiniteNonNegative(contentInsets.leading) && isFiniteNonNegative(contentInsets.bottom)
            && isFiniteNonNegative(contentInsets.trailing)
        {
            if let region { try Self.validate(region, contentLength: alongAxis.content) }
            if let step { try Self.validate(step) }
            if let indicator { try Self.validate(indicator) }
            return
        }
        try requireFinite(contentOffset.x, "contentOffset.x")
        try requireFinite(contentOffset.y, "contentOffset.y")
        try requireNonNegative(contentSize.width, "contentSize.width")
        try requireNonNegative(contentSize.height, "contentSize.height")
        try requireNonNegative(containerSize.width, "containerSize.width")
        try requireNonNegative(containerSize.height, "containerSize.height")
        try requireNonNegative(contentInsets.top, "contentInsets.top")
        try requireNonNegative(contentInsets.leading, "contentInsets.leading")
        try requireNonNegative(contentInsets.bottom, "contentInsets.bottom")
        try requireNonNegative(contentInsets.trailing, "contentInsets.trailing")
        if let region { try Self.validate(region, contentLength: alongAxis.content) }
        if let step { try Self.validate(step) }
        if let indicator { try Self.validate(indicator) }
    }

    private static func validate(_ region: Region, contentLength: Double) throws(GeometryError) {
        try requireFinite(region.start, "region.start")
        try requireFinite(region.end, "region.end")
        let content = 0...contentLength
        guard content.contains(region.start) else {
            throw .outsideContent("region.start", contentLength: contentLength)
        }
        guard content.contains(region.end) else {
            throw .outsideContent("region.end", contentLength: contentLength)
        }
        guard region.start < region.end else { throw .emptyRegion(contentLength: contentLength) }
    }

    private static func validate(_ step: Step) throws(GeometryError) {
        guard step.index >= 0 else { throw .negativeStepIndex }
        guard step.total >= 1 else { throw .noSteps }
    }

    private static func validate(_ indicator: Indicator) throws(GeometryError) {
        try requireFinite(indicator.trackLength, "indicator.trackLength")
        guard indicator.trackLength > 0 else { throw .emptyTrack }
        try requireNonNegative(indicator.thumbLength, "indicator.thumbLength")
        guard indicator.thumbLength <= indicator.trackLength else {
            throw .thumbLongerThanTrack(trackLength: indicator.trackLength)
        }
    }
}

/// `0 ≤ value < ∞` (false for NaN).
private func isFiniteNonNegative(_ value: Double) -> Bool {
    value >= 0 && value < .infinity
}

private func requireFinite(_ value: Double, _ field: String) throws(GeometryError) {
    guard value.isFinite else { throw .notFinite(field) }
}

private func requireNonNegative(_ value: Double, _ field: String) throws(GeometryError) {
    try requireFinite(value, field)
    guard value >= 0 else { throw .negative(field) }
}
