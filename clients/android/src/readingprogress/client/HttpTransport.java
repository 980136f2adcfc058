package readingprogress.client;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.HttpURLConnection;
import java.net.URL;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * {@link Transport} over {@link HttpURLConnection}: no caches, no cookies, a fixed-length body (so
 * that the connection never resends a request by itself: the reporter decides what is sent again).
 * {@code timeoutMillis} bounds the connect and each read.
 */
public final class HttpTransport implements Transport {
    /** The largest answer read; the service's answers to a batch are far smaller. */
    private static final int MAXIMUM_ANSWER_BYTES = 1 << 20;

    @Override
    public TransportResponse post(byte[] body, URL url, int timeoutMillis) throws IOException {
        HttpURLConnection connection = (HttpURLConnection) url.openConnection();
        try {
            connection.setRequestMethod("POST");
            connection.setConnectTimeout(timeoutMillis);
            connection.setReadTimeout(timeoutMillis);
            connection.setUseCaches(false);
            connection.setInstanceFollowRedirects(false);
            connection.setDoOutput(true);
            connection.setFixedLengthStreamingMode(body.length);
            connection.setRequestProperty("Content-Type", "application/json");
            connection.setRequestProperty("Accept", "application/json");
            try (OutputStream out = connection.getOutputStream()) {
                out.write(body);
            } catch (IOException cutOff) {
                // A service refusing a body too large (413) may answer and close before it has all
                // of it: the answer, when there is one, says more than the broken write.
                try {
                    connection.getResponseCode();
                } catch (IOException noAnswer) {
                    cutOff.addSuppressed(noAnswer);
                    throw cutOff;
                }
            }
            int status = connection.getResponseCode();
            Map<String, String> headers = new HashMap<>();
            for (Map.Entry<String, List<String>> field : connection.getHeaderFields().entrySet()) {
                if (field.getKey() != null && !field.getValue().isEmpty()) {
                    headers.put(field.getKey(), field.getValue().get(0));
                }
            }
            InputStream answer = status >= 400 ? connection.getErrorStream() : connection.getInputStream();
            return new TransportResponse(status, headers, answer == null ? new byte[0] : readAll(answer));
        } finally {
            connection.disconnect();
        }
    }

    private static byte[] readAll(InputStream in) throws IOException {
        try (InputStream stream = in) {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            byte[] chunk = new byte[8192];
            int count;
            while ((count = stream.read(chunk)) > 0) {
                out.write(chunk, 0, count);
                if (out.size() > MAXIMUM_ANSWER_BYTES) throw new IOException("the answer is over 1 MiB");
            }
            return out.toByteArray();
        }
    }
}
