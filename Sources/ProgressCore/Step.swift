/// The reader's place in a multi-step flow: page `index` of `total` (`index ≥ 0`, `total ≥ 1`).
///
/// From seed 002, where `index` is the navigation path's depth (`path.count`, 0 on the first page)
/// and `total` the `ProgressView`'s total. The figures it yields are in ``StepFigures``.
public struct Step: Sendable, Hashable, Codable {
    /// Zero-based page number: 0 is the first page, on which the step bar is hidden.
    public var index: Int
    /// How many steps fill the bar.
    public var total: Int

    /// Creates a step from the page number and the step count.
    public init(index: Int, total: Int) {
        self.index = index
        self.total = total
    }
}
