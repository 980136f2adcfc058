package readingprogress.client;

/** A point in scroll-view coordinates: the content offset, which may be negative. */
public final class Point {
    /** Horizontal coordinate; counts on the horizontal axis. */
    public final double x;
    /** Vertical coordinate; counts on the vertical axis. */
    public final double y;

    /** Creates a point from its two coordinates. */
    public Point(double x, double y) {
        this.x = x;
        this.y = y;
    }

    @Override
    public boolean equals(Object other) {
        if (!(other instanceof Point)) return false;
        Point that = (Point) other;
        return Double.compare(x, that.x) == 0 && Double.compare(y, that.y) == 0;
    }

    @Override
    public int hashCode() {
        return Double.hashCode(x) * 31 + Double.hashCode(y);
    }

    @Override
    public String toString() {
        return "(" + x + ", " + y + ")";
    }
}
