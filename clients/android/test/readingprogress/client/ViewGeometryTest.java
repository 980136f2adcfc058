package readingprogress.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** An Android scroll container's numbers, in pixels, as the glue hands them over. */
@DisplayName("Android view geometry")
class ViewGeometryTest {
    // A 1080 × 2000 px NestedScrollView with 100 px of padding above and 50 below, its child 9000 px
    // tall, at 2.625 px a dp: scrollY runs from 0 to 9000 + 100 + 50 − 2000 = 7150.
    private static ScrollSnapshot at(int scrollY, int bodyTop, int bodyBottom) {
        return ViewGeometry.ofScrollView(0, scrollY, 1080, 9000, 1080, 2000, 100, 50, 2.625f, bodyTop, bodyBottom);
    }

    @Test
    @DisplayName("scrollY from 0 to its maximum is progress from 0 to 1, padding and all")
    void progress() throws Exception {
        assertEquals(0.0, at(0, 0, 0).figures().progress);
        assertEquals(0.5, at(3575, 0, 0).figures().progress, 1e-12);
        assertEquals(1.0, at(7150, 0, 0).figures().progress);
        // At rest the visible 1850 px of 9000 have been seen.
        assertEquals(1850.0 / 9000, at(0, 0, 0).figures().seenDepth, 1e-12);
    }

    @Test
    @DisplayName("lengths in dp, and the article's own view as the region")
    void dpAndBody() throws Exception {
        ScrollSnapshot geometry = at(0, 1000, 8000);
        assertEquals(1080 / 2.625, geometry.containerSize.width, 1e-9);
        assertEquals(1000 / 2.625, geometry.region.start, 1e-9);
        // (0 + 1850 − 1000) / 7000 of the body is in view at rest.
        assertEquals(850.0 / 7000, geometry.figures().seenDepth, 1e-12);
        // A body reaching past the child is cut to it; an empty one is none.
        assertEquals(9000 / 2.625, at(0, 1000, 9500).region.end, 1e-9);
        assertNull(at(0, 500, 500).region);
    }
}
