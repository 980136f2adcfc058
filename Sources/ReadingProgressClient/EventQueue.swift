import Foundation

/// The reporter's copy of its queue: what its storage holds (or, for entries it could not
/// write, would hold), oldest first.
struct EventQueue {
    /// One queued event.
    struct Entry: Equatable {
        /// Its name in the storage, which sorts in queue order.
        var name: String
        var id: String
        var article: String
        var time: Date
        /// The event's JSON object, as stored and as sent.
        var data: Data
    }

    private(set) var entries: [Entry] = []
    private var nextSequence: UInt64 = 0
    private var nextUnsaved = 0

    var count: Int { entries.count }
    var isEmpty: Bool { entries.isEmpty }

    /// A new name, after every name queued or loaded so far.
    mutating func makeName() -> String {
        defer { nextSequence += 1 }
        let digits = String(nextSequence)
        return String(repeating: "0", count: max(0, 20 - digits.count)) + digits
    }

    /// A name for an entry that is not stored, unlike any stored entry's (those are digits only).
    mutating func makeUnsavedName() -> String {
        defer { nextUnsaved += 1 }
        return "unsaved-\(nextUnsaved)"
    }

    /// Removes and returns every entry.
    mutating func removeAll() -> [Entry] {
        defer { entries = [] }
        return entries
    }

    /// Appends a loaded or new entry; later names continue after its name.
    mutating func append(_ entry: Entry) {
        entries.append(entry)
        if let sequence = UInt64(entry.name), sequence >= nextSequence { nextSequence = sequence + 1 }
    }

    /// The oldest `limit` entries.
    func oldest(_ limit: Int) -> [Entry] { Array(entries.prefix(max(limit, 1))) }

    func contains(_ name: String) -> Bool { entries.contains { $0.name == name } }

    /// Removes the entries named and returns those that were there.
    mutating func remove(_ names: Set<String>) -> [Entry] {
        let removed = entries.filter { names.contains($0.name) }
        entries.removeAll { names.contains($0.name) }
        return removed
    }

    /// The oldest entries beyond `bound`, skipping those in `busy` while others remain.
    func overflow(bound: Int, busy: Set<String>) -> [Entry] {
        let excess = entries.count - max(bound, 1)
        guard excess > 0 else { return [] }
        let idle = entries.filter { !busy.contains($0.name) }
        return Array((idle.count >= excess ? idle : entries).prefix(excess))
    }

    /// The entries that happened before `limit`, except those in `busy`.
    func older(than limit: Date, busy: Set<String>) -> [Entry] {
        entries.filter { $0.time < limit && !busy.contains($0.name) }
    }
}
