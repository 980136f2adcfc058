package readingprogress.client;

/**
 * A custom horizontal scroll indicator: a thumb sliding along a track; {@code trackLength > 0} and
 * {@code 0 ≤ thumbLength ≤ trackLength}.
 */
public final class Indicator {
    /** The indicator used when a geometry names none: a 90-point track, a 40-point thumb. */
    public static final Indicator STANDARD = new Indicator(90, 40);

    /** Length of the track the thumb slides along. */
    public final double trackLength;
    /** Length of the thumb. */
    public final double thumbLength;

    /** Creates an indicator from its track and thumb lengths. */
    public Indicator(double trackLength, double thumbLength) {
        this.trackLength = trackLength;
        this.thumbLength = thumbLength;
    }

    @Override
    public boolean equals(Object other) {
        if (!(other instanceof Indicator)) return false;
        Indicator that = (Indicator) other;
        return Double.compare(trackLength, that.trackLength) == 0
                && Double.compare(thumbLength, that.thumbLength) == 0;
    }

    @Override
    public int hashCode() {
        return Double.hashCode(trackLength) * 31 + Double.hashCode(thumbLength);
    }
}
