package readingprogress.client;

/**
 * Exponential backoff with jitter: after the n-th failure in a row, a wait between half and all of
 * {@code minimum × 2ⁿ⁻¹}, at most {@code maximum}, and never shorter than the service's
 * {@code Retry-After}.
 */
final class Backoff {
    /** The longest wait a {@code Retry-After} can impose: an event older than a day is dropped anyway. */
    static final long RETRY_AFTER_LIMIT_MILLIS = 86_400_000L;

    final long minimumMillis;
    final long maximumMillis;

    Backoff(long minimumMillis, long maximumMillis) {
        this.minimumMillis = minimumMillis;
        this.maximumMillis = Math.max(maximumMillis, minimumMillis);
    }

    /**
     * The wait after {@code failures} failures in a row (1 for the first), with {@code jitter} in
     * 0…1; {@code retryAfterMillis} is negative when the service named none.
     */
    long delayMillis(int failures, long retryAfterMillis, double jitter) {
        // 2⁴⁰ times any sensible minimum is far past any maximum; stop doubling there.
        double exponent = (double) (1L << Math.min(Math.max(failures - 1, 0), 40));
        double ceiling = Math.min((double) maximumMillis, minimumMillis * exponent);
        double jittered = ceiling * (0.5 + 0.5 * Math.min(Math.max(jitter, 0), 1));
        return Math.max((long) jittered, Math.min(retryAfterMillis, RETRY_AFTER_LIMIT_MILLIS));
    }
}
