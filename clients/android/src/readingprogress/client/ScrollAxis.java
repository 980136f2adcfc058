package readingprogress.client;

/**
 * The direction a scroll view scrolls in, and so which half of each point, size and inset counts
 * (docs/api.md, "The figures"). Every figure is measured along this axis only.
 */
public enum ScrollAxis {
    /** Reads {@code y}, {@code height} and the top and bottom insets: an article scrolled down. */
    VERTICAL("vertical"),
    /** Reads {@code x}, {@code width} and the leading and trailing insets: a carousel. */
    HORIZONTAL("horizontal");

    private final String wireName;

    ScrollAxis(String wireName) {
        this.wireName = wireName;
    }

    /** The name the API spells: {@code "vertical"} or {@code "horizontal"}. */
    public String wireName() {
        return wireName;
    }

    /** The axis the API calls {@code name}, or null for any other name. */
    public static ScrollAxis fromWireName(String name) {
        for (ScrollAxis axis : values()) {
            if (axis.wireName.equals(name)) return axis;
        }
        return null;
    }
}
