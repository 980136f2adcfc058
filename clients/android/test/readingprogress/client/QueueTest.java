package readingprogress.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static readingprogress.client.Support.eventually;
import static readingprogress.client.Support.page;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The queue on disk across restarts of the reporter, at its bound, with its age limit. */
@DisplayName("The queue on disk, end to end")
class QueueTest {
    @Test
    @DisplayName("a reporter started on the queue an earlier one left delivers it by itself, exactly once")
    void restartedOffline() throws Exception {
        Path folder = Support.temporaryFolder();
        try (Proxy proxy = new Proxy(Support.vacantPort())) {
            Configuration configuration = Support.testing(proxy.url(), folder, "r");
            try (Reporter first = new Reporter(configuration, null, new Support.TestClock(), null)) {
                for (double y = 0; y <= 400; y += 100) first.record(page(y), "/again");
                assertEquals(5, (int) first.flush().get());
            }
            assertEquals(5, Support.files(folder.resolve("queue")).size());

            try (ServerProcess server = new ServerProcess("memory:");
                    Reporter second = new Reporter(configuration, null, new Support.TestClock(), null)) {
                proxy.target(server.port);
                ReportLog log = ReportLog.of(second);
                eventually("the earlier run's events delivered", () -> server.eventCount("/again") == 5);
                eventually("the reports", () -> log.deliveredIds().size() == 5);
                assertEquals(0, log.duplicates());
                assertEquals(0, second.queuedEvents());
                assertTrue(Support.files(folder.resolve("queue")).isEmpty());
            }
        } finally {
            Support.removeFolder(folder);
        }
    }

    @Test
    @DisplayName("record, endView and setAppState return at once: the files are read, written and removed on the "
            + "reporter's own thread")
    void offTheCallersThread() throws Exception {
        Path folder = Support.temporaryFolder();
        DirectoryStorage real = new DirectoryStorage(folder.resolve("queue"));
        Set<String> threads = ConcurrentHashMap.newKeySet();
        EventStorage watched = new EventStorage() {
            @Override
            public List<StoredEvent> loadAll() throws java.io.IOException {
                threads.add(Thread.currentThread().getName());
                return real.loadAll();
            }

            @Override
            public void write(byte[] data, String name) throws java.io.IOException {
                threads.add(Thread.currentThread().getName());
                real.write(data, name);
            }

            @Override
            public void remove(List<String> names) throws java.io.IOException {
                threads.add(Thread.currentThread().getName());
                real.remove(names);
            }
        };
        try (ServerProcess server = new ServerProcess("memory:");
                Reporter reporter = new Reporter(Support.testing(server.url(), folder, "r"), null,
                        new Support.TestClock(), watched)) {
            for (double y = 0; y <= 300; y += 50) reporter.record(page(y), "/main");
            reporter.endView("/main");
            reporter.setAppState(AppState.BACKGROUND);
            eventually("the events delivered", () -> server.eventCount("/main") == 4);
            eventually("their files removed", () -> Support.files(folder.resolve("queue")).isEmpty());
        } finally {
            Support.removeFolder(folder);
        }
        assertEquals(Set.of("reading-progress"), threads);
    }

    @Test
    @DisplayName("the queue has a bound: the oldest events go first, and are reported")
    void bound() throws Exception {
        Path folder = Support.temporaryFolder();
        try (Proxy proxy = new Proxy(Support.vacantPort())) {
            Configuration configuration = Support.testing(proxy.url(), folder, "r");
            configuration.maximumQueuedEvents = 5;
            try (Reporter reporter = new Reporter(configuration, null, new Support.TestClock(), null)) {
                ReportLog log = ReportLog.of(reporter);
                for (int article = 0; article < 8; article++) reporter.record(page(0), "/bound/" + article);
                assertEquals(5, reporter.queuedEvents());
                assertEquals(5, Support.files(folder.resolve("queue")).size());
                eventually("three drops reported", () -> log.dropped(DropReason.QUEUE_FULL).size() == 3);

                try (ServerProcess server = new ServerProcess("memory:")) {
                    proxy.target(server.port);
                    assertEquals(0, (int) reporter.flush().get());
                    eventually("the rest delivered", () -> reporter.flush().get() == 0 && log.deliveredIds().size() == 5);
                    for (int article = 0; article < 3; article++) assertNull(server.stats("/bound/" + article));
                    for (int article = 3; article < 8; article++) assertEquals(1, server.eventCount("/bound/" + article));
                    Set<String> delivered = new HashSet<>(log.deliveredIds());
                    assertTrue(Collections.disjoint(delivered, log.dropped(DropReason.QUEUE_FULL)));
                }
            }
        } finally {
            Support.removeFolder(folder);
        }
    }

