package readingprogress.client;

/**
 * The device class events may carry as {@code device}, for statistics by device; a service that
 * does not segment readers ignores the field, as it ignores every field it does not know.
 */
public enum DeviceClass {
    /** A phone. */
    PHONE("phone"),
    /** A tablet. */
    TABLET("tablet"),
    /** A desktop or laptop. */
    DESKTOP("desktop"),
    /** Anything else: a television, a car, a watch. */
    OTHER("other");

    private final String wireName;

    DeviceClass(String wireName) {
        this.wireName = wireName;
    }

    /** The name the API spells, such as {@code "phone"}. */
    public String wireName() {
        return wireName;
    }
}
