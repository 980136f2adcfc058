import ProgressStore
import Synchronization

/// Rendered stats answers, kept while the article they describe has not changed.
///
/// Editors and dashboards ask the same question again and again; between two events on an
/// article the answer is the same bytes — and, to a request without `Origin`, the same
/// libmicrohttpd response, which the reply carries prepared (``Reply/prepared``) so that a hit
/// costs no allocation and no copy of the body. Each entry remembers the article's version (see
/// `ProgressStore.version(of:)`) from *before* it was computed, so an entry is never newer
/// than its label and a change always misses. Entries are found by the request as spelled, so
/// that a hit needs no percent-decoding; two spellings of one article are two entries.
final class AnswerCache: Sendable {
    struct Entry {
        /// The article the answer describes, decoded.
        var article: String
        var version: UInt64
        var reply: Reply
    }

    /// By the request's exact bytes (its spelling of the article, and the query).
    private let entries = Mutex<[ExactKey: Entry]>([:])
    private let capacity: Int

    init(capacity: Int = 4096) {
        self.capacity = capacity
    }

    /// The answer kept under `key`; it holds while its article's version is still `version`.
    func entry(for key: String) -> Entry? {
        entries.withLock { $0[ExactKey(key)] }
    }

    func store(_ reply: Reply, article: String, version: UInt64, for key: String) {
        entries.withLock { entries in
            // Crude but bounded: a full cache starts again rather than tracking recency.
            if entries.count >= capacity { entries.removeAll(keepingCapacity: true) }
            entries[ExactKey(key)] = Entry(article: article, version: version, reply: reply)
        }
    }

    /// Forgets every answer: after an erasure, no answer about erased data stays in memory.
    func removeAll() {
        entries.withLock { $0.removeAll() }
    }
}
