package readingprogress.client;

import java.io.IOException;
import java.util.List;

/**
 * Where a {@link Reporter} keeps the events it has not delivered yet, so that they survive the app
 * being killed: one entry per event, named by the reporter in the order it queued them. Only the
 * reporter's own thread calls it, one call at a time; one storage (one folder) belongs to one
 * reporter at a time. {@link DirectoryStorage} by default.
 */
public interface EventStorage {
    /** Every stored entry, sorted by name; leftovers of writes that never finished are removed. */
    List<StoredEvent> loadAll() throws IOException;

    /** Stores {@code data} under {@code name} so that a kill at any moment leaves the whole entry or none. */
    void write(byte[] data, String name) throws IOException;

    /** Removes the entries named; a name that is not there is no error. */
    void remove(List<String> names) throws IOException;
}
