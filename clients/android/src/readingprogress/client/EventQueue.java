package readingprogress.client;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Iterator;
import java.util.List;
import java.util.Set;

/**
 * The reporter's copy of its queue: what its storage holds (or, for entries it could not write,
 * would hold), oldest first.
 */
final class EventQueue {
    /** One queued event. */
    static final class Entry {
        /** Its name in the storage, which sorts in queue order. */
        final String name;
        final String id;
        final String article;
        final long time;
        /** The event's JSON object, as stored and as sent. */
        final byte[] data;

        Entry(String name, String id, String article, long time, byte[] data) {
            this.name = name;
            this.id = id;
            this.article = article;
            this.time = time;
            this.data = data;
        }
    }

    private final List<Entry> entries = new ArrayList<>();
    private long nextSequence;
    /**
     * Ends this queue's new names: two reporters given one folder by mistake (two processes of an
     * app) at least write under different names.
     */
    private final String tag = String.format("%08x", java.util.concurrent.ThreadLocalRandom.current().nextInt());

    int size() {
        return entries.size();
    }

    boolean isEmpty() {
        return entries.isEmpty();
    }

    /** A new name, sorting after every name queued or loaded so far: twenty digits and the tag. */
    String makeName() {
        String digits = Long.toString(nextSequence++);
        StringBuilder name = new StringBuilder(29);
        for (int i = digits.length(); i < 20; i++) name.append('0');
        return name.append(digits).append('-').append(tag).toString();
    }

    /** Appends a loaded or new entry; later names continue after its name. */
    void append(Entry entry) {
        entries.add(entry);
        int dash = entry.name.indexOf('-');
        try {
            long sequence = Long.parseLong(dash < 0 ? entry.name : entry.name.substring(0, dash));
            if (sequence >= nextSequence) nextSequence = sequence + 1;
        } catch (NumberFormatException otherName) {
            // A name this client did not make; the sequence goes on from the names it did.
        }
    }

    /** The oldest {@code limit} entries. */
    List<Entry> oldest(int limit) {
        return new ArrayList<>(entries.subList(0, Math.min(entries.size(), Math.max(limit, 1))));
    }

    /** Removes the entries named and returns those that were there. */
    List<Entry> remove(Collection<String> names) {
        List<Entry> removed = new ArrayList<>();
        for (Iterator<Entry> it = entries.iterator(); it.hasNext();) {
            Entry entry = it.next();
            if (names.contains(entry.name)) {
                removed.add(entry);
                it.remove();
            }
        }
        return removed;
    }

    /** The oldest entries beyond {@code bound}, skipping those in {@code busy} while others remain. */
    List<Entry> overflow(int bound, Set<String> busy) {
        int excess = entries.size() - Math.max(bound, 1);
        if (excess <= 0) return new ArrayList<>();
        List<Entry> idle = new ArrayList<>();
        for (Entry entry : entries) {
            if (!busy.contains(entry.name)) idle.add(entry);
        }
        List<Entry> from = idle.size() >= excess ? idle : entries;
        return new ArrayList<>(from.subList(0, excess));
    }

    /** The entries that happened before {@code limitMillis}, except those in {@code busy}. */
    List<Entry> olderThan(long limitMillis, Set<String> busy) {
        List<Entry> old = new ArrayList<>();
        for (Entry entry : entries) {
            if (entry.time < limitMillis && !busy.contains(entry.name)) old.add(entry);
        }
        return old;
    }
}
