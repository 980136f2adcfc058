public import Foundation

/// Where a ``Reporter`` keeps the events it has not delivered yet, so that they survive the app
/// being killed: one entry per event, named by the reporter in the order it queued them.
///
/// Only the reporter's own actor calls it, never the main actor, and one at a time; one
/// storage (one folder) belongs to one reporter at a time. ``DirectoryStorage`` in an app; a test
/// wraps it to watch the calls or to make writes fail.
public protocol EventStorage: Sendable {
    /// Every stored entry, sorted by name; leftovers of writes that never finished are removed.
    func loadAll() throws -> [StoredEvent]
    /// Stores `data` under `name` so that a kill at any moment leaves either the whole entry or
    /// none of it.
    func write(_ data: Data, name: String) throws
    /// Removes the entries named; a name that is not there is no error.
    func remove(_ names: [String]) throws
}

/// One stored entry: its name and its bytes (one event's JSON object).
public struct StoredEvent: Sendable, Hashable {
    /// The name it was written under.
    public var name: String
    /// The bytes written.
    public var data: Data

    /// Creates an entry.
    public init(name: String, data: Data) {
        self.name = name
        self.data = data
    }
}

/// ``EventStorage`` in a folder: a file per event, written to a temporary name and renamed into
/// place, so that a kill mid-write leaves no half event. Files are not `fsync`ed: they survive
/// the app being killed (the kernel has them), not a power cut in the second after.
public struct DirectoryStorage: EventStorage {
    /// The folder, created when first needed.
    public let directory: URL

    private static let suffix = ".event"
    private static let temporarySuffix = ".partial"

    /// Creates the storage; nothing touches the disk until the reporter first needs it.
    public init(directory: URL) {
        self.directory = directory
    }

    public func loadAll() throws -> [StoredEvent] {
        let files = FileManager.default
        try files.createDirectory(at: directory, withIntermediateDirectories: true)
        var events: [StoredEvent] = []
        for name in try files.contentsOfDirectory(atPath: directory.path).sorted() {
            let url = directory.appendingPathComponent(name)
            if name.hasSuffix(Self.temporarySuffix) {
                // Never renamed into place, so never queued: one that stays is only tried again.
                try? files.removeItem(at: url)
            } else if name.hasSuffix(Self.suffix) {
                // A file that cannot be read comes back empty: the reporter drops it and says so,
                // rather than leave the rest of the queue unloaded.
                let data = (try? Data(contentsOf: url)) ?? Data()
                events.append(StoredEvent(name: String(name.dropLast(Self.suffix.count)), data: data))
            }
        }
        return events
    }

    public func write(_ data: Data, name: String) throws {
        let final = directory.appendingPathComponent(name + Self.suffix)
        let partial = directory.appendingPathComponent(name + Self.temporarySuffix)
        do {
            try data.write(to: partial)
        } catch {
            // The folder may have been removed under the app (a reset, a restored backup).
            guard !FileManager.default.fileExists(atPath: directory.path) else { throw error }
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            try data.write(to: partial)
        }
        guard rename(partial.path, final.path) == 0 else {
            let code = POSIXErrorCode(rawValue: errno) ?? .EIO
            // A leftover partial is never loaded as an event and is removed at the next load.
            try? FileManager.default.removeItem(at: partial)
            throw POSIXError(code)
        }
    }

    public func remove(_ names: [String]) throws {
        for name in names {
            let url = directory.appendingPathComponent(name + Self.suffix)
            do {
                try FileManager.default.removeItem(at: url)
            } catch {
                if FileManager.default.fileExists(atPath: url.path) { throw error }
            }
        }
    }
}
