package readingprogress.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static readingprogress.client.Support.eventually;
import static readingprogress.client.Support.page;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** Reporters delivering to the real service over HttpURLConnection, and the statistics that result. */
@DisplayName("Delivery, end to end")
class DeliveryTest {
    private static List<Integer> batchSizes(WatchingTransport transport) {
        List<Integer> sizes = new ArrayList<>();
        for (WatchingTransport.Exchange exchange : transport.all()) sizes.add(exchange.events);
        return sizes;
    }

    @Test
    @DisplayName("a reading session becomes a few events, and the statistics are the figures the device computed")
    void readingSession() throws Exception {
        try (Rig rig = new Rig()) {
            String article = "/android/how-to-read";
            // Opening the article, then half of it, then five seconds later the rest.
            rig.reporter.record(page(0), article);
            rig.clock.advance(5_000);
            for (double y = 25; y <= 500; y += 25) rig.reporter.record(page(y), article);
            rig.clock.advance(5_000);
            ProgressFigures last = null;
            for (double y = 525; y <= 1000; y += 25) last = rig.reporter.record(page(y), article);
            assertEquals(1.0, last.progress);
            assertEquals("100%", last.percent());
            rig.reporter.endView(article);
            // The first geometry and one for each tenth of progress: 11 events, nothing at the end.
            assertEquals(11, rig.reporter.queuedEvents());

            // A second reader, with no reader id of its own, stops at 30%.
            Path other = Support.temporaryFolder();
            try (Reporter second = new Reporter(Support.testing(rig.server.url(), other, null), null, rig.clock, null)) {
                for (double y = 0; y <= 300; y += 10) second.record(page(y), article);
                second.endView(article);
                assertEquals(0, (int) second.flush().get());
            } finally {
                Support.removeFolder(other);
            }
            assertEquals(0, (int) rig.reporter.flush().get());

            Map<?, ?> stats = rig.server.stats(article);
            assertEquals(2.0, stats.get("readers"));
            assertEquals(11.0 + 4, stats.get("events"));
            Map<?, ?> completion = (Map<?, ?>) stats.get("completion");
            assertEquals(1.0, completion.get("completed"));
            assertEquals(0.5, completion.get("rate"));
            double mean = (Double) ((Map<?, ?>) stats.get("depth")).get("mean");
            assertTrue(Math.abs(mean - (1 + 0.3) / 2) < 1e-12, "mean depth " + mean);
            // Engaged from the first scroll at 5 s to the end at 10 s; the other reader not at all.
            assertEquals(5.0, ((Map<?, ?>) stats.get("engagedSeconds")).get("total"));

            eventually("the delivery reports", () -> rig.log.deliveredIds().size() == 11);
            assertEquals(11, new HashSet<>(rig.log.deliveredIds()).size());
            assertEquals(0, rig.log.duplicates());
            assertTrue(Support.files(rig.queue()).isEmpty());
        }
    }

    @Test
    @DisplayName("a batch goes by itself once flushCount events are queued")
    void onCount() throws Exception {
        try (Rig rig = new Rig(new String[0], configuration -> configuration.flushCount = 5)) {
            for (int article = 0; article < 4; article++) rig.reporter.record(page(0), "/count/" + article);
            assertEquals(4, rig.reporter.queuedEvents());
            rig.reporter.record(page(0), "/count/4");
            Map<String, Integer> expected = new HashMap<>();
            for (int article = 0; article < 5; article++) expected.put("/count/" + article, 1);
            eventually("five events counted", () -> rig.server.eventCounts().equals(expected));
            eventually("an empty queue", () -> rig.reporter.queuedEvents() == 0);
            assertEquals(List.of(5), batchSizes(rig.transport));
        }
    }

    @Test
    @DisplayName("a batch goes by itself when the flush interval has passed")
    void onTimer() throws Exception {
        try (Rig rig = new Rig(new String[0], c -> c.flushInterval = java.time.Duration.ofMillis(300))) {
            rig.reporter.record(page(0), "/timer");
            rig.reporter.record(page(500), "/timer");
            eventually("the timer's delivery", () -> rig.server.eventCount("/timer") == 2);
            assertEquals(List.of(2), batchSizes(rig.transport));
        }
    }

    @Test
    @DisplayName("at most maximumBatchSize (100) events a request, oldest first")
    void batchSize() throws Exception {
        try (Rig rig = new Rig()) {
            for (int article = 0; article < 250; article++) rig.reporter.record(page(0), "/batch/" + article);
            assertEquals(0, (int) rig.reporter.flush().get());
            assertEquals(List.of(100, 100, 50), batchSizes(rig.transport));
            assertEquals(1, rig.server.eventCount("/batch/0"));
            assertEquals(1, rig.server.eventCount("/batch/249"));
        }
    }

