package readingprogress.client;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;

/** What the tests share: waiting for conditions, folders, pages, a clock in the test's hand. */
final class Support {
    private Support() {}

    /** A condition that may throw. */
    interface Condition {
        boolean holds() throws Exception;
    }

    /** Polls {@code condition} until it holds, failing after a generous deadline: never a fixed sleep. */
    static void eventually(String what, Condition condition) throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (!condition.holds()) {
            if (System.nanoTime() > deadline) throw new AssertionError("timed out waiting for " + what);
            Thread.sleep(10);
        }
    }

    /** Geometry of an article 2000 tall in a 1000 tall viewport: progress y / 1000, seen depth (y + 1000) / 2000. */
    static ScrollSnapshot page(double y) {
        return ScrollSnapshot.builder().contentOffset(0, y).contentSize(400, 2000).containerSize(400, 1000).build();
    }

    /** A fresh temporary folder. */
    static Path temporaryFolder() throws IOException {
        return Files.createTempDirectory("reading-progress-android");
    }

    static void removeFolder(Path folder) throws IOException {
        if (!Files.exists(folder)) return;
        try (Stream<Path> paths = Files.walk(folder)) {
            List<Path> all = new ArrayList<>();
            paths.sorted(Comparator.reverseOrder()).forEach(all::add);
            for (Path path : all) Files.deleteIfExists(path);
        }
    }

    /** The names in {@code folder}, sorted; none when it does not exist. */
    static List<String> files(Path folder) throws IOException {
        List<String> names = new ArrayList<>();
        if (!Files.exists(folder)) return names;
        try (Stream<Path> paths = Files.list(folder)) {
            paths.map(path -> path.getFileName().toString()).sorted().forEach(names::add);
        }
        return names;
    }

    /** A port nothing listens on (one just freed). */
    static int vacantPort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    /**
     * A configuration for {@code endpoint} with the rules cut to test scale: it delivers only when
     * told to (the count and the timer are out of reach) and retries within a fraction of a second.
     */
    static Configuration testing(String endpoint, Path folder, String reader) {
        Configuration configuration = new Configuration(endpoint, reader, folder.resolve("queue"));
        configuration.flushCount = 10_000;
        configuration.flushInterval = Duration.ofHours(1);
        configuration.requestTimeout = Duration.ofSeconds(10);
        configuration.minimumBackoff = Duration.ofMillis(20);
        configuration.maximumBackoff = Duration.ofMillis(200);
        configuration.restDelay = Duration.ofMillis(100);
        configuration.maximumQueuedEvents = 10_000;
        return configuration;
    }

    /** A clock that stands still until the test moves it; waits are real. */
    static final class TestClock implements ReportingClock {
        private final AtomicLong now;

        TestClock() {
            this(System.currentTimeMillis());
        }

        TestClock(long start) {
            now = new AtomicLong(start);
        }

        @Override
        public long nowMillis() {
            return now.get();
        }

        void advance(long millis) {
            now.addAndGet(millis);
        }
    }
}
