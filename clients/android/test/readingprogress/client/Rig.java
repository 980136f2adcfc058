package readingprogress.client;

import java.nio.file.Path;
import java.util.function.Consumer;

/**
 * The usual setup of an end-to-end test: a service of its own (in memory), and a reporter for it
 * with the real transport watched, a clock in the test's hand and a log of the reports.
 */
final class Rig implements AutoCloseable {
    final ServerProcess server;
    final Path folder;
    final WatchingTransport transport = new WatchingTransport();
    final Support.TestClock clock = new Support.TestClock();
    final Reporter reporter;
    final ReportLog log;

    Rig(String[] serverArguments, Consumer<Configuration> configure) throws Exception {
        server = new ServerProcess("memory:", serverArguments);
        folder = Support.temporaryFolder();
        Configuration configuration = Support.testing(server.url(), folder, "r");
        configure.accept(configuration);
        reporter = new Reporter(configuration, transport, clock, null);
        log = ReportLog.of(reporter);
    }

    Rig() throws Exception {
        this(new String[0], configuration -> {});
    }

    Path queue() {
        return folder.resolve("queue");
    }

    @Override
    public void close() throws Exception {
        reporter.close();
        server.close();
        Support.removeFolder(folder);
    }
}
