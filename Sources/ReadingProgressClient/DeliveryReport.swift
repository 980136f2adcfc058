/// What became of queued events, from ``Reporter/reports``: every event ends in exactly one of
/// ``delivered(eventIDs:duplicates:)``, ``rejected(eventID:article:error:)`` or
/// ``dropped(eventIDs:reason:)``; ``retrying(after:reason:)`` and ``notSaved(eventID:message:)``
/// say why one is taking a while or is at risk.
public enum DeliveryReport: Sendable, Hashable {
    /// The service acknowledged these events (a 2xx): they are in its statistics, `duplicates`
    /// of them because an earlier attempt, whose answer was lost, had already counted them.
    case delivered(eventIDs: [String], duplicates: Int)
    /// The service refused this event (400) and said why; it is dropped, never sent again.
    case rejected(eventID: String, article: String, error: ServiceError)
    /// These events are dropped without a verdict of the service and never sent again. One may
    /// still have been counted by an earlier attempt whose answer was lost.
    case dropped(eventIDs: [String], reason: DropReason)
    /// A request failed and the next one waits `after`; the events stay queued.
    case retrying(after: Duration, reason: RetryReason)
    /// The event could not be written to the queue's storage: it is delivered while the app runs
    /// but would not survive the app being killed.
    case notSaved(eventID: String, message: String)
}

/// Why events were dropped unsent.
public enum DropReason: Sendable, Hashable {
    /// The queue was at its bound (``Reporter/Configuration/maximumQueuedEvents``); the oldest go.
    case queueFull
    /// Older than ``Reporter/Configuration/maximumEventAge``: the service may have forgotten its
    /// id, and a resend could count it twice.
    case tooOld
    /// The service answered 413 to this event alone: it can never be sent.
    case tooLarge
    /// Its queue entry could not be read back; the ids reported are the entries' storage names.
    case unreadable
}

/// Why a request is to be tried again.
public enum RetryReason: Sendable, Hashable {
    /// No answer: the connection failed or timed out. The text is the error's description.
    case network(String)
    /// An answer that asks to come back later (408, 429, 5xx) or that names no fault of the
    /// events (such as a 404 from a wrong endpoint, which a fixed deployment may cure).
    case status(Int)
}

/// The error object of the service's JSON answers: `{"code":…,"message":…,"field":…}`.
public struct ServiceError: Sendable, Hashable, Codable {
    /// Machine-readable, such as `invalid_event`.
    public var code: String
    /// A sentence for the developer.
    public var message: String
    /// The JSON path of the field to blame, when one is, such as `article`.
    public var field: String?

    /// Creates an error.
    public init(code: String, message: String, field: String? = nil) {
        self.code = code
        self.message = message
        self.field = field
    }
}
