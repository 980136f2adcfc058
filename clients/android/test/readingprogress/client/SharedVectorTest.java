package readingprogress.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * The figures on the device held to the same hand-worked vectors as ProgressCore's:
 * {@code Tests/Vectors/progress.json} ({@code READING_PROGRESS_VECTORS} names another copy).
 */
@DisplayName("The shared vectors (Tests/Vectors/progress.json)")
class SharedVectorTest {
    static Map<?, ?> file() throws Exception {
        String path = System.getenv().getOrDefault("READING_PROGRESS_VECTORS", "Tests/Vectors/progress.json");
        return (Map<?, ?>) Json.parse(new String(Files.readAllBytes(Paths.get(path)), StandardCharsets.UTF_8));
    }

    @TestFactory
    @DisplayName("figures")
    List<DynamicTest> figures() throws Exception {
        List<DynamicTest> tests = new ArrayList<>();
        List<?> cases = (List<?>) file().get("figures");
        assertTrue(cases.size() >= 100, "the file holds the table");
        for (Object entry : cases) {
            Map<?, ?> row = (Map<?, ?>) entry;
            tests.add(DynamicTest.dynamicTest((String) row.get("name"), () -> check(row)));
        }
        return tests;
    }

    @TestFactory
    @DisplayName("errors")
    List<DynamicTest> errors() throws Exception {
        List<DynamicTest> tests = new ArrayList<>();
        List<?> cases = (List<?>) file().get("errors");
        assertTrue(cases.size() >= 20, "the file holds the table");
        for (Object entry : cases) {
            Map<?, ?> row = (Map<?, ?>) entry;
            tests.add(DynamicTest.dynamicTest((String) row.get("name"), () -> {
                Map<?, ?> error = (Map<?, ?>) row.get("error");
                GeometryException thrown = assertThrows(GeometryException.class,
                        () -> geometry((Map<?, ?>) row.get("geometry")).figures());
                assertEquals(error.get("field"), thrown.field());
                assertEquals(error.get("message"), thrown.getMessage());
            }));
        }
        return tests;
    }

    private static void check(Map<?, ?> row) throws Exception {
        ProgressFigures figures = geometry((Map<?, ?>) row.get("geometry")).figures();
        Map<?, ?> expected = (Map<?, ?>) row.get("expected");
        if (expected.containsKey("scrollable")) assertEquals(expected.get("scrollable"), figures.scrollable);
        if (expected.containsKey("progress")) close(expected.get("progress"), figures.progress, "progress");
        if (expected.containsKey("percent")) assertEquals(expected.get("percent"), figures.percent());
        if (expected.containsKey("seenDepth")) close(expected.get("seenDepth"), figures.seenDepth, "seenDepth");
        if (expected.containsKey("indicatorOffset")) {
            Object offset = expected.get("indicatorOffset");
            if (offset == null) {
                assertNull(figures.indicatorOffset, "indicatorOffset");
            } else {
                assertNotNull(figures.indicatorOffset, "indicatorOffset");
                close(offset, figures.indicatorOffset, "indicatorOffset");
            }
        }
        if (expected.containsKey("step")) {
            Map<?, ?> step = (Map<?, ?>) expected.get("step");
            if (step == null) {
                assertNull(figures.step, "step");
            } else {
                assertNotNull(figures.step, "step");
                if (step.containsKey("progress")) close(step.get("progress"), figures.step.progress, "step.progress");
                if (step.containsKey("visible")) assertEquals(step.get("visible"), figures.step.visible);
                if (step.containsKey("barOffset")) close(step.get("barOffset"), figures.step.barOffset, "barOffset");
                if (step.containsKey("barOpacity")) close(step.get("barOpacity"), figures.step.barOpacity, "barOpacity");
            }
        }
        List<Double> numbers = new ArrayList<>();
        numbers.add(figures.progress);
        numbers.add(figures.seenDepth);
        if (figures.indicatorOffset != null) numbers.add(figures.indicatorOffset);
        if (figures.step != null) {
            numbers.add(figures.step.progress);
            numbers.add(figures.step.barOffset);
            numbers.add(figures.step.barOpacity);
        }
        for (double number : numbers) {
            assertTrue(Double.isFinite(number), "finite: " + numbers);
            assertTrue(Double.doubleToRawLongBits(number) != Double.doubleToRawLongBits(-0.0), "no -0: " + numbers);
        }
    }

    /** Within 1e-9 of the larger magnitude; exact at 0. */
    private static void close(Object expected, double actual, String what) {
        double wanted = (Double) expected;
        assertTrue(actual == wanted || Math.abs(actual - wanted) <= 1e-9 * Math.max(Math.abs(actual), Math.abs(wanted)),
                what + ": " + actual + ", expected " + wanted);
    }

    static ScrollSnapshot geometry(Map<?, ?> json) {
        ScrollSnapshot.Builder builder = ScrollSnapshot.builder()
                .axis(ScrollAxis.fromWireName((String) json.get("axis")));
        Map<?, ?> offset = (Map<?, ?>) json.get("contentOffset");
        builder.contentOffset(number(offset.get("x")), number(offset.get("y")));
        Map<?, ?> content = (Map<?, ?>) json.get("contentSize");
        builder.contentSize(number(content.get("width")), number(content.get("height")));
        Map<?, ?> container = (Map<?, ?>) json.get("containerSize");
        builder.containerSize(number(container.get("width")), number(container.get("height")));
        Map<?, ?> insets = (Map<?, ?>) json.get("contentInsets");
        builder.contentInsets(number(insets.get("top")), number(insets.get("leading")), number(insets.get("bottom")),
                number(insets.get("trailing")));
        Map<?, ?> region = (Map<?, ?>) json.get("region");
        if (region != null) builder.region(new Region(number(region.get("start")), number(region.get("end"))));
        Map<?, ?> step = (Map<?, ?>) json.get("step");
        if (step != null) builder.step(new Step((int) number(step.get("index")), (int) number(step.get("total"))));
        Map<?, ?> indicator = (Map<?, ?>) json.get("indicator");
        if (indicator != null) {
            builder.indicator(new Indicator(number(indicator.get("trackLength")), number(indicator.get("thumbLength"))));
        }
        return builder.build();
    }

    /** A number of the file: a JSON number, or "NaN", "Infinity", "-Infinity". */
    private static double number(Object value) {
        if (value instanceof Double) return (Double) value;
        switch ((String) value) {
            case "NaN":
                return Double.NaN;
            case "Infinity":
                return Double.POSITIVE_INFINITY;
            case "-Infinity":
                return Double.NEGATIVE_INFINITY;
            default:
                throw new IllegalArgumentException("not a number: " + value);
        }
    }
}
