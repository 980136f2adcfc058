#if canImport(Glibc)
    import Glibc
#endif

/// The room left on the file system that holds an embedded store's files, for `/metrics`
/// (docs/operations.md, "Metrics"): a full disk turns every event into a 503, and an alert on
/// these gauges comes before that.
enum StoreFileSystem {
    /// Bytes free to an unprivileged process (what the service may still write, the blocks
    /// kept for root left out) and the file system's size, or nil when `statvfs` fails.
    static func room(at path: String) -> (free: Int64, size: Int64)? {
        var info = statvfs()
        guard statvfs(folder(of: path), &info) == 0 else { return nil }
        let unit = Int64(clamping: info.f_frsize)
        return (Int64(clamping: info.f_bavail) &* unit, Int64(clamping: info.f_blocks) &* unit)
    }

    /// The folder of a store's database file: the files beside it live there too.
    static func folder(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    /// The two gauges in the text format; nothing without a path or when `statvfs` fails.
    static func render(path: String?) -> String {
        guard let path, let room = room(at: path) else { return "" }
        return """
            # HELP reading_progress_store_filesystem_free_bytes Bytes the service may still write on the file system under the store.
            # TYPE reading_progress_store_filesystem_free_bytes gauge
            reading_progress_store_filesystem_free_bytes \(room.free)
            # HELP reading_progress_store_filesystem_size_bytes Size of the file system under the store.
            # TYPE reading_progress_store_filesystem_size_bytes gauge
            reading_progress_store_filesystem_size_bytes \(room.size)

            """
    }
}
