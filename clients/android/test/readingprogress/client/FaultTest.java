package readingprogress.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static readingprogress.client.Support.eventually;
import static readingprogress.client.Support.page;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** What a network and a service do to a reporter: absent, killed, limiting, refusing. */
@DisplayName("Delivery through faults, end to end")
class FaultTest {
    @Test
    @DisplayName("offline first: events wait, retried with backoff, and go once the service appears")
    void offlineFirst() throws Exception {
        Path folder = Support.temporaryFolder();
        try (Proxy proxy = new Proxy(Support.vacantPort());
                Reporter reporter = new Reporter(Support.testing(proxy.url(), folder, "r"), null,
                        new Support.TestClock(), null)) {
            ReportLog log = ReportLog.of(reporter);
            for (int article = 0; article < 3; article++) reporter.record(page(0), "/offline/" + article);
            assertEquals(3, (int) reporter.flush().get());
            eventually("a few failed attempts", () -> log.of(DeliveryReport.Kind.RETRYING).size() >= 3);
            for (DeliveryReport retry : log.of(DeliveryReport.Kind.RETRYING)) {
                assertTrue(retry.retryReason.isNetwork(), retry.toString());
                // Doubling from 20 ms, at most 200 ms, with jitter.
                assertTrue(retry.retryAfterMillis >= 10 && retry.retryAfterMillis <= 200, retry.toString());
            }
            try (ServerProcess server = new ServerProcess("memory:")) {
                proxy.target(server.port);
                eventually("the queued events delivered", () -> reporter.queuedEvents() == 0);
                for (int article = 0; article < 3; article++) assertEquals(1, server.eventCount("/offline/" + article));
                eventually("the delivery reports", () -> log.deliveredIds().size() == 3);
            }
        } finally {
            Support.removeFolder(folder);
        }
    }

    @Test
    @DisplayName("kill -9 after the service counted a batch, its answer lost on the way: "
            + "a restart on the same store counts it once")
    void lostAnswer() throws Exception {
        Path folder = Support.temporaryFolder();
        String store = "sqlite:" + folder.resolve("data/test.sqlite3");
        ServerProcess first = new ServerProcess(store);
        try (Proxy proxy = new Proxy(first.port);
                Reporter reporter = new Reporter(Support.testing(proxy.url(), folder, "r"), null,
                        new Support.TestClock(), null)) {
            ReportLog log = ReportLog.of(reporter);
            // The service's answer is read by the proxy (the service has committed the batch), the
            // service is killed, and the app's connection is reset before the answer reaches it.
            proxy.onLostAnswer = () -> {
                try {
                    first.kill();
                } catch (InterruptedException interrupted) {
                    Thread.currentThread().interrupt();
                }
            };
            proxy.mode(Proxy.Mode.RESET);
            for (double y = 0; y <= 1000; y += 100) reporter.record(page(y), "/lost");
            assertEquals(11, (int) reporter.flush().get());
            assertEquals(1, proxy.lostAnswers.get());
            assertTrue(!first.process.isAlive());
            proxy.mode(Proxy.Mode.FORWARD);

            try (ServerProcess second = new ServerProcess(store)) {
                proxy.target(second.port);
                eventually("the resent batch acknowledged", () -> reporter.queuedEvents() == 0);
                assertEquals(11, second.eventCount("/lost"));
                eventually("the delivery reports", () -> log.deliveredIds().size() == 11);
                assertEquals(11, log.duplicates());
            }
        } finally {
            first.close();
            Support.removeFolder(folder);
        }
    }