    @Test
    @DisplayName("one request in flight, however many flushes, counts and timers ask at once")
    void oneInFlight() throws Exception {
        try (Rig rig = new Rig(new String[0], c -> {
            c.flushCount = 1;
            c.flushInterval = java.time.Duration.ofMillis(100);
            c.maximumBatchSize = 7;
        })) {
            List<Thread> writers = new ArrayList<>();
            List<Throwable> failures = new ArrayList<>();
            for (int writer = 0; writer < 4; writer++) {
                int w = writer;
                Thread thread = new Thread(() -> {
                    try {
                        for (int article = 0; article < 50; article++) {
                            rig.reporter.record(page(0), "/busy/" + w + "-" + article);
                            if (article % 5 == 0) rig.reporter.flush();
                        }
                    } catch (GeometryException impossible) {
                        synchronized (failures) {
                            failures.add(impossible);
                        }
                    }
                });
                writers.add(thread);
                thread.start();
            }
            for (Thread thread : writers) thread.join();
            assertTrue(failures.isEmpty(), failures.toString());
            eventually("every event delivered", () -> rig.reporter.flush().get() == 0);
            int answered = 0;
            for (WatchingTransport.Exchange exchange : rig.transport.all()) {
                assertTrue(exchange.events <= 7);
                // A request that timed out (a 50 ms timeout on a busy machine) was sent again.
                if (exchange.status == 202) answered += exchange.events;
            }
            assertEquals(1, rig.transport.greatestConcurrency());
            assertTrue(rig.transport.all().size() > 1);
            assertEquals(200, answered);
            Map<String, Integer> counts = rig.server.eventCounts();
            assertEquals(200, counts.size());
            for (int count : counts.values()) assertEquals(1, count);
        }
    }

    @Test
    @DisplayName("going to the background sends what the open views have and delivers it")
    void background() throws Exception {
        try (Rig rig = new Rig()) {
            rig.reporter.record(page(0), "/bg");
            rig.clock.advance(1_000);
            rig.reporter.record(page(40), "/bg");
            rig.clock.advance(3_000);
            rig.reporter.setAppState(AppState.BACKGROUND);
            eventually("the view's events delivered", () -> rig.server.eventCount("/bg") == 2);
            eventually("an empty queue", () -> rig.reporter.queuedEvents() == 0);
            Map<?, ?> stats = rig.server.stats("/bg");
            assertEquals(3.0, ((Map<?, ?>) stats.get("engagedSeconds")).get("total"));
            assertEquals(page(40).figures().progress, ((Map<?, ?>) stats.get("depth")).get("mean"));
            // In the background no time is engaged, and nothing is left to send when the view ends.
            rig.clock.advance(60_000);
            rig.reporter.setAppState(AppState.ACTIVE);
            rig.reporter.endView("/bg");
            assertEquals(0, rig.reporter.queuedEvents());
            assertEquals(2, rig.transport.all().stream().mapToInt(e -> e.events).sum());
        }
    }

    @Test
    @DisplayName("scrolling that comes to rest sends the deepest point reached, a restDelay later")
    void atRest() throws Exception {
        try (Rig rig = new Rig()) {
            rig.reporter.record(page(0), "/rest");
            rig.reporter.record(page(100), "/rest");
            rig.reporter.record(page(180), "/rest");
            rig.reporter.record(page(120), "/rest");
            assertEquals(2, rig.reporter.queuedEvents());
            // The clock stands still: until it moves on, the view has not been still for long enough.
            rig.clock.advance(150);
            eventually("the deepest geometry queued at rest", () -> rig.reporter.queuedEvents() == 3);
            assertEquals(0, (int) rig.reporter.flush().get());
            double depth = (Double) ((Map<?, ?>) rig.server.stats("/rest").get("depth")).get("mean");
            assertEquals(page(180).figures().progress, depth);
        }
    }

    @Test
    @DisplayName("another reader ends the open views: each reader's view of an article is counted as its own")
    void readers() throws Exception {
        try (Rig rig = new Rig()) {
            for (String reader : new String[] {"r-a", "r-b", "r-c"}) {
                rig.reporter.setReader(reader);
                rig.reporter.record(page(0), "/shared");
                rig.reporter.record(page(0), "/shared");
            }
            // The same reader again changes nothing: its view goes on.
            rig.reporter.setReader("r-c");
            rig.reporter.record(page(0), "/shared");
            assertEquals(0, (int) rig.reporter.flush().get());
            Map<?, ?> stats = rig.server.stats("/shared");
            assertEquals(3.0, stats.get("readers"));
            assertEquals(3.0, stats.get("events"));
        }
    }

    @Test
    @DisplayName("geometry the service would refuse throws at once and queues nothing")
    void invalidGeometry() throws Exception {
        try (Rig rig = new Rig()) {
            ScrollSnapshot negative = page(0).toBuilder().contentSize(400, -1).build();
            GeometryException thrown = org.junit.jupiter.api.Assertions.assertThrows(GeometryException.class,
                    () -> rig.reporter.record(negative, "/invalid"));
            assertEquals("contentSize.height", thrown.field());
            assertEquals(0, rig.reporter.queuedEvents());
        }
    }
}
