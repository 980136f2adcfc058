package readingprogress.client;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/** {@link ChildApp} in a JVM of its own, which the test can kill with SIGKILL. */
final class ChildProcess implements AutoCloseable {
    private final Process process;
    private final Path stderr;
    private final BlockingQueue<String> lines = new LinkedBlockingQueue<>();

    ChildProcess(String... arguments) throws IOException {
        List<String> command = new ArrayList<>(Arrays.asList(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xshare:auto",
                "-XX:TieredStopAtLevel=1", "-cp", System.getProperty("java.class.path"), ChildApp.class.getName()));
        command.addAll(Arrays.asList(arguments));
        stderr = Files.createTempFile("reading-progress-child", ".log");
        process = new ProcessBuilder(command).redirectError(stderr.toFile())
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null"))).start();
        Thread reader = new Thread(() -> {
            try (BufferedReader out = new BufferedReader(
                    new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                String line;
                while ((line = out.readLine()) != null) lines.add(line);
            } catch (IOException ended) {
                // The process is gone; what it printed is in the queue.
            }
        }, "child-stdout");
        reader.setDaemon(true);
        reader.start();
    }

    /** The next line the app prints, within a minute. */
    String nextLine() throws Exception {
        String line = lines.poll(60, TimeUnit.SECONDS);
        if (line == null) throw new AssertionError("the app printed nothing; its standard error:\n" + standardError());
        return line;
    }

    boolean isAlive() {
        return process.isAlive();
    }

    /** SIGKILL, as the system kills an app: no shutdown hook, no flush. */
    void kill() throws InterruptedException {
        process.destroyForcibly().waitFor();
    }

    int waitForExit() throws InterruptedException {
        if (!process.waitFor(60, TimeUnit.SECONDS)) throw new AssertionError("the app did not exit");
        return process.exitValue();
    }

    String standardError() throws IOException {
        return new String(Files.readAllBytes(stderr), StandardCharsets.UTF_8);
    }

    @Override
    public void close() throws Exception {
        kill();
        Files.deleteIfExists(stderr);
    }
}
