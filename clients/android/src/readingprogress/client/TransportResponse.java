package readingprogress.client;

import java.util.Collections;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;

/** An HTTP answer as a {@link Reporter} reads it. */
public final class TransportResponse {
    /** The status code, such as 202. */
    public final int status;
    /** The body, as received. */
    public final byte[] body;
    private final Map<String, String> headers;

    /** Creates an answer; header names are compared without regard to case. */
    public TransportResponse(int status, Map<String, String> headers, byte[] body) {
        this.status = status;
        this.body = body != null ? body : new byte[0];
        Map<String, String> lowered = new HashMap<>();
        if (headers != null) {
            for (Map.Entry<String, String> header : headers.entrySet()) {
                if (header.getKey() == null) continue;
                lowered.putIfAbsent(header.getKey().toLowerCase(Locale.ROOT), header.getValue());
            }
        }
        this.headers = Collections.unmodifiableMap(lowered);
    }

    /** The value of header field {@code name}, whatever its case; null when absent. */
    public String header(String name) {
        return headers.get(name.toLowerCase(Locale.ROOT));
    }
}
