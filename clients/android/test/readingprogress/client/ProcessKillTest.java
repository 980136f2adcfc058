package readingprogress.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static readingprogress.client.Support.eventually;

import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The app's process killed with SIGKILL and started again on the same queue, as Android does to apps. */
@DisplayName("An app process killed and started again")
class ProcessKillTest {
    private static final int READERS = 3;
    private static final int ARTICLES = 12;

    @Test
    @DisplayName("readers queued offline; the app killed, then killed again while its request was out; "
            + "the third run delivers: every event counted once")
    void killedTwice() throws Exception {
        Path folder = Support.temporaryFolder();
        String queue = folder.toString();
        String store = "sqlite:" + folder.resolve("data/test.sqlite3");
        try (Proxy proxy = new Proxy(Support.vacantPort())) {
            // First run: offline; every reader's events go to the queue, and the app is killed.
            try (ChildProcess first = new ChildProcess("record", proxy.url(), queue, "" + READERS, "" + ARTICLES)) {
                assertEquals("queued " + READERS * ARTICLES, first.nextLine());
                first.kill();
            }
            assertEquals(READERS * ARTICLES, Support.files(folder.resolve("queue")).size());

            try (ServerProcess server = new ServerProcess(store)) {
                // Second run: its first batch reaches the service, which counts it; the answer is
                // held back, and the app is killed while it waits.
                proxy.target(server.port);
                proxy.mode(Proxy.Mode.HOLD);
                try (ChildProcess second = new ChildProcess("deliver", proxy.url(), queue)) {
                    eventually("a batch counted, its answer held", () -> proxy.lostAnswers.get() >= 1);
                    assertTrue(second.isAlive());
                    second.kill();
                }
                int counted = 0;
                for (int count : server.eventCounts().values()) counted += count;
                assertEquals(5, counted, "the second run's one batch");
                assertEquals(READERS * ARTICLES, Support.files(folder.resolve("queue")).size());

                // Third run: everything goes, the held batch again among it.
                proxy.mode(Proxy.Mode.FORWARD);
                try (ChildProcess third = new ChildProcess("deliver", proxy.url(), queue)) {
                    assertEquals("delivered", third.nextLine());
                    assertEquals(0, third.waitForExit(), third.standardError());
                }
                for (int article = 0; article < ARTICLES; article++) {
                    Map<?, ?> stats = server.stats("/child/" + article);
                    assertEquals((double) READERS, stats.get("events"), "/child/" + article);
                    assertEquals((double) READERS, stats.get("readers"), "/child/" + article);
                }
                assertEquals(ARTICLES, server.eventCounts().size());
                assertTrue(Support.files(folder.resolve("queue")).isEmpty());
            }
        } finally {
            Support.removeFolder(folder);
        }
    }

    @Test
    @DisplayName("the app killed at two moments of a long delivery and started again: nothing lost, nothing counted twice")
    void killedMidStream() throws Exception {
        Path folder = Support.temporaryFolder();
        String queue = folder.toString();
        int articles = 200;
        try (ServerProcess server = new ServerProcess("sqlite:" + folder.resolve("data/test.sqlite3"));
                Proxy proxy = new Proxy(Support.vacantPort())) {
            try (ChildProcess offline = new ChildProcess("record", proxy.url(), queue, "1", "" + articles)) {
                assertEquals("queued " + articles, offline.nextLine());
                offline.kill();
            }
            proxy.target(server.port);
            for (int share : new int[] {4, 2}) {
                try (ChildProcess run = new ChildProcess("deliver", proxy.url(), queue)) {
                    eventually("a share of the events counted", () -> total(server) >= articles / share);
                    run.kill();
                }
            }
            assertTrue(total(server) < articles, "killed before the end");
            try (ChildProcess last = new ChildProcess("deliver", proxy.url(), queue)) {
                assertEquals("delivered", last.nextLine());
                assertEquals(0, last.waitForExit(), last.standardError());
            }
            Map<String, Integer> counts = server.eventCounts();
            assertEquals(articles, counts.size());
            for (Map.Entry<String, Integer> count : counts.entrySet()) {
                assertEquals(1, (int) count.getValue(), count.getKey());
            }
            assertTrue(Support.files(folder.resolve("queue")).isEmpty());
        } finally {
            Support.removeFolder(folder);
        }
    }

    private static int total(ServerProcess server) throws Exception {
        int total = 0;
        for (int count : server.eventCounts().values()) total += count;
        return total;
    }
}
