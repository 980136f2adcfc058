package readingprogress.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

@DisplayName("Backoff and Retry-After")
class BackoffTest {
    private final Backoff backoff = new Backoff(1_000, 300_000);

    @ParameterizedTest(name = "after {0} failures: between half and all of {1} ms")
    @CsvSource({"1, 1000", "2, 2000", "3, 4000", "6, 32000", "9, 256000", "10, 300000", "40, 300000", "200, 300000"})
    @DisplayName("the wait doubles with each failure in a row, between half and all of its ceiling, up to 5 minutes")
    void doubling(int failures, long ceiling) {
        assertEquals(ceiling / 2, backoff.delayMillis(failures, -1, 0));
        assertEquals(ceiling, backoff.delayMillis(failures, -1, 1));
        long middle = backoff.delayMillis(failures, -1, 0.5);
        assertTrue(middle > ceiling / 2 && middle < ceiling);
    }

    @Test
    @DisplayName("jitter spreads the waits of many clients")
    void spread() {
        Set<Long> waits = new HashSet<>();
        for (int i = 0; i < 100; i++) waits.add(backoff.delayMillis(4, -1, ThreadLocalRandom.current().nextDouble()));
        assertTrue(waits.size() > 50);
        for (long wait : waits) assertTrue(wait >= 4_000 && wait <= 8_000);
    }

    @Test
    @DisplayName("never sooner than Retry-After, even past the maximum; a day at most")
    void retryAfter() {
        assertEquals(7_000, backoff.delayMillis(1, 7_000, 1));
        assertEquals(150_000, backoff.delayMillis(10, 7_000, 0));
        assertEquals(3_600_000, backoff.delayMillis(1, 3_600_000, 0));
        assertEquals(86_400_000, backoff.delayMillis(1, 1_000_000_000_000L, 0));
    }

    @Test
    @DisplayName("Retry-After in seconds or as an HTTP date; anything else is no answer")
    void parsing() {
        long now = 1_764_547_200_000L; // Mon, 01 Dec 2025 00:00:00 GMT
        assertEquals(1_000, BatchOutcome.retryAfterMillis("1", now));
        assertEquals(120_000, BatchOutcome.retryAfterMillis(" 120 ", now));
        assertEquals(30_000, BatchOutcome.retryAfterMillis("Mon, 01 Dec 2025 00:00:30 GMT", now));
        assertEquals(0, BatchOutcome.retryAfterMillis("Sun, 30 Nov 2025 00:00:00 GMT", now));
        for (String value : new String[] {null, "", "-1", "soon", "1.5"}) {
            assertEquals(-1, BatchOutcome.retryAfterMillis(value, now), String.valueOf(value));
        }
    }

    @Test
    @DisplayName("a batch's answer: rejected events by index, duplicates, and a 400's error for the rest")
    void answers() {
        String body = "{\"accepted\":2,\"duplicates\":1,\"rejected\":[{\"index\":2,\"error\":"
                + "{\"code\":\"invalid_event\",\"message\":\"article is too long\",\"field\":\"article\"}}]}";
        BatchOutcome accepted = BatchOutcome.of(new TransportResponse(202, null, body.getBytes()), 0);
        assertEquals(BatchOutcome.Kind.ACCEPTED, accepted.kind);
        assertEquals(1, accepted.duplicates);
        assertEquals(new ServiceError("invalid_event", "article is too long", "article"), accepted.rejected.get(2));
        BatchOutcome refused = BatchOutcome.of(new TransportResponse(400, null, "not json".getBytes()), 0);
        assertEquals(BatchOutcome.Kind.REFUSED, refused.kind);
        assertEquals("invalid_event", refused.error.code);
        BatchOutcome wrongEndpoint = BatchOutcome.of(new TransportResponse(404, null, new byte[0]), 0);
        assertEquals(BatchOutcome.Kind.RETRY, wrongEndpoint.kind);
        assertEquals(404, wrongEndpoint.retryReason.status);
    }
}
