package readingprogress.client;

import java.nio.charset.StandardCharsets;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** What one answer to a batch means for its events. */
final class BatchOutcome {
    enum Kind {
        /** 2xx: every event is settled; those in {@code rejected} were refused, the others counted. */
        ACCEPTED,
        /** 400: none of the events is valid; each listed one with its own error, the rest with {@code error}. */
        REFUSED,
        /** 413: the body is too large for the service. */
        TOO_LARGE,
        /** Try again later, not sooner than {@code retryAfterMillis} when that is not negative. */
        RETRY
    }

    final Kind kind;
    final int duplicates;
    /** The refused events by their index in the batch. */
    final Map<Integer, ServiceError> rejected;
    final ServiceError error;
    final RetryReason retryReason;
    final long retryAfterMillis;

    private BatchOutcome(Kind kind, int duplicates, Map<Integer, ServiceError> rejected, ServiceError error,
            RetryReason retryReason, long retryAfterMillis) {
        this.kind = kind;
        this.duplicates = duplicates;
        this.rejected = rejected;
        this.error = error;
        this.retryReason = retryReason;
        this.retryAfterMillis = retryAfterMillis;
    }

    /** No answer came. */
    static BatchOutcome networkFailure(String description) {
        return new BatchOutcome(Kind.RETRY, 0, new HashMap<>(), null, RetryReason.network(description), -1);
    }

    /** Reads the answer to a batch sent at {@code nowMillis} (for a {@code Retry-After} given as a date). */
    static BatchOutcome of(TransportResponse response, long nowMillis) {
        int status = response.status;
        if (status >= 200 && status < 300) {
            Map<?, ?> answer = object(response.body);
            Object duplicates = answer.get("duplicates");
            return new BatchOutcome(Kind.ACCEPTED, duplicates instanceof Double ? ((Double) duplicates).intValue() : 0,
                    rejected(answer), null, null, -1);
        }
        if (status == 400) {
            Map<?, ?> answer = object(response.body);
            ServiceError error = ServiceError.from(answer.get("error"));
            if (error == null) error = new ServiceError("invalid_event", "the service refused the batch (400)", null);
            return new BatchOutcome(Kind.REFUSED, 0, rejected(answer), error, null, -1);
        }
        if (status == 413) return new BatchOutcome(Kind.TOO_LARGE, 0, new HashMap<>(), null, null, -1);
        return new BatchOutcome(Kind.RETRY, 0, new HashMap<>(), null, RetryReason.status(status),
                retryAfterMillis(response.header("Retry-After"), nowMillis));
    }

    /** The answer's JSON object; empty when it is none (an answer from something else than the service). */
    private static Map<?, ?> object(byte[] body) {
        try {
            Object parsed = Json.parse(new String(body, StandardCharsets.UTF_8));
            if (parsed instanceof Map) return (Map<?, ?>) parsed;
        } catch (IllegalArgumentException notJson) {
            // Read as an answer without details: the status alone decides.
        }
        return new HashMap<>();
    }

    private static Map<Integer, ServiceError> rejected(Map<?, ?> answer) {
        Map<Integer, ServiceError> byIndex = new HashMap<>();
        Object list = answer.get("rejected");
        if (!(list instanceof List)) return byIndex;
        for (Object entry : (List<?>) list) {
            if (!(entry instanceof Map)) continue;
            Object index = ((Map<?, ?>) entry).get("index");
            ServiceError error = ServiceError.from(((Map<?, ?>) entry).get("error"));
            if (index instanceof Double && error != null) byIndex.putIfAbsent(((Double) index).intValue(), error);
        }
        return byIndex;
    }

    /**
     * Milliseconds from {@code nowMillis} until the time a {@code Retry-After} value names (seconds,
     * or an HTTP date); -1 when absent or unreadable.
     */
    static long retryAfterMillis(String value, long nowMillis) {
        if (value == null || value.trim().isEmpty()) return -1;
        String trimmed = value.trim();
        if (trimmed.matches("[0-9]{1,12}")) return Long.parseLong(trimmed) * 1000;
        try {
            long then = ZonedDateTime.parse(trimmed, DateTimeFormatter.RFC_1123_DATE_TIME).toInstant().toEpochMilli();
            return Math.max(0, then - nowMillis);
        } catch (DateTimeParseException notDate) {
            return -1;
        }
    }
}
