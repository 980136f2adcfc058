package readingprogress.client;

/**
 * Where the article body lies along the axis, in content coordinates ({@code 0 ≤ start < end ≤ C}),
 * so that headers, footers and comments do not count towards the seen depth.
 */
public final class Region {
    /** Where the body begins, from the start of the content. */
    public final double start;
    /** Where the body ends, from the start of the content. */
    public final double end;

    /** Creates a region from its two ends. */
    public Region(double start, double end) {
        this.start = start;
        this.end = end;
    }

    @Override
    public boolean equals(Object other) {
        if (!(other instanceof Region)) return false;
        Region that = (Region) other;
        return Double.compare(start, that.start) == 0 && Double.compare(end, that.end) == 0;
    }

    @Override
    public int hashCode() {
        return Double.hashCode(start) * 31 + Double.hashCode(end);
    }
}