    @Test
    @DisplayName("429: the next request waits at least Retry-After, and every event counts once")
    void rateLimited() throws Exception {
        try (Rig rig = new Rig(new String[] {"--rate-limit", "1"}, configuration -> {})) {
            // A round spends this second's one request of the reporter's address, then has the
            // reporter send at once: short of a second between the two, that is a 429.
            int rounds = 0;
            while (rig.transport.all().stream().noneMatch(e -> e.status == 429) && rounds < 5) {
                rig.server.get("/v1/articles?limit=1");
                rig.reporter.record(page(0), "/limited/" + rounds);
                rig.reporter.flush().get();
                rounds += 1;
            }
            int total = rounds;
            eventually("every round's event delivered", () -> rig.log.deliveredIds().size() == total);
            List<WatchingTransport.Exchange> exchanges = rig.transport.all();
            assertTrue(exchanges.stream().anyMatch(e -> e.status == 429));
            for (int i = 0; i + 1 < exchanges.size(); i++) {
                if (exchanges.get(i).status != 429) continue;
                long waited = exchanges.get(i + 1).startedNanos - exchanges.get(i).answeredNanos;
                assertTrue(waited >= 1_000_000_000L, "waited " + waited + " ns");
            }
            List<DeliveryReport> retries = rig.log.of(DeliveryReport.Kind.RETRYING);
            assertTrue(!retries.isEmpty());
            for (DeliveryReport retry : retries) {
                assertEquals(429, retry.retryReason.status);
                assertTrue(retry.retryAfterMillis >= 1_000);
            }
            // The read waits out the limit itself: a 429 is retried here too.
            Map<String, Integer> expected = new HashMap<>();
            for (int round = 0; round < rounds; round++) expected.put("/limited/" + round, 1);
            eventually("the listing", () -> {
                try {
                    return rig.server.eventCounts().equals(expected);
                } catch (IllegalStateException limited) {
                    return false;
                }
            });
        }
    }

    @Test
    @DisplayName("an event the service rejects is dropped and reported, never sent again; the valid ones count")
    void rejected() throws Exception {
        try (Rig rig = new Rig()) {
            StringBuilder tooLong = new StringBuilder("/");
            for (int i = 0; i < 300; i++) tooLong.append('a');
            rig.reporter.record(page(0), "/valid");
            rig.reporter.record(page(0), tooLong.toString());
            assertEquals(0, (int) rig.reporter.flush().get());
            assertEquals(List.of(202), statuses(rig.transport));

            // A batch of invalid events only: 400, and none is retried.
            rig.reporter.record(page(0), tooLong + "b");
            rig.reporter.record(page(0), tooLong + "c");
            assertEquals(0, (int) rig.reporter.flush().get());
            assertEquals(0, (int) rig.reporter.flush().get());
            assertEquals(List.of(202, 400), statuses(rig.transport));

            eventually("three rejections reported", () -> rig.log.of(DeliveryReport.Kind.REJECTED).size() == 3);
            for (DeliveryReport rejection : rig.log.of(DeliveryReport.Kind.REJECTED)) {
                assertEquals("invalid_event", rejection.error.code);
                assertEquals("article", rejection.error.field);
                assertTrue(rejection.article.startsWith(tooLong.toString()));
            }
            assertEquals(1, rig.log.deliveredIds().size());
            assertEquals(1, rig.server.eventCount("/valid"));
            assertTrue(Support.files(rig.queue()).isEmpty());
        }
    }

    @Test
    @DisplayName("413: the batch is split until it fits, and every event counts once; an event too large alone is dropped")
    void tooLarge() throws Exception {
        try (Rig rig = new Rig(new String[] {"--max-body-bytes", "1024"}, configuration -> {})) {
            for (int article = 0; article < 12; article++) rig.reporter.record(page(0), "/large/" + article);
            assertEquals(0, (int) rig.reporter.flush().get());
            List<WatchingTransport.Exchange> exchanges = rig.transport.all();
            assertEquals(12, exchanges.get(0).events);
            assertEquals(413, exchanges.get(0).status);
            int accepted = 0;
            for (WatchingTransport.Exchange exchange : exchanges) {
                assertTrue(exchange.status == 202 || exchange.status == 413, "status " + exchange.status);
                if (exchange.status == 202) {
                    assertTrue(exchange.bytes <= 1024);
                    accepted += exchange.events;
                }
            }
            assertEquals(12, accepted);
            for (int article = 0; article < 12; article++) assertEquals(1, rig.server.eventCount("/large/" + article));

            // Each control character takes six bytes in JSON: alone the event is over the limit.
            StringBuilder huge = new StringBuilder("/");
            for (int i = 0; i < 200; i++) huge.append('\u0001');
            rig.reporter.record(page(0), huge.toString());
            assertEquals(0, (int) rig.reporter.flush().get());
            eventually("the drop reported", () -> rig.log.dropped(DropReason.TOO_LARGE).size() == 1);
            List<WatchingTransport.Exchange> after = rig.transport.all();
            assertEquals(413, after.get(after.size() - 1).status);
            assertEquals(1, after.get(after.size() - 1).events);
        }
    }

    private static List<Integer> statuses(WatchingTransport transport) {
        List<Integer> statuses = new java.util.ArrayList<>();
        for (WatchingTransport.Exchange exchange : transport.all()) statuses.add(exchange.status);
        return statuses;
    }
}
