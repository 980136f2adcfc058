package readingprogress.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** Events as the service takes them and the queue's files hold them. */
@DisplayName("Events on the wire")
class WireEventTest {
    private static Map<?, ?> encoded(String reader, DeviceClass device, String source) {
        ScrollSnapshot geometry = ScrollSnapshot.builder().axis(ScrollAxis.HORIZONTAL).contentOffset(200.5, 0)
                .contentSize(1200, 300).containerSize(400, 300).region(new Region(0, 1000)).step(new Step(1, 3))
                .indicator(new Indicator(90, 40)).build();
        byte[] data = WireEvent.encode("e-1", 1_764_547_200_123L, "/carousel/\u0001new", reader, geometry, 1500, device,
                source);
        String text = new String(data, StandardCharsets.UTF_8);
        assertTrue(text.contains("\"/carousel/\\u0001new\""), text);
        return (Map<?, ?>) Json.parse(text);
    }

    @Test
    @DisplayName("every field of the geometry, the id, time and engaged time; reader, device and source only when given")
    void fields() {
        Map<?, ?> event = encoded("r-1", DeviceClass.TABLET, "news.example.com");
        assertEquals("e-1", event.get("id"));
        assertEquals(1_764_547_200_123.0, event.get("time"));
        assertEquals("r-1", event.get("reader"));
        assertEquals("horizontal", event.get("axis"));
        assertEquals(200.5, ((Map<?, ?>) event.get("contentOffset")).get("x"));
        assertEquals(1000.0, ((Map<?, ?>) event.get("region")).get("end"));
        assertEquals(3.0, ((Map<?, ?>) event.get("step")).get("total"));
        assertEquals(40.0, ((Map<?, ?>) event.get("indicator")).get("thumbLength"));
        assertEquals(1500.0, event.get("engagedMs"));
        assertEquals("tablet", event.get("device"));
        assertEquals("news.example.com", event.get("source"));
        Map<?, ?> bare = encoded(null, null, null);
        for (String absent : Arrays.asList("reader", "device", "source")) assertFalse(bare.containsKey(absent), absent);
    }

    @Test
    @DisplayName("a queue file read back: its id, time and article; anything else is unreadable")
    void decoded() {
        ScrollSnapshot geometry = Support.page(0);
        WireEvent event = WireEvent.decode(WireEvent.encode("e-2", 42, "/a/b", null, geometry, 0, null, null));
        assertEquals("e-2", event.id);
        assertEquals(42, event.time);
        assertEquals("/a/b", event.article);
        for (String bad : Arrays.asList("", "{\"id\":", "[]", "{\"id\":\"x\",\"article\":\"/a\"}")) {
            assertThrows(IllegalArgumentException.class, () -> WireEvent.decode(bad.getBytes(StandardCharsets.UTF_8)));
        }
        byte[] body = WireEvent.batchBody(List.of("{\"a\":1}".getBytes(StandardCharsets.UTF_8),
                "{\"b\":2}".getBytes(StandardCharsets.UTF_8)));
        assertEquals("[{\"a\":1},{\"b\":2}]", new String(body, StandardCharsets.UTF_8));
    }

    @Test
    @DisplayName("device and source are sent to the service, which takes the events")
    void deviceAndSource() throws Exception {
        try (Rig rig = new Rig(new String[0], configuration -> {
            configuration.device = DeviceClass.PHONE;
            configuration.source = "news.example.com";
        })) {
            rig.reporter.record(Support.page(0), "/segmented");
            assertEquals(0, (int) rig.reporter.flush().get());
            assertEquals(1, rig.server.eventCount("/segmented"));
            assertTrue(rig.log.of(DeliveryReport.Kind.REJECTED).isEmpty());
        }
        Configuration bad = Support.testing("http://127.0.0.1:1", java.nio.file.Paths.get("unused"), null);
        bad.source = "line\nbreak";
        // Refused before anything touches the folder.
        assertThrows(IllegalArgumentException.class, () -> new Reporter(bad).close());
    }
}
