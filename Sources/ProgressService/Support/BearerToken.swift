/// Checks `Authorization: Bearer <token>` against the configured token in constant time, so
/// the time an answer takes says nothing about how much of a guess was right.
struct BearerToken: Sendable {
    private let expected: [UInt8]

    init(_ token: String) {
        expected = Array(token.utf8)
    }

    func accepts(authorization: String?) -> Bool {
        guard let authorization else { return false }
        let scheme = "bearer "
        guard authorization.utf8.count > scheme.utf8.count,
            authorization.prefix(scheme.count).lowercased() == scheme
        else { return false }
        let given = Array(authorization.utf8.dropFirst(scheme.utf8.count))
        // Compare every byte of the longer of the two, whatever the lengths, then fold the
        // length mismatch in: no early exit.
        var difference = UInt8(truncatingIfNeeded: given.count ^ expected.count)
        let length = max(given.count, expected.count)
        for i in 0..<length {
            let a = i < given.count ? given[i] : 0
            let b = i < expected.count ? expected[i] : 0
            difference |= a ^ b
        }
        return difference == 0 && given.count == expected.count
    }
}
