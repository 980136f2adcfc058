import ProgressStore

extension EmbeddedStore {
    /// The ids start-up hands the writer (its previous generation): those acknowledged after
    /// `sinceMs` that the checkpoints saved, less those the replayed `erasures` took (every
    /// saved id came before them), and those `replayed` from the journal. Digests only, read a
    /// chunk at a time: no key is held.
    static func startupIDs(
        saved checkpointer: Checkpointer, replayed: IDKeyList, erasures: [Erasure],
        since sinceMs: Int64
    ) throws(StoreError) -> RecentIDTable {
        let ids = RecentIDTable()
        try checkpointer.forEachSavedID(since: sinceMs) { ids.insert(IDDigest(of: $0)) }
        if !erasures.isEmpty {
            try checkpointer.forEachSavedID(since: sinceMs) { key in
                if erasures.contains(where: { $0.covers(key: key) }) { ids.remove(IDDigest(of: key)) }
            }
        }
        replayed.forEachKey { key, seenMs in
            if seenMs > sinceMs { ids.insert(IDDigest(of: key)) }
        }
        return ids
    }
}
