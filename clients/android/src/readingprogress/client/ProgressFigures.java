package readingprogress.client;

/**
 * Everything a reading client draws from one scroll geometry (docs/api.md, "The figures"): the
 * same numbers the service computes and folds into the statistics. Every number is finite and none
 * is -0.
 */
public final class ProgressFigures {
    /** Whether there is anything to scroll: {@code S > 0}. */
    public final boolean scrollable;
    /** How far through the scrollable range the reader is, 0…1: the width of the progress bar. */
    public final double progress;
    /** How much of the article body has come into view, 0…1; 1 when not scrollable. */
    public final double seenDepth;
    /** Where the indicator's thumb sits along its track; null off the horizontal axis. */
    public final Double indicatorOffset;
    /** The multi-step flow's bar; null when the geometry has no {@link Step}. */
    public final StepFigures step;

    ProgressFigures(boolean scrollable, double progress, double seenDepth, Double indicatorOffset, StepFigures step) {
        this.scrollable = scrollable;
        this.progress = progress;
        this.seenDepth = seenDepth;
        this.indicatorOffset = indicatorOffset;
        this.step = step;
    }

    /** {@link #progress} as a whole percentage, rounded to the nearest, ties to even: {@code 15}. */
    public int wholePercent() {
        double hundredths = progress * 100;
        int whole = (int) hundredths;
        // Exact: both terms lie in 0…100, where a double holds every fraction the product can have.
        double fraction = hundredths - whole;
        if (fraction > 0.5 || (fraction == 0.5 && whole % 2 != 0)) whole += 1;
        return whole;
    }

    /** {@link #progress} as the progress bar's accessibility text: {@code "15%"}. */
    public String percent() {
        return wholePercent() + "%";
    }
}
