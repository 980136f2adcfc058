package readingprogress.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;
import static readingprogress.client.Support.eventually;
import static readingprogress.client.Support.page;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** A queue on a real file system that fills up: a tmpfs of 64 KiB (mounting it needs root). */
@DisplayName("A full disk")
class DiskFullTest {
    private static boolean run(String... command) throws Exception {
        Process process = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        return process.waitFor() == 0;
    }

    @Test
    @DisplayName("events that cannot be written are reported NOT_SAVED and still delivered while the app runs; "
            + "space freed is used again")
    void full() throws Exception {
        Path folder = Support.temporaryFolder();
        Path mount = Files.createDirectory(folder.resolve("small"));
        assumeTrue(run("mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", mount.toString()),
                "mounting a tmpfs needs root");
        try (ServerProcess server = new ServerProcess("memory:")) {
            Configuration configuration = Support.testing(server.url(), mount, "r");
            try (Reporter reporter = new Reporter(configuration, null, new Support.TestClock(), null)) {
                ReportLog log = ReportLog.of(reporter);
                for (int article = 0; article < 40; article++) reporter.record(page(0), "/full/" + article);
                assertEquals(40, reporter.queuedEvents());
                int saved = Support.files(mount.resolve("queue")).size();
                assertTrue(saved > 0 && saved < 40, saved + " files");
                List<DeliveryReport> unsaved = log.of(DeliveryReport.Kind.NOT_SAVED);
                assertEquals(40 - saved, unsaved.size());
                for (DeliveryReport report : unsaved) {
                    assertTrue(report.message.contains("No space left on device"), report.message);
                }

                assertEquals(0, (int) reporter.flush().get());
                Map<String, Integer> counts = server.eventCounts();
                assertEquals(40, counts.size());
                for (int count : counts.values()) assertEquals(1, count);
                eventually("the delivery reports", () -> log.deliveredIds().size() == 40);
                assertTrue(Support.files(mount.resolve("queue")).isEmpty());

                // Delivered, the files are gone and their space is there for the next events.
                for (int article = 0; article < saved; article++) reporter.record(page(0), "/again/" + article);
                assertEquals(saved, reporter.queuedEvents());
                assertEquals(saved, Support.files(mount.resolve("queue")).size());
                assertEquals(40 - saved, log.of(DeliveryReport.Kind.NOT_SAVED).size());
            }
        } finally {
            run("umount", mount.toString());
            Support.removeFolder(folder);
        }
    }
}
