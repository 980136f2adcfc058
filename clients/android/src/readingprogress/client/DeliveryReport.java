package readingprogress.client;

import java.util.Collections;
import java.util.List;

/**
 * What became of queued events. Every event ends in exactly one of {@link Kind#DELIVERED},
 * {@link Kind#REJECTED} and {@link Kind#DROPPED}; {@link Kind#RETRYING} and {@link Kind#NOT_SAVED}
 * say why one is taking a while or is at risk.
 */
public final class DeliveryReport {
    /** The kinds of report. */
    public enum Kind {
        /**
         * The service acknowledged these events (a 2xx): they are in its statistics,
         * {@link #duplicates} of them because an earlier attempt, whose answer was lost, had already
         * counted them.
         */
        DELIVERED,
        /** The service refused this event (400) and said why ({@link #error}); it is never sent again. */
        REJECTED,
        /**
         * These events are dropped without a verdict of the service ({@link #dropReason}) and never
         * sent again. One may still have been counted by an earlier attempt whose answer was lost.
         */
        DROPPED,
        /** A request failed ({@link #retryReason}); the next waits {@link #retryAfterMillis}. */
        RETRYING,
        /**
         * The event could not be written to the queue's storage ({@link #message}): it is delivered
         * while the app runs but would not survive the app being killed.
         */
        NOT_SAVED
    }

    /** What this report says. */
    public final Kind kind;
    /** The events it is about: several for DELIVERED and DROPPED, one for REJECTED and NOT_SAVED. */
    public final List<String> eventIds;
    /** DELIVERED: how many of the events the service had counted already. */
    public final int duplicates;
    /** REJECTED: the event's article. */
    public final String article;
    /** REJECTED: the service's error. */
    public final ServiceError error;
    /** DROPPED: why. */
    public final DropReason dropReason;
    /** RETRYING: the wait before the next request, in milliseconds. */
    public final long retryAfterMillis;
    /** RETRYING: what failed. */
    public final RetryReason retryReason;
    /** NOT_SAVED: the storage's error. */
    public final String message;

    private DeliveryReport(Kind kind, List<String> eventIds, int duplicates, String article, ServiceError error,
            DropReason dropReason, long retryAfterMillis, RetryReason retryReason, String message) {
        this.kind = kind;
        this.eventIds = Collections.unmodifiableList(eventIds);
        this.duplicates = duplicates;
        this.article = article;
        this.error = error;
        this.dropReason = dropReason;
        this.retryAfterMillis = retryAfterMillis;
        this.retryReason = retryReason;
        this.message = message;
    }

    static DeliveryReport delivered(List<String> ids, int duplicates) {
        return new DeliveryReport(Kind.DELIVERED, ids, duplicates, null, null, null, 0, null, null);
    }

    static DeliveryReport rejected(String id, String article, ServiceError error) {
        return new DeliveryReport(Kind.REJECTED, Collections.singletonList(id), 0, article, error, null, 0, null, null);
    }

    static DeliveryReport dropped(List<String> ids, DropReason reason) {
        return new DeliveryReport(Kind.DROPPED, ids, 0, null, null, reason, 0, null, null);
    }

    static DeliveryReport retrying(long afterMillis, RetryReason reason) {
        return new DeliveryReport(Kind.RETRYING, Collections.<String>emptyList(), 0, null, null, null, afterMillis,
                reason, null);
    }

    static DeliveryReport notSaved(String id, String message) {
        return new DeliveryReport(Kind.NOT_SAVED, Collections.singletonList(id), 0, null, null, null, 0, null, message);
    }

    @Override
    public String toString() {
        switch (kind) {
            case DELIVERED:
                return "delivered " + eventIds.size() + " (" + duplicates + " duplicates)";
            case REJECTED:
                return "rejected " + eventIds.get(0) + ": " + error;
            case DROPPED:
                return "dropped " + eventIds.size() + ": " + dropReason;
            case RETRYING:
                return "retrying after " + retryAfterMillis + " ms: " + retryReason;
            default:
                return "not saved " + eventIds.get(0) + ": " + message;
        }
    }
}
