package readingprogress.client;

import java.io.IOException;
import java.net.URL;

/**
 * How a {@link Reporter} reaches the service: one {@code POST} of a JSON body, its answer whatever
 * its status, or an {@link IOException} when no answer came. {@link HttpTransport} by default; an
 * app may put its own HTTP stack behind it.
 */
public interface Transport {
    /**
     * Posts {@code body} ({@code Content-Type: application/json}) to {@code url} and returns the
     * answer; throws when the connection failed or no answer came within {@code timeoutMillis}.
     * Called on the reporter's delivery thread, one request at a time.
     */
    TransportResponse post(byte[] body, URL url, int timeoutMillis) throws IOException;
}
