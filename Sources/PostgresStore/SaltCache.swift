import ProgressStore
import Synchronization

/// The salts this node has read, so that deriving an id asks the database once a day.
final class SaltCache: Sendable {
    private let known = Mutex<[Int32: DailySalt]>([:])

    subscript(day: Int32) -> DailySalt? { known.withLock { $0[day] } }

    func keep(_ salt: DailySalt, today: Int32) {
        known.withLock { known in
            known = known.filter { $0.key >= DailySalt.oldestKept(today: today) }
            known[salt.day] = salt
        }
    }
}
