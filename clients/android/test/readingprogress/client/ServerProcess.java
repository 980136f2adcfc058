package readingprogress.client;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.HttpURLConnection;
import java.net.URL;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/** The real {@code reading-progress} executable, started on a free port with a store of its own. */
final class ServerProcess implements AutoCloseable {
    final Process process;
    final int port;
    private final Path stderr;

    /** The executable: {@code READING_PROGRESS_BIN}, else the debug build of the package. */
    static String executable() {
        String path = System.getenv("READING_PROGRESS_BIN");
        return path != null ? path : ".build/debug/reading-progress";
    }

    /** Starts the server with {@code store} (such as {@code memory:}) and waits for its listening line. */
    ServerProcess(String store, String... arguments) throws Exception {
        List<String> command = new ArrayList<>(Arrays.asList(executable(), "serve", "--port", "0", "--store", store,
                "--log-requests", "false"));
        command.addAll(Arrays.asList(arguments));
        stderr = Files.createTempFile("reading-progress-stderr", ".log");
        ProcessBuilder builder = new ProcessBuilder(command).redirectError(stderr.toFile())
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
        process = builder.start();
        BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
        String line;
        try {
            line = CompletableFuture.supplyAsync(() -> {
                try {
                    return out.readLine();
                } catch (IOException e) {
                    return null;
                }
            }).get(30, TimeUnit.SECONDS);
        } catch (Exception e) {
            line = null;
        }
        if (line == null || !line.startsWith("listening on http://")) {
            process.destroyForcibly().waitFor();
            throw new IllegalStateException("the server did not start: " + line + "\n" + standardError());
        }
        port = Integer.parseInt(line.substring(line.lastIndexOf(':') + 1).trim());
    }

    String standardError() throws IOException {
        return new String(Files.readAllBytes(stderr), StandardCharsets.UTF_8);
    }

    String url() {
        return "http://127.0.0.1:" + port;
    }

    /** SIGKILL: no chance to flush anything. */
    void kill() throws InterruptedException {
        process.destroyForcibly().waitFor();
    }

    /** SIGTERM, and the exit status. */
    @Override
    public void close() throws Exception {
        if (process.isAlive()) {
            process.destroy();
            if (!process.waitFor(30, TimeUnit.SECONDS)) process.destroyForcibly().waitFor();
        }
        Files.deleteIfExists(stderr);
    }

    /** A GET of {@code target}: its status and its JSON body (null when it has none). */
    Object[] get(String target) throws IOException {
        HttpURLConnection connection = (HttpURLConnection) new URL(url() + target).openConnection();
        connection.setConnectTimeout(10_000);
        connection.setReadTimeout(30_000);
        int status = connection.getResponseCode();
        java.io.InputStream stream = status >= 400 ? connection.getErrorStream() : connection.getInputStream();
        StringBuilder body = new StringBuilder();
        if (stream != null) {
            try (BufferedReader reader = new BufferedReader(new InputStreamReader(stream, StandardCharsets.UTF_8))) {
                char[] chunk = new char[4096];
                int count;
                while ((count = reader.read(chunk)) > 0) body.append(chunk, 0, count);
            }
        }
        return new Object[] {status, body.length() > 0 ? Json.parse(body.toString()) : null};
    }

    /** The statistics of {@code article}; null for an article the service never had an event for. */
    Map<?, ?> stats(String article) throws IOException {
        Object[] answer = get("/v1/articles/" + URLEncoder.encode(article, "UTF-8").replace("+", "%20") + "/stats");
        if ((int) answer[0] == 404) return null;
        if ((int) answer[0] != 200) throw new IllegalStateException("stats: " + answer[0] + " " + answer[1]);
        return (Map<?, ?>) answer[1];
    }

    /** The {@code events} count of {@code article}'s statistics, 0 when it has none. */
    int eventCount(String article) throws IOException {
        Map<?, ?> stats = stats(article);
        return stats == null ? 0 : ((Double) stats.get("events")).intValue();
    }

    /** The {@code events} count of every article, from one read of the listing. */
    Map<String, Integer> eventCounts() throws IOException {
        Object[] answer = get("/v1/articles?sort=article&limit=1000");
        if ((int) answer[0] != 200) throw new IllegalStateException("listing: " + answer[0] + " " + answer[1]);
        Map<String, Integer> counts = new HashMap<>();
        for (Object entry : (List<?>) ((Map<?, ?>) answer[1]).get("articles")) {
            Map<?, ?> row = (Map<?, ?>) entry;
            counts.put((String) row.get("article"), ((Double) row.get("events")).intValue());
        }
        return counts;
    }
}
