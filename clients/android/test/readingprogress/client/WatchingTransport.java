package readingprogress.client;

import java.io.IOException;
import java.net.URL;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/** The real {@link HttpTransport}, watched: every exchange is noted, and how many were ever out at once. */
final class WatchingTransport implements Transport {
    /** One request and what came of it. */
    static final class Exchange {
        final long startedNanos;
        final int events;
        final int bytes;
        volatile int status;
        volatile long answeredNanos;

        Exchange(long startedNanos, int events, int bytes) {
            this.startedNanos = startedNanos;
            this.events = events;
            this.bytes = bytes;
        }
    }

    private final HttpTransport real = new HttpTransport();
    private final List<Exchange> exchanges = new ArrayList<>();
    private final AtomicInteger inFlight = new AtomicInteger();
    private final AtomicInteger mostInFlight = new AtomicInteger();

    @Override
    public TransportResponse post(byte[] body, URL url, int timeoutMillis) throws IOException {
        int now = inFlight.incrementAndGet();
        mostInFlight.accumulateAndGet(now, Math::max);
        try {
            Object parsed = Json.parse(new String(body, java.nio.charset.StandardCharsets.UTF_8));
            Exchange exchange = new Exchange(System.nanoTime(), ((List<?>) parsed).size(), body.length);
            synchronized (this) {
                exchanges.add(exchange);
            }
            TransportResponse response = real.post(body, url, timeoutMillis);
            exchange.status = response.status;
            exchange.answeredNanos = System.nanoTime();
            return response;
        } finally {
            inFlight.decrementAndGet();
        }
    }

    synchronized List<Exchange> all() {
        return new ArrayList<>(exchanges);
    }

    int greatestConcurrency() {
        return mostInFlight.get();
    }
}
