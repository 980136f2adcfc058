package readingprogress.client;

/** The state of a multi-step flow's progress bar; present only when the geometry has a {@link Step}. */
public final class StepFigures {
    /** How full the step bar is: {@code clamp(index / total, 0, 1)}. */
    public final double progress;
    /** Whether the bar shows at all: {@code index > 0} (hidden on the first page). */
    public final boolean visible;
    /** How far to move the bar along the axis: {@code min(0, −p)}; never -0. */
    public final double barOffset;
    /** How opaque the bar is: {@code clamp(1 − 0.1 × p, 0, 1)}. */
    public final double barOpacity;

    StepFigures(double progress, boolean visible, double barOffset, double barOpacity) {
        this.progress = progress;
        this.visible = visible;
        this.barOffset = barOffset;
        this.barOpacity = barOpacity;
    }
}
