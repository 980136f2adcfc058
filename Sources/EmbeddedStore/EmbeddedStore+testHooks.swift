import ProgressStore

/// Hooks for the store's own tests: a capped journal, a checkpoint on demand, a stop as if the
/// process had been killed. Nothing in the service calls them.
extension EmbeddedStore {
    /// Caps the event journal at `bytes` (`nil`: no cap) — a test hook to fill the store and
    /// free it again; 0 refuses every append.
    package func setJournalCapacity(_ bytes: Int64?) {
        journal.setCapacity(bytes)
    }

    /// Takes a checkpoint now (a test hook: when the index is saved is otherwise none of a
    /// caller's concern).
    func checkpointNow() throws(StoreError) {
        try checkpointer.checkpointNow()
    }

    /// Lets go of everything without a last checkpoint, as if the process had been killed —
    /// a test hook for what a restart then replays.
    func abandon() {
        closed.withLock { $0 = true }
        writer.close()
        checkpointer.stop(saving: false)
        salts.close()
        journal.abandon()
        lockFile?.release()
    }
}
