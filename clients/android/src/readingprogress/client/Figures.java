package readingprogress.client;

/**
 * The arithmetic of docs/api.md ("The figures"), as ProgressCore does it on the service and on iOS;
 * Tests/Vectors/progress.json holds both to the same answers. Along the axis: {@code p = o + a},
 * {@code H = V − a − b}, {@code S = C + a + b − V}.
 */
final class Figures {
    private Figures() {}

    /** The figures of a geometry that has passed {@link Validation#validate(ScrollSnapshot)}. */
    static ProgressFigures of(ScrollSnapshot snapshot) {
        boolean vertical = snapshot.axis == ScrollAxis.VERTICAL;
        double offset = vertical ? snapshot.contentOffset.y : snapshot.contentOffset.x;
        double content = vertical ? snapshot.contentSize.height : snapshot.contentSize.width;
        double container = vertical ? snapshot.containerSize.height : snapshot.containerSize.width;
        double leading = vertical ? snapshot.contentInsets.top : snapshot.contentInsets.leading;
        double trailing = vertical ? snapshot.contentInsets.bottom : snapshot.contentInsets.trailing;
        Region body = snapshot.region != null ? snapshot.region : new Region(0, content);

        // Sums of lengths near the largest double would overflow into inf / inf = NaN. A power-of-two
        // scale is exact and leaves every ratio unchanged, so shrink such geometries first.
        double magnitude = Math.max(Math.max(Math.abs(offset), content),
                Math.max(container, Math.max(leading, trailing)));
        double scale = magnitude > 0x1p1000 ? 0x1p-32 : 1.0;
        double position = offset * scale + leading * scale;
        double visible = container * scale - leading * scale - trailing * scale;
        double range = content * scale + leading * scale + trailing * scale - container * scale;
        boolean scrollable = range > 0;
        double progress = scrollable ? clampedToUnit(position / range) : 0;
        double seenDepth = scrollable ? seenDepth(position, visible, body, scale) : 1;
        Double indicatorOffset = vertical ? null : indicatorOffset(progress, snapshot.indicator);
        StepFigures step = snapshot.step == null ? null : step(snapshot.step, offset + leading);
        return new ProgressFigures(scrollable, progress, seenDepth, indicatorOffset, step);
    }

    /** The far edge of the viewport, {@code p + H}, measured into the body as a share of it. */
    private static double seenDepth(double position, double visible, Region body, double scale) {
        double bodyLength = (body.end - body.start) * scale;
        // Only empty content without a region has no length; nothing in it is hidden from view.
        if (!(bodyLength > 0)) return 1;
        double farEdge = position + visible - body.start * scale;
        return clampedToUnit(farEdge / bodyLength);
    }

    /** The thumb's position, from the clamped progress so that it stays on its track. */
    private static double indicatorOffset(double progress, Indicator indicator) {
        Indicator used = indicator != null ? indicator : Indicator.STANDARD;
        return progress * (used.trackLength - used.thumbLength);
    }

    /** The step bar; {@code position} is unscaled because the bar moves in points. */
    private static StepFigures step(Step step, double position) {
        double negated = -position;
        // Spelled out because Math.min(0.0, -0.0) is -0.0; an offset and inset that both approach the
        // largest double sum to +inf, and the bar is pinned to the largest finite distance instead.
        double offset = negated < 0 ? Math.max(negated, -Double.MAX_VALUE) : 0.0;
        return new StepFigures(clampedToUnit((double) step.index / step.total), step.index > 0, offset,
                clampedToUnit(1 - 0.1 * position));
    }

    /** The value pinned to 0…1, with -0 coming out as 0 (Math.max orders -0 below 0). */
    static double clampedToUnit(double value) {
        return Math.min(Math.max(value, 0.0), 1.0);
    }
}
