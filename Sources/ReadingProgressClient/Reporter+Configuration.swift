public import Foundation

extension Reporter {
    /// How a ``Reporter`` decides what to send and delivers it. The defaults suit an app; tests
    /// shorten the intervals.
    public struct Configuration: Sendable {
        /// The service's base URL, such as `https://progress.example.com`; events go to
        /// `/v1/events` under it.
        public var endpoint: URL
        /// The reader id every event carries; nil to send none and let the service derive one.
        public var reader: String?
        /// The folder of the queue on disk: one file per undelivered event. One reporter at a time
        /// per folder.
        public var queueDirectory: URL
        /// The device class every event carries; nil to send none and let the service derive
        /// it from the container's width (`ReadingProgressUI` gives the platform's idiom).
        public var device: DeviceClass?
        /// Where the reader came from, sent with every event: a campaign name or the app's own
        /// name; nil for none. Cut to 100 bytes, white space and control characters collapsed.
        public var source: String?

        /// Events queued that start a delivery at once.
        public var flushCount = 20
        /// A delivery starts this long after the last while events are queued.
        public var flushInterval: Duration = .seconds(30)
        /// The most events one request carries.
        public var maximumBatchSize = 100
        /// How long a request may take; at most half of ``flushInterval``, so that a request
        /// gone silent never overlaps the next delivery.
        public var requestTimeout: Duration = .seconds(10)
        /// The wait after the first failure; each failure in a row doubles it, with jitter.
        public var minimumBackoff: Duration = .seconds(1)
        /// The longest wait between failed requests, unless the service's `Retry-After` asks more.
        public var maximumBackoff: Duration = .seconds(300)
        /// The queue's bound: past it the oldest events are dropped.
        public var maximumQueuedEvents = 1000
        /// Older events are dropped, not sent: the service counts a repeated id once only within
        /// 24 hours, and a resend after that could count twice. An hour inside that window.
        public var maximumEventAge: Duration = .seconds(23 * 3600)

        /// Progress and seen depth are cut into this many steps; entering a new one is an event.
        public var depthSteps = 10
        /// Engaged time that makes an event of its own once it has gathered.
        public var engagedInterval: Duration = .seconds(15)
        /// How long after the reader last scrolled the time still counts as engaged.
        public var idleTimeout: Duration = .seconds(15)
        /// How long the content must stay still for scrolling to have come to rest.
        public var restDelay: Duration = .seconds(1)

        /// A configuration with the default delivery rules. `queueDirectory` defaults to
        /// ``defaultQueueDirectory``.
        public init(endpoint: URL, reader: String? = nil, queueDirectory: URL = Self.defaultQueueDirectory) {
            self.endpoint = endpoint
            self.reader = reader
            self.queueDirectory = queueDirectory
        }

        /// `Application Support/ReadingProgress/queue` in the app's container (not Caches,
        /// which the system may empty before the events are delivered).
        public static var defaultQueueDirectory: URL {
            let support =
                FileManager.default.urls(for: .applicationSupportDirectory, in: .userDomainMask).first
                ?? FileManager.default.temporaryDirectory
            return support.appendingPathComponent("ReadingProgress/queue", isDirectory: true)
        }

        /// Where batches are posted.
        var eventsURL: URL { endpoint.appendingPathComponent("v1/events") }

        /// ``requestTimeout``, held to half of ``flushInterval``.
        var effectiveRequestTimeout: Duration { min(requestTimeout, flushInterval / 2) }

        var trackerRules: ViewTracker.Rules {
            ViewTracker.Rules(
                depthSteps: max(depthSteps, 1), engagedInterval: engagedInterval.seconds,
                idleTimeout: idleTimeout.seconds)
        }

        var backoff: Backoff {
            Backoff(minimum: minimumBackoff.seconds, maximum: max(maximumBackoff, minimumBackoff).seconds)
        }
    }
}
