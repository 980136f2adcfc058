/// A value set once while its owner is built, before any other thread can see the owner, and
/// only read afterwards: so reading it needs neither a lock nor an exclusivity check.
final class SetOnce<Value: Sendable>: @unchecked Sendable {
    @exclusivity(unchecked) private(set) var value: Value?

    func set(_ value: Value) {
        precondition(self.value == nil, "set twice")
        self.value = value
    }
}
