import Foundation
import ProgressStore

/// The journal's test hooks: a capacity short of the disk's, failures a failing disk gives, a
/// look at the active segment, and a hook before each sync. They live in one value, ``TestHooks``,
/// which nothing but a test sets; production leaves it empty.
extension EventJournal {
    /// What tests set, under `lock`.
    struct TestHooks {
        /// Appends that would take the journal's total size past this fail as if the disk were full.
        var capacityBytes: Int64?
        /// Runs at the start of each ``sync()``, on the syncing thread.
        var beforeSync: (@Sendable () -> Void)?
        /// Failures a failing disk could give.
        var faults = Faults()
    }

    /// Sets the test capacity (`nil`: none).
    func setCapacity(_ bytes: Int64?) {
        lock.withLock { hooks.capacityBytes = bytes }
    }

    /// Failures to inject, as a failing disk gives them (a test hook).
    struct Faults {
        /// The next append stops after this many bytes of its entry are in the file and fails
        /// with `EIO`, as a `write(2)` cut short would.
        var writeStopsAfter: Int?
        /// Cutting a failed append's bytes off the active segment fails with `EIO`.
        var truncateFails = false
        /// The next ``sync()`` fails with `EIO`, as an `fdatasync` on a failing disk does.
        var syncFails = false
        /// Syncing the journal's folder after a new segment fails with `EIO`.
        var directorySyncFails = false
    }

    /// Sets the failures to inject (a test hook).
    func setFaults(_ faults: Faults) {
        lock.withLock { hooks.faults = faults }
    }

    /// Runs `body` on the active segment under the lock (a test hook: where its mapping lies,
    /// what is allocated, how much may be resident).
    func inspectActiveSegment<T>(_ body: (Segment) -> T) -> T? {
        lock.withLock { segments.last.map(body) }
    }

    /// Sets the hook that runs at the start of each ``sync()`` (`nil`: none).
    func setBeforeSync(_ hook: (@Sendable () -> Void)?) {
        lock.withLock { hooks.beforeSync = hook }
    }
}
