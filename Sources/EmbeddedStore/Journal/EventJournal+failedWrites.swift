import Foundation
import ProgressStore

/// Writes that fail partway: what a failed append leaves past the last whole entry is cut off
/// before anything else is appended (``EventJournal/append(payload:committedMs:)``), and the
/// fault a test injects to fail one that way.
extension EventJournal {
    /// Cuts off what a failed append left past `segment`'s whole entries, if anything; throws
    /// if that fails again. The next start would take such bytes for a torn tail and cut off
    /// every entry after them, or refuse to start: nothing is appended after them. Callers
    /// hold `lock`.
    func cutFailedWrite(_ segment: Segment) throws(StoreError) {
        guard segment.holdsFailedWrite else { return }
        guard !hooks.faults.truncateFails else {
            throw StoreError.posix(
                EIO,
                "cutting a failed write off the event journal failed; no appends until it works")
        }
        guard segment.cutFailedWrite() else {
            throw Self.error("cutting a failed write off the event journal failed; no appends until it works")
        }
    }

    /// Puts the first `stop` bytes of the entry into `destination` and fails as a write cut
    /// short by the disk does (`Faults.writeStopsAfter`); cuts them off again, or, if that
    /// fails too (`Faults.truncateFails`), leaves them for the next append to cut first.
    /// Callers hold `lock`.
    func failPartway(
        _ segment: Segment, into destination: UnsafeMutableRawBufferPointer, after stop: Int, seq: Int64,
        committedMs: Int64, _ payload: [UInt8]
    ) throws(StoreError) {
        var whole = [UInt8](repeating: 0, count: destination.count)
        whole.withUnsafeMutableBytes {
            Self.frame(seq: seq, committedMs: committedMs, payload: payload, into: $0)
        }
        let copied = min(max(stop, 0), destination.count)
        whole.withUnsafeBytes {
            destination.baseAddress!.copyMemory(from: $0.baseAddress!, byteCount: copied)
        }
        // A fault: whether the partial bytes reach the file or not, they are held as a failed
        // write and cut off (or, when the cut fails, held until it succeeds).
        try? segment.write(copied)
        segment.holdFailedWrite(of: copied)
        try? cutFailedWrite(segment)
        throw StoreError.posix(
            EIO, "writing the event journal failed: \(String(cString: strerror(EIO)))")
    }
}
