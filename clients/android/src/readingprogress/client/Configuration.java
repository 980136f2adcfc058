package readingprogress.client;

import java.net.MalformedURLException;
import java.net.URL;
import java.nio.file.Path;
import java.time.Duration;

/**
 * How a {@link Reporter} decides what to send and delivers it (docs/android-client.md). The
 * defaults suit an app; tests shorten the intervals. Set the fields, then hand it to the reporter,
 * which takes a copy.
 */
public final class Configuration {
    /**
     * The service's base URL, such as {@code https://progress.example.com}; events go to
     * {@code /v1/events} under it.
     */
    public URL endpoint;
    /** The reader id every event carries; null to send none and let the service derive one. */
    public String reader;
    /** The folder of the queue on disk: one file per undelivered event. One reporter at a time per folder. */
    public Path queueDirectory;
    /** The device class every event carries as {@code device}; null to send none. */
    public DeviceClass device;
    /** Where the reader came from (a host or a campaign name, never a URL), sent as {@code source}; null for none. */
    public String source;

    /** Events queued that start a delivery at once. */
    public int flushCount = 20;
    /** A delivery starts this long after the last while events are queued. */
    public Duration flushInterval = Duration.ofSeconds(30);
    /** The most events one request carries (the service takes at most 1000). */
    public int maximumBatchSize = 100;
    /** How long a request may take; at most half of {@link #flushInterval}. */
    public Duration requestTimeout = Duration.ofSeconds(10);
    /** The wait after the first failure; each failure in a row doubles it, with jitter. */
    public Duration minimumBackoff = Duration.ofSeconds(1);
    /** The longest wait between failed requests, unless the service's {@code Retry-After} asks more. */
    public Duration maximumBackoff = Duration.ofMinutes(5);
    /** The queue's bound: past it the oldest events are dropped. */
    public int maximumQueuedEvents = 1000;
    /**
     * Older events are dropped, not sent: the service counts a repeated id once only within 24 hours,
     * and a resend after that could count twice. An hour inside that window.
     */
    public Duration maximumEventAge = Duration.ofHours(23);

    /** Progress and seen depth are cut into this many steps; entering a new one is an event. */
    public int depthSteps = 10;
    /** Engaged time that makes an event of its own once it has gathered. */
    public Duration engagedInterval = Duration.ofSeconds(15);
    /** How long after the reader last scrolled the time still counts as engaged. */
    public Duration idleTimeout = Duration.ofSeconds(15);
    /** How long the content must stay still for scrolling to have come to rest. */
    public Duration restDelay = Duration.ofSeconds(1);

    /**
     * A configuration with the default delivery rules. On Android pass
     * {@code new File(context.getFilesDir(), "reading-progress/queue").toPath()} as the folder (not
     * the cache folder, which the system may empty before the events are delivered).
     */
    public Configuration(URL endpoint, String reader, Path queueDirectory) {
        this.endpoint = endpoint;
        this.reader = reader;
        this.queueDirectory = queueDirectory;
    }

    /** The same, with the endpoint as text; throws for text that is no URL. */
    public Configuration(String endpoint, String reader, Path queueDirectory) {
        this(parse(endpoint), reader, queueDirectory);
    }

    private static URL parse(String endpoint) {
        try {
            return new URL(endpoint);
        } catch (MalformedURLException bad) {
            throw new IllegalArgumentException("not a URL: " + endpoint, bad);
        }
    }

    Configuration copy() {
        Configuration copy = new Configuration(endpoint, reader, queueDirectory);
        copy.device = device;
        copy.source = source;
        copy.flushCount = flushCount;
        copy.flushInterval = flushInterval;
        copy.maximumBatchSize = maximumBatchSize;
        copy.requestTimeout = requestTimeout;
        copy.minimumBackoff = minimumBackoff;
        copy.maximumBackoff = maximumBackoff;
        copy.maximumQueuedEvents = maximumQueuedEvents;
        copy.maximumEventAge = maximumEventAge;
        copy.depthSteps = depthSteps;
        copy.engagedInterval = engagedInterval;
        copy.idleTimeout = idleTimeout;
        copy.restDelay = restDelay;
        return copy;
    }

    /**
     * Throws for a configuration the reporter cannot work with: no endpoint, no folder (unless the
     * reporter has a storage of its own), or a {@code source} the service would refuse in every event.
     */
    void check(boolean hasStorage) {
        if (endpoint == null) throw new IllegalArgumentException("the configuration has no endpoint");
        if (queueDirectory == null && !hasStorage) {
            throw new IllegalArgumentException("the configuration has no queue folder");
        }
        if (source != null) {
            int bytes = source.getBytes(java.nio.charset.StandardCharsets.UTF_8).length;
            if (bytes < 1 || bytes > 100 || source.codePoints().anyMatch(Character::isISOControl)) {
                throw new IllegalArgumentException("source must be 1 to 100 bytes of UTF-8 without control characters");
            }
        }
    }

    /** Where batches are posted. */
    URL eventsURL() {
        String base = endpoint.toString();
        return parse(base.endsWith("/") ? base + "v1/events" : base + "/v1/events");
    }

    /** {@link #requestTimeout}, held to half of {@link #flushInterval}, in milliseconds. */
    int effectiveRequestTimeoutMillis() {
        long millis = Math.min(requestTimeout.toMillis(), flushInterval.toMillis() / 2);
        return (int) Math.max(1, Math.min(millis, Integer.MAX_VALUE));
    }

    Backoff backoff() {
        return new Backoff(minimumBackoff.toMillis(), maximumBackoff.toMillis());
    }
}
