package readingprogress.client;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * {@link EventStorage} in a folder: a file per event ({@code NAME.event}), written to
 * {@code NAME.partial} and renamed into place, so that a kill mid-write leaves no half event. Files
 * are not synced to the device: they survive the app being killed (the kernel has them), not a
 * power cut in the second after.
 */
public final class DirectoryStorage implements EventStorage {
    private static final String SUFFIX = ".event";
    private static final String PARTIAL_SUFFIX = ".partial";

    private final Path directory;

    /** Creates the storage; nothing touches the disk until the reporter first needs it. */
    public DirectoryStorage(Path directory) {
        this.directory = directory;
    }

    /** The folder, created when first needed. */
    public Path directory() {
        return directory;
    }

    @Override
    public List<StoredEvent> loadAll() throws IOException {
        Files.createDirectories(directory);
        List<String> names = new ArrayList<>();
        try (DirectoryStream<Path> files = Files.newDirectoryStream(directory)) {
            for (Path file : files) names.add(file.getFileName().toString());
        }
        Collections.sort(names);
        List<StoredEvent> events = new ArrayList<>();
        for (String name : names) {
            Path file = directory.resolve(name);
            if (name.endsWith(PARTIAL_SUFFIX)) {
                // Never renamed into place, so never queued.
                Files.deleteIfExists(file);
            } else if (name.endsWith(SUFFIX)) {
                byte[] data;
                try {
                    data = Files.readAllBytes(file);
                } catch (IOException unreadable) {
                    // Comes back empty: the reporter drops it and says so, rather than leave the rest
                    // of the queue unloaded.
                    data = new byte[0];
                }
                events.add(new StoredEvent(name.substring(0, name.length() - SUFFIX.length()), data));
            }
        }
        return events;
    }

    @Override
    public void write(byte[] data, String name) throws IOException {
        Path partial = directory.resolve(name + PARTIAL_SUFFIX);
        try {
            writePartial(partial, data);
        } catch (NoSuchFileException gone) {
            // The folder may have been removed under the app (its data cleared, a restored backup).
            Files.createDirectories(directory);
            writePartial(partial, data);
        }
        try {
            Files.move(partial, directory.resolve(name + SUFFIX), StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException failed) {
            deleteQuietly(partial, failed);
            throw failed;
        }
    }

    private static void writePartial(Path partial, byte[] data) throws IOException {
        try {
            Files.write(partial, data);
        } catch (IOException failed) {
            // A full disk: what was written of it would only take the space the next event needs.
            deleteQuietly(partial, failed);
            throw failed;
        }
    }

    /** Removes a partial file after {@code cause}, to which a failure to remove it is added. */
    private static void deleteQuietly(Path partial, IOException cause) {
        try {
            Files.deleteIfExists(partial);
        } catch (IOException alsoFailed) {
            cause.addSuppressed(alsoFailed);
        }
    }

    @Override
    public void remove(List<String> names) throws IOException {
        for (String name : names) Files.deleteIfExists(directory.resolve(name + SUFFIX));
    }
}
