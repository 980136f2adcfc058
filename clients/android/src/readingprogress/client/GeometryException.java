package readingprogress.client;

/**
 * Why a {@link ScrollSnapshot} cannot be turned into figures: the field to blame, as the API spells
 * it ({@code "contentSize.height"}, {@code "region"}), and a sentence naming the rule it breaks, the
 * same words the service would answer with.
 */
public final class GeometryException extends Exception {
    private static final long serialVersionUID = 1L;

    private final String field;

    /** Creates an error blaming {@code field}. */
    public GeometryException(String field, String message) {
        super(message);
        this.field = field;
    }

    /** The JSON path of the field to blame. */
    public String field() {
        return field;
    }

    static GeometryException notFinite(String field) {
        return new GeometryException(field, field + " must be a finite number");
    }

    static GeometryException negative(String field) {
        return new GeometryException(field, field + " must be ≥ 0");
    }

    static GeometryException outsideContent(String field, double contentLength) {
        return new GeometryException(field,
                field + " must lie within the content (0 ≤ start < end ≤ " + plainText(contentLength) + ")");
    }

    static GeometryException emptyRegion(double contentLength) {
        return new GeometryException("region",
                "region must not be empty (0 ≤ start < end ≤ " + plainText(contentLength) + ")");
    }

    /** A non-negative number as a person would write it: {@code 1200}, not {@code 1200.0}. */
    static String plainText(double value) {
        if (value < 0x1p53 && value == Math.rint(value)) return Long.toString((long) value);
        return Double.toString(value);
    }
}