    @Test
    @DisplayName("events older than the service's id window are dropped, not risked twice")
    void tooOld() throws Exception {
        try (ServerProcess server = new ServerProcess("memory:")) {
            Path folder = Support.temporaryFolder();
            // The first events happen 23.5 hours ago by this clock; then it comes to the present.
            long halfHour = 1_800_000L;
            Support.TestClock clock = new Support.TestClock(System.currentTimeMillis() - 47 * halfHour);
            try (Reporter reporter = new Reporter(Support.testing(server.url(), folder, "r"), null, clock, null)) {
                ReportLog log = ReportLog.of(reporter);
                for (int article = 0; article < 3; article++) reporter.record(page(0), "/old/" + article);
                clock.advance(47 * halfHour);
                reporter.record(page(0), "/new");
                assertEquals(0, (int) reporter.flush().get());
                eventually("the drop reported", () -> log.dropped(DropReason.TOO_OLD).size() == 3);
                for (int article = 0; article < 3; article++) assertNull(server.stats("/old/" + article));
                assertEquals(1, server.eventCount("/new"));
            } finally {
                Support.removeFolder(folder);
            }
        }
    }

    @Test
    @DisplayName("a file that cannot be read back is dropped and reported; the others are delivered")
    void unreadable() throws Exception {
        try (ServerProcess server = new ServerProcess("memory:")) {
            Path folder = Support.temporaryFolder();
            Configuration configuration = Support.testing(server.url(), folder, "r");
            try (Reporter first = new Reporter(configuration, null, new Support.TestClock(), null)) {
                first.record(page(0), "/readable");
                assertEquals(1, first.queuedEvents());
            }
            Path queue = folder.resolve("queue");
            Files.write(queue.resolve("00000000000000000007.event"), "{\"id\":".getBytes(StandardCharsets.UTF_8));
            // A write the app was killed in the middle of: never renamed into place, never sent.
            Files.write(queue.resolve("00000000000000000008.partial"), "{\"id\":\"x\"".getBytes(StandardCharsets.UTF_8));
            try (Reporter second = new Reporter(configuration, null, new Support.TestClock(), null)) {
                ReportLog log = ReportLog.of(second);
                eventually("the readable event delivered", () -> server.eventCount("/readable") == 1);
                eventually("the drop reported",
                        () -> log.dropped(DropReason.UNREADABLE).equals(List.of("00000000000000000007")));
                eventually("an empty queue", () -> second.queuedEvents() == 0);
                assertTrue(Support.files(queue).isEmpty(), Support.files(queue).toString());
            } finally {
                Support.removeFolder(folder);
            }
        }
    }

    @Test
    @DisplayName("each event is a file of its own, written whole under a temporary name and renamed into place")
    void files() throws Exception {
        Path folder = Support.temporaryFolder();
        try {
            DirectoryStorage storage = new DirectoryStorage(folder.resolve("queue"));
            assertTrue(storage.loadAll().isEmpty());
            storage.write("{\"a\":1}".getBytes(StandardCharsets.UTF_8), "00000000000000000001");
            storage.write("{\"b\":2}".getBytes(StandardCharsets.UTF_8), "00000000000000000000");
            assertEquals(List.of("00000000000000000000.event", "00000000000000000001.event"),
                    Support.files(folder.resolve("queue")));
            List<StoredEvent> loaded = storage.loadAll();
            assertEquals("00000000000000000000", loaded.get(0).name);
            assertEquals("{\"b\":2}", new String(loaded.get(0).data, StandardCharsets.UTF_8));
            storage.remove(List.of("00000000000000000000", "00000000000000000009"));
            assertEquals(List.of("00000000000000000001.event"), Support.files(folder.resolve("queue")));
            // The folder removed under the app (its data cleared): the next write makes it again.
            Support.removeFolder(folder.resolve("queue"));
            storage.write("{}".getBytes(StandardCharsets.UTF_8), "00000000000000000002");
            assertEquals(List.of("00000000000000000002.event"), Support.files(folder.resolve("queue")));
        } finally {
            Support.removeFolder(folder);
        }
    }
}
