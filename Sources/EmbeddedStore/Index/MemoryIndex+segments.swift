import ProgressStore

extension IndexState {
    /// `filter` in the index's terms: its source as an id, ``SegmentMatch/none`` for a source
    /// the store never saw.
    func match(_ filter: SegmentFilter) -> SegmentMatch {
        guard !filter.isAll else { return .all }
        guard let source = filter.source else { return SegmentMatch(device: filter.device) }
        guard let id = sources.existingID(of: source) else { return .none }
        return SegmentMatch(device: filter.device, source: id)
    }
}

extension MemoryIndex {
    /// The sources held, `(direct)` and `(other)` first, by id.
    func sourceNames() -> [String] {
        state.read { $0.sources.names }
    }

    /// Sets the sources a checkpoint saved (start-up, before anything is restored or folded).
    func restoreSources(_ saved: [String]) throws(StoreError) {
        try state.write { state throws(StoreError) in try state.sources.restore(saved) }
    }
}
