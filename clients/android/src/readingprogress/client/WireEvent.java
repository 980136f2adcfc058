package readingprogress.client;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

/** One event as {@code POST /v1/events} takes it (docs/api.md), and as a queue file holds it. */
final class WireEvent {
    /** Fresh for every event: the service counts a repeat of it within 24 hours once. */
    final String id;
    /** Milliseconds since 1970, UTC. */
    final long time;
    final String article;

    private WireEvent(String id, long time, String article) {
        this.id = id;
        this.time = time;
        this.article = article;
    }

    /**
     * The JSON object of an event. {@code reader}, {@code device} and {@code source} are left out
     * when null (the service then derives a reader of its own).
     */
    static byte[] encode(String id, long time, String article, String reader, ScrollSnapshot snapshot,
            long engagedMs, DeviceClass device, String source) {
        StringBuilder out = new StringBuilder(320);
        out.append("{\"id\":");
        Json.appendString(out, id);
        out.append(",\"time\":").append(time);
        out.append(",\"article\":");
        Json.appendString(out, article);
        if (reader != null) {
            out.append(",\"reader\":");
            Json.appendString(out, reader);
        }
        out.append(",\"axis\":\"").append(snapshot.axis.wireName()).append('"');
        pair(out, "contentOffset", "x", snapshot.contentOffset.x, "y", snapshot.contentOffset.y);
        pair(out, "contentSize", "width", snapshot.contentSize.width, "height", snapshot.contentSize.height);
        pair(out, "containerSize", "width", snapshot.containerSize.width, "height", snapshot.containerSize.height);
        Insets insets = snapshot.contentInsets;
        out.append(",\"contentInsets\":{\"top\":");
        Json.appendNumber(out, insets.top);
        out.append(",\"leading\":");
        Json.appendNumber(out, insets.leading);
        out.append(",\"bottom\":");
        Json.appendNumber(out, insets.bottom);
        out.append(",\"trailing\":");
        Json.appendNumber(out, insets.trailing);
        out.append('}');
        if (snapshot.region != null) {
            pair(out, "region", "start", snapshot.region.start, "end", snapshot.region.end);
        }
        if (snapshot.step != null) {
            out.append(",\"step\":{\"index\":").append(snapshot.step.index).append(",\"total\":")
                    .append(snapshot.step.total).append('}');
        }
        if (snapshot.indicator != null) {
            pair(out, "indicator", "trackLength", snapshot.indicator.trackLength, "thumbLength",
                    snapshot.indicator.thumbLength);
        }
        out.append(",\"engagedMs\":").append(engagedMs);
        if (device != null) out.append(",\"device\":\"").append(device.wireName()).append('"');
        if (source != null) {
            out.append(",\"source\":");
            Json.appendString(out, source);
        }
        return out.append('}').toString().getBytes(StandardCharsets.UTF_8);
    }

    private static void pair(StringBuilder out, String name, String first, double a, String second, double b) {
        out.append(",\"").append(name).append("\":{\"").append(first).append("\":");
        Json.appendNumber(out, a);
        out.append(",\"").append(second).append("\":");
        Json.appendNumber(out, b);
        out.append('}');
    }

    /** The parts of a stored event the queue needs; throws when {@code data} is not one. */
    static WireEvent decode(byte[] data) {
        Object parsed = Json.parse(new String(data, StandardCharsets.UTF_8));
        if (!(parsed instanceof Map)) throw new IllegalArgumentException("not an event object");
        Map<?, ?> object = (Map<?, ?>) parsed;
        Object id = object.get("id");
        Object time = object.get("time");
        Object article = object.get("article");
        if (!(id instanceof String) || !(time instanceof Double) || !(article instanceof String)) {
            throw new IllegalArgumentException("an event without its id, time or article");
        }
        return new WireEvent((String) id, ((Double) time).longValue(), (String) article);
    }

    /** The body of one request: the events' JSON objects as a JSON array. */
    static byte[] batchBody(List<byte[]> objects) {
        int length = 2 + Math.max(0, objects.size() - 1);
        for (byte[] object : objects) length += object.length;
        byte[] body = new byte[length];
        int at = 0;
        body[at++] = '[';
        for (int i = 0; i < objects.size(); i++) {
            if (i > 0) body[at++] = ',';
            byte[] object = objects.get(i);
            System.arraycopy(object, 0, body, at, object.length);
            at += object.length;
        }
        body[at] = ']';
        return body;
    }
}
