package readingprogress.client;

/** The reader's place in a multi-step flow: page {@code index} (0 first) of {@code total}. */
public final class Step {
    /** Zero-based page number; on page 0 the step bar is hidden. */
    public final int index;
    /** How many steps fill the bar; at least 1. */
    public final int total;

    /** Creates a step from the page number and the step count. */
    public Step(int index, int total) {
        this.index = index;
        this.total = total;
    }

    @Override
    public boolean equals(Object other) {
        if (!(other instanceof Step)) return false;
        Step that = (Step) other;
        return index == that.index && total == that.total;
    }

    @Override
    public int hashCode() {
        return index * 31 + total;
    }
}
