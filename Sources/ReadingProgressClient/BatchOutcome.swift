import Foundation

/// What one answer to a batch means for its events.
enum BatchOutcome: Equatable {
    /// 2xx: every event is settled; the listed indices were refused, the others counted.
    case accepted(duplicates: Int, rejected: [Int: ServiceError])
    /// 400: none of the events is valid; each listed one with its own error, the rest with `error`.
    case refused(error: ServiceError, rejected: [Int: ServiceError])
    /// 413: the body is too large for the service.
    case tooLarge
    /// Try again later, not sooner than `retryAfter` seconds when the service said so.
    case retry(RetryReason, retryAfter: TimeInterval?)

    /// Reads the answer to a batch sent at `now` (for a `Retry-After` given as a date).
    init(_ response: TransportResponse, now: Date) {
        switch response.status {
        case 200..<300:
            // A 2xx counted the events whatever its body says; one that cannot be read only
            // takes away the duplicates and rejections it would name.
            let answer = try? JSONDecoder().decode(Answer.self, from: response.body)
            self = .accepted(duplicates: answer?.duplicates ?? 0, rejected: answer?.rejectedByIndex ?? [:])
        case 400:
            // Without a readable body the refusal still stands, under a general error.
            let answer = try? JSONDecoder().decode(Answer.self, from: response.body)
            let error =
                answer?.error
                ?? ServiceError(code: "invalid_event", message: "the service refused the batch (400)")
            self = .refused(error: error, rejected: answer?.rejectedByIndex ?? [:])
        case 413:
            self = .tooLarge
        default:
            self = .retry(
                .status(response.status),
                retryAfter: RetryAfter.seconds(response.header("Retry-After"), now: now))
        }
    }

    /// The parts of the service's answers that matter here; the rest is ignored.
    private struct Answer: Decodable {
        struct Rejection: Decodable {
            var index: Int
            var error: ServiceError
        }
        var duplicates: Int?
        var rejected: [Rejection]?
        var error: ServiceError?

        var rejectedByIndex: [Int: ServiceError] {
            Dictionary((rejected ?? []).map { ($0.index, $0.error) }) { first, _ in first }
        }
    }
}

/// The `Retry-After` header field: a number of seconds, or an HTTP date.
enum RetryAfter {
    /// Seconds from `now` until the time `value` names; nil when absent or unreadable.
    static func seconds(_ value: String?, now: Date) -> TimeInterval? {
        guard let value = value?.trimmingCharacters(in: .whitespaces), !value.isEmpty else { return nil }
        if let seconds = Int(value) { return seconds >= 0 ? TimeInterval(seconds) : nil }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        guard let date = formatter.date(from: value) else { return nil }
        return max(0, date.timeIntervalSince(now))
    }
}
