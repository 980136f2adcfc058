extension ScrollSnapshot {
    /// Validates the geometry (see ``validate()``), then computes the figures (docs/api.md, "The figures") along
    /// ``axis``. Throws the first problem found, in field order; never returns a non-finite figure.
    public func figures() throws(GeometryError) -> ProgressFigures {
        try validate()
        return computedFigures()
    }

    /// The figures of a geometry that has passed ``validate()`` already, for a caller that had
    /// to validate before it could decide anything else (a decoder refusing an event): the
    /// checks are not repeated. Only for such a geometry do the figures keep their promises.
    public func figuresOfValidGeometry() -> ProgressFigures {
        // Debug builds only: the caller's promise, checked; the error itself is the caller's.
        assert((try? validate()) != nil, "figuresOfValidGeometry() of a geometry that fails validate()")
        return computedFigures()
    }

    /// The figures of a geometry that has passed ``validate()``.
    private func computedFigures() -> ProgressFigures {
        let lengths = alongAxis
        let body = region ?? Region(start: 0, end: lengths.content)
        // Sums of lengths near Double's limit would overflow into inf/inf = NaN. A power-of-two
        // scale is exact and leaves every ratio unchanged, so shrink such geometries first.
        let scale = lengths.magnitude > 0x1p1000 ? 0x1p-32 : 1.0
        let scaled = lengths.scaled(by: scale)
        let position = scaled.position
        let range = scaled.scrollRange
        let scrollable = range > 0
        let progress = scrollable ? (position / range).clampedToUnit : 0
        return ProgressFigures(
            scrollable: scrollable,
            progress: progress,
            seenDepth: scrollable ? Self.seenDepth(of: scaled, body: body, scale: scale) : 1,
            indicatorOffset: axis == .horizontal ? Self.indicatorOffset(progress, indicator) : nil,
            step: step.map { Self.figures(of: $0, position: lengths.position) })
    }

    /// The far edge of the viewport, `p + H`, measured into the body `[s, e]` as a share of it.
    private static func seenDepth(of lengths: AxisLengths, body: Region, scale: Double) -> Double {
        let bodyLength = (body.end - body.start) * scale
        // Only empty content without a region has no length; nothing in it is hidden from view.
        guard bodyLength > 0 else { return 1 }
        let farEdge = lengths.position + lengths.visible - body.start * scale
        return (farEdge / bodyLength).clampedToUnit
    }

    /// Seed 003's thumb position, but from the clamped progress so the thumb stays on its track.
    private static func indicatorOffset(_ progress: Double, _ indicator: Indicator?) -> Double {
        let indicator = indicator ?? .standard
        return progress * (indicator.trackLength - indicator.thumbLength)
    }

    /// Seed 002's bar; `position` is unscaled because the bar moves in points.
    private static func figures(of step: Step, position: Double) -> StepFigures {
        // `min` returns its first argument on a tie, so p = 0 gives 0, not -0. An offset and inset
        // that both approach Double's limit sum to +inf: pin the bar to the largest finite distance
        // instead (it is off screen either way).
        let offset = Swift.max(Swift.min(0, -position), -Double.greatestFiniteMagnitude)
        return StepFigures(
            progress: (Double(step.index) / Double(step.total)).clampedToUnit,
            visible: step.index > 0,
            barOffset: offset,
            barOpacity: (1 - 0.1 * position).clampedToUnit)
    }
}
