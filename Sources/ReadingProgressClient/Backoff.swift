/// Exponential backoff with jitter: after the n-th failure in a row, a wait between half and
/// all of `minimum × 2ⁿ⁻¹`, at most `maximum`, and never shorter than the service's `Retry-After`.
struct Backoff: Sendable {
    var minimum: Double
    var maximum: Double

    /// The longest wait a `Retry-After` can impose: an event older than a day is dropped anyway.
    static let retryAfterLimit: Double = 86_400

    /// The wait after `failures` failures in a row (1 for the first), with `jitter` in `0...1`.
    func delay(afterFailures failures: Int, retryAfter: Double?, jitter: Double) -> Double {
        // 2⁴⁰ times any sensible minimum is far past any maximum; stop doubling there.
        let exponent = Double(1 << Swift.min(Swift.max(failures - 1, 0), 40))
        let ceiling = Swift.min(maximum, minimum * exponent)
        let jittered = ceiling * (0.5 + 0.5 * Swift.min(Swift.max(jitter, 0), 1))
        return Swift.max(jittered, Swift.min(retryAfter ?? 0, Self.retryAfterLimit))
    }
}
