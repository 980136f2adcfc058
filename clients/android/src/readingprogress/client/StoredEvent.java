package readingprogress.client;

/** One stored entry of an {@link EventStorage}: its name and its bytes (one event's JSON object). */
public final class StoredEvent {
    /** The name it was written under. */
    public final String name;
    /** The bytes written. */
    public final byte[] data;

    /** Creates an entry. */
    public StoredEvent(String name, byte[] data) {
        this.name = name;
        this.data = data;
    }
}
