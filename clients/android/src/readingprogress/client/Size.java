package readingprogress.client;

/** The size of the content or of its container; each side must be finite and at least 0. */
public final class Size {
    /** Counts on the horizontal axis. */
    public final double width;
    /** Counts on the vertical axis. */
    public final double height;

    /** Creates a size from its two sides. */
    public Size(double width, double height) {
        this.width = width;
        this.height = height;
    }

    @Override
    public boolean equals(Object other) {
        if (!(other instanceof Size)) return false;
        Size that = (Size) other;
        return Double.compare(width, that.width) == 0 && Double.compare(height, that.height) == 0;
    }

    @Override
    public int hashCode() {
        return Double.hashCode(width) * 31 + Double.hashCode(height);
    }

    @Override
    public String toString() {
        return width + "×" + height;
    }
}
