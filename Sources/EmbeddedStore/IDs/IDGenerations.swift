import ProgressStore

/// The event ids the writer remembers so that a repeat counts once (docs/api.md): digests in two
/// generations of ``RecentIDTable``, with no time per id and no order to forget them in.
///
/// `current` takes the ids acknowledged since its generation began. Once it is `generationMs`
/// old by the store's clock, `previous` is dropped whole, `current` becomes `previous`, and a
/// new, empty `current` begins — `generationMs` after the one before, not when the change
/// happens to run, so that no generation outstays its span. A lookup checks both. So an id
/// acknowledged at t, within the generation [s, s + g), is found until s + 2g: always while it
/// is younger than g, never once it is 2g old.
///
/// Erasures: an id acknowledged before an erasure of its pair counts again after it; one
/// acknowledged after it does not. With no time per id, each erasure gets a number, and a
/// generation holds an id's digest salted with the number of the latest erasure of its pair in
/// that generation (unsalted if none): after an erasure, the pair's ids digest differently, so
/// those from before are not found and those after it are added under the new salt. An id found
/// in `previous` is no repeat either when an erasure of the current generation took its pair:
/// every id in `previous` came before that erasure. A generation's erasures go with its ids.
struct IDGenerations {
    /// How long a generation lasts: ids are remembered at least this long, at most twice it.
    /// Not positive: nothing is remembered.
    let generationMs: Int64
    private var current = RecentIDTable()
    private var previous: RecentIDTable
    /// When the current generation began (ms since the epoch, by the store's clock).
    private(set) var currentBeganMs: Int64
    private var currentErasures: [(erasure: Erasure, number: UInt64)] = []
    private var previousErasures: [(erasure: Erasure, number: UInt64)] = []
    private var erasuresNumbered: UInt64 = 0

    /// Generations of `generationMs`, the current one beginning at `nowMs`, empty, after
    /// `previous` — at start-up, the ids found saved or in the journal that are younger than a
    /// generation: kept for one generation from now, they are all remembered for at least one
    /// generation and none for two.
    init(generationMs: Int64, nowMs: Int64, previous: RecentIDTable = RecentIDTable()) {
        self.generationMs = generationMs
        self.previous = previous
        currentBeganMs = nowMs
    }

    /// The ids held, in both generations.
    var count: Int { current.count + previous.count }
    /// The memory the ids take.
    var bytes: Int { current.bytes + previous.bytes }

    /// Begins the generations due by `nowMs`: one, or, after a long pause, two (which forgets
    /// every id).
    mutating func advance(to nowMs: Int64) {
        guard generationMs > 0, nowMs - currentBeganMs >= generationMs else { return }
        let due = (nowMs - currentBeganMs) / generationMs
        if due == 1 {
            previous = current
            previousErasures = currentErasures
        } else {
            previous = RecentIDTable()
            previousErasures = []
        }
        current = RecentIDTable()
        currentErasures = []
        currentBeganMs += due * generationMs
    }

    /// Whether `event`, whose deduplication key is `key`, repeats an id remembered: nil if so;
    /// otherwise the id is remembered from now on, and its digest as added is returned for
    /// ``giveBack(_:)``. A repeat within one append finds the first's claim. Callers have
    /// advanced to the append's time.
    mutating func claim(_ key: UnsafeBufferPointer<UInt8>, of event: EventRecord) -> IDDigest? {
        let digest = IDDigest(of: key)
        guard generationMs > 0 else { return digest }
        let currentSalt = currentErasures.isEmpty ? 0 : Self.salt(of: event, in: currentErasures)
        let inCurrent = digest.salted(by: currentSalt)
        current.reserveOne()
        let slot = current.slot(for: inCurrent)
        if slot.holds { return nil }
        if previous.count > 0, currentSalt == 0 {
            let previousSalt = previousErasures.isEmpty ? 0 : Self.salt(of: event, in: previousErasures)
            if previous.contains(digest.salted(by: previousSalt)) { return nil }
        }
        current.fill(slot.index, inCurrent)
        return inCurrent
    }

    /// Forgets what ``claim(_:of:)`` added (for a write that failed), as if it had never come:
    /// the claim found nothing in `current`, so nothing there is lost. Callers give back the
    /// claims of one append, in any order, before the next append.
    func giveBack(_ digest: IDDigest) {
        current.remove(digest)
    }

    /// Takes the ids `erasure` covers out of what is remembered: after it, the ids of its pairs
    /// acknowledged before it count again. Callers have advanced to the erasure's time.
    mutating func erase(_ erasure: Erasure) {
        // With nothing held, nothing acknowledged before the erasure can be found.
        guard generationMs > 0, count > 0 else { return }
        erasuresNumbered += 1
        currentErasures.append((erasure, erasuresNumbered))
    }

    /// The number of the latest of `erasures` that covers `event`'s pair, or 0.
    private static func salt(of event: EventRecord, in erasures: [(erasure: Erasure, number: UInt64)])
        -> UInt64
    {
        for entry in erasures.reversed()
        where entry.erasure.covers(article: event.article, reader: event.reader) {
            return entry.number
        }
        return 0
    }
}
