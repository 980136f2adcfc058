import ProgressStore

/// The sources a store has seen (docs/api.md, "Segments"), each once, by a 16-bit id that the
/// reader-days' ``SegmentRecord``s hold: `(direct)` is 0 and `(other)` 1 whether named by a
/// client or not, then the others in the order they came. At most ``bound`` beyond those two;
/// a new source past it counts as `(other)`. Sources are kept for the store's life (a checkpoint
/// saves the table): they are hosts and campaign names, not ids of anyone. Names are told apart
/// by their bytes, as every id is (docs/api.md, "Fields").
struct SourceTable: Sendable {
    static let direct: UInt16 = 0
    static let other: UInt16 = 1
    /// The bound docs/api.md names.
    static let defaultBound = 10_000

    /// Sources beyond `(direct)` and `(other)` that the table takes (below 2¹⁶ − 2).
    let bound: Int
    private(set) var names: [String] = [ReaderSource.direct, ReaderSource.other]
    private var ids: [ExactKey: UInt16] = [
        ExactKey(ReaderSource.direct): direct, ExactKey(ReaderSource.other): other,
    ]

    init(bound: Int = defaultBound) {
        precondition((0...Int(UInt16.max) - 2).contains(bound), "a source bound out of range")
        self.bound = bound
    }

    var count: Int { names.count }

    /// The id of `source` (normalised), added while there is room; ``other`` past the bound.
    mutating func id(of source: String) -> UInt16 {
        if let id = ids[ExactKey(source)] { return id }
        guard names.count - 2 < bound else { return Self.other }
        let id = UInt16(names.count)
        names.append(source)
        ids[ExactKey(source)] = id
        return id
    }

    /// The id `source` has, if the table holds it.
    func existingID(of source: String) -> UInt16? { ids[ExactKey(source)] }

    /// The name of `id`, which the table holds.
    func name(of id: UInt16) -> String { names[Int(id)] }

    /// Appends sources as a checkpoint saved them, from id ``count`` on (all of them, past the
    /// bound too: the saved records hold their ids).
    mutating func restore(_ saved: [String]) throws(StoreError) {
        for name in saved {
            guard ids[ExactKey(name)] == nil, names.count < Int(UInt16.max) else {
                throw StoreError.corrupt("the saved sources repeat one or are too many")
            }
            ids[ExactKey(name)] = UInt16(names.count)
            names.append(name)
        }
    }
}
