package readingprogress.client;

/** Why events were dropped unsent. */
public enum DropReason {
    /** The queue was at its bound ({@link Configuration#maximumQueuedEvents}); the oldest go. */
    QUEUE_FULL,
    /**
     * Older than {@link Configuration#maximumEventAge}: the service may have forgotten its id, and a
     * resend could count it twice.
     */
    TOO_OLD,
    /** The service answered 413 to this event alone: it can never be sent. */
    TOO_LARGE,
    /** Its queue file could not be read back; the ids reported are the files' names. */
    UNREADABLE
}
