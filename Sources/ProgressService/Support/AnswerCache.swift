import ProgressStore
import Synchronization

/// Rendered stats answers, kept while the article they describe has not changed.
///
/// Editors and dashboards ask the same question again and again; between two events on an
/// article the answer is the same bytes — and, to a request without `Origin`, the same
/// libmicrohttpd response, which the reply carries prepared (``Reply/prepared``) so that a hit
/// costs no allocation and no copy of the body. Each entry remembers the article's version (see
/// `ProgressStore.version(of:)`) from *before* it was computed, so an entry is never newer
/// than its label and a change always misses.
final class AnswerCache: Sendable {
    private struct Entry {
        var version: UInt64
        var reply: Reply
    }

    /// By exact bytes, as the store tells ids apart.
    private let entries = Mutex<[ExactKey: Entry]>([:])
    private let capacity: Int

    init(capacity: Int = 4096) {
        self.capacity = capacity
    }

    /// The answer stored under `key` for exactly `version`.
    func answer(for key: String, version: UInt64) -> Reply? {
        entries.withLock { entries in
            guard let entry = entries[ExactKey(key)], entry.version == version else { return nil }
            return entry.reply
        }
    }

    func store(_ reply: Reply, for key: String, version: UInt64) {
        entries.withLock { entries in
            // Crude but bounded: a full cache starts again rather than tracking recency.
            if entries.count >= capacity { entries.removeAll(keepingCapacity: true) }
            entries[ExactKey(key)] = Entry(version: version, reply: reply)
        }
    }
}
