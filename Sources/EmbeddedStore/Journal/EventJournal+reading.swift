import Foundation
import ProgressStore

/// Reading the journal back: start-up replay and readers that follow it.
extension EventJournal {
    /// A cursor at the start of the journal.
    var start: Cursor {
        lock.withLock { Cursor(segment: segments.first?.firstSeq ?? nextSeq, offset: 0) }
    }

    /// Reads up to `maxEntries` whole entries from `cursor` on, moving it past them; moves on
    /// to the next segment when one is read to its end and a newer one exists. The reading
    /// itself runs outside `lock` on the segment's descriptor: only while nothing removes
    /// segments (start-up before the checkpointer starts, or an instance opened `readOnly`) —
    /// ``removeSegments(foldedThrough:)`` closes descriptors a read might still use.
    func read(from cursor: inout Cursor, maxEntries: Int) throws(StoreError) -> [Entry] {
        var entries: [Entry] = []
        while entries.count < maxEntries {
            let found: (fd: Int32, end: Int64, next: Int64?)? = lock.withLock {
                guard let position = segments.firstIndex(where: { $0.firstSeq >= cursor.segment }) else {
                    return nil
                }
                let segment = segments[position]
                if segment.firstSeq != cursor.segment {
                    cursor = Cursor(segment: segment.firstSeq, offset: 0)
                }
                let next = position + 1 < segments.count ? segments[position + 1].firstSeq : nil
                return (segment.fd, segment.end, next)
            }
            guard let found else { break }
            if cursor.offset >= found.end {
                guard let next = found.next else { break }
                cursor = Cursor(segment: next, offset: 0)
                continue
            }
            let chunk = try readEntries(
                fd: found.fd, from: cursor.offset, to: found.end, maxEntries: maxEntries - entries.count)
            entries += chunk.entries
            cursor.offset = chunk.offset
        }
        return entries
    }

    /// Every entry after `seq`, in order (start-up replay). Segments whose entries all come
    /// before it are not read.
    func entries(after seq: Int64, _ body: (Entry) throws(StoreError) -> Void) throws(StoreError) {
        var cursor = lock.withLock {
            // The last segment beginning at or before the first entry wanted.
            let first = segments.last(where: { $0.firstSeq <= seq + 1 }) ?? segments.first
            return Cursor(segment: first?.firstSeq ?? nextSeq, offset: 0)
        }
        while true {
            let batch = try read(from: &cursor, maxEntries: 256)
            if batch.isEmpty { return }
            for entry in batch where entry.seq > seq { try body(entry) }
        }
    }
}
