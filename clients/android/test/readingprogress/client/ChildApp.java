package readingprogress.client;

import java.nio.file.Paths;
import java.util.concurrent.TimeUnit;

/**
 * An app in a process of its own, for the tests that kill it: {@code record ENDPOINT FOLDER READERS
 * ARTICLES} records a view of every article for every reader (the first geometry) and prints {@code queued
 * N} once they are queued, then waits to be killed; {@code deliver ENDPOINT FOLDER} delivers the
 * queue an earlier run left in batches of 5 and prints {@code delivered} once it is empty.
 */
public final class ChildApp {
    private ChildApp() {}

    public static void main(String[] arguments) throws Exception {
        Configuration configuration = Support.testing(arguments[1], Paths.get(arguments[2]), null);
        configuration.maximumBatchSize = 5;
        try (Reporter reporter = new Reporter(configuration)) {
            if (arguments[0].equals("record")) {
                int readers = Integer.parseInt(arguments[3]);
                int articles = Integer.parseInt(arguments[4]);
                for (int reader = 0; reader < readers; reader++) {
                    reporter.setReader("child-" + reader);
                    for (int article = 0; article < articles; article++) {
                        reporter.record(Support.page(0), "/child/" + article);
                    }
                    // Each reader's views end before the next reader's begin.
                    for (int article = 0; article < articles; article++) reporter.endView("/child/" + article);
                }
                System.out.println("queued " + reporter.queuedEvents());
                System.out.flush();
                // Offline: the reporter retries until the test kills the process.
                TimeUnit.HOURS.sleep(1);
            } else {
                while (reporter.flush().get() > 0) {
                    TimeUnit.MILLISECONDS.sleep(20);
                }
                System.out.println("delivered");
                System.out.flush();
            }
        }
    }
}
