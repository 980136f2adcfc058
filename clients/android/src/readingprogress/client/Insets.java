package readingprogress.client;

/**
 * Space the scroll view adds around its content (under a toolbar, above a navigation bar); each
 * edge must be finite and at least 0. On Android, a view's padding with {@code clipToPadding}
 * off.
 */
public final class Insets {
    /** No inset on any edge. */
    public static final Insets ZERO = new Insets(0, 0, 0, 0);

    /** The leading-edge inset on the vertical axis. */
    public final double top;
    /** The leading-edge inset on the horizontal axis. */
    public final double leading;
    /** The trailing-edge inset on the vertical axis. */
    public final double bottom;
    /** The trailing-edge inset on the horizontal axis. */
    public final double trailing;

    /** Creates insets from their four edges. */
    public Insets(double top, double leading, double bottom, double trailing) {
        this.top = top;
        this.leading = leading;
        this.bottom = bottom;
        this.trailing = trailing;
    }

    @Override
    public boolean equals(Object other) {
        if (!(other instanceof Insets)) return false;
        Insets that = (Insets) other;
        return Double.compare(top, that.top) == 0 && Double.compare(leading, that.leading) == 0
                && Double.compare(bottom, that.bottom) == 0 && Double.compare(trailing, that.trailing) == 0;
    }

    @Override
    public int hashCode() {
        return ((Double.hashCode(top) * 31 + Double.hashCode(leading)) * 31 + Double.hashCode(bottom)) * 31
                + Double.hashCode(trailing);
    }
}
