package readingprogress.client;

/**
 * One view's engaged time: time while the app is active, up to {@code idleTimeout} after the reader
 * last scrolled, not yet carried by an event.
 */
final class Engagement {
    /** The largest {@code engagedMs} the service takes: a day. */
    static final long MAXIMUM_MILLIS = 86_400_000L;

    private final long idleTimeoutMillis;
    private boolean scrolled;
    private long lastScroll;
    private boolean counting;
    private long countedUntil;
    private long pending;

    Engagement(long idleTimeoutMillis) {
        this.idleTimeoutMillis = idleTimeoutMillis;
    }

    /**
     * Counts the time since the previous call up to {@code now}: engaged where the app was
     * {@code active} all along and within the idle timeout of the last scroll. Time is counted once
     * only, even when the clock steps back.
     */
    void advance(long now, boolean active) {
        if (active && scrolled && counting) {
            long end = Math.min(now, lastScroll + idleTimeoutMillis);
            if (end > countedUntil) pending += end - countedUntil;
        }
        if (!counting || now > countedUntil) {
            countedUntil = now;
            counting = true;
        }
    }

    /** The reader scrolled at {@code now} (after {@link #advance(long, boolean)} to {@code now}). */
    void scrolled(long now) {
        scrolled = true;
        lastScroll = now;
    }

    /** Engaged time counted and not yet taken, in milliseconds. */
    long pendingMillis() {
        return pending;
    }

    /** Takes the pending time, at most a day (the most an event may carry); the rest stays pending. */
    long take() {
        long taken = Math.min(pending, MAXIMUM_MILLIS);
        pending -= taken;
        return taken;
    }
}
