import Foundation
public import ProgressCore

/// Makes an app a reporting reader: it takes the scroll geometry of the articles on screen,
/// computes their figures on the device with ProgressCore, turns the geometry that matters into
/// events and delivers them to the service in batches, from a queue on disk that survives the
/// app being killed (docs/swift-client.md).
///
/// Create one for the app and keep it. Every method runs on the reporter's own actor, so the
/// queue's files are never read or written on the main actor; ``submit(_:)`` hands a signal
/// over without waiting, in order, for code that must not wait.
public actor Reporter {
    let configuration: Configuration
    let transport: any Transport
    let clock: any ReportingClock
    let storage: any EventStorage
    private var reader: String?

    /// What became of the queued events, one report after another. Meant for one consumer; the
    /// newest 256 reports wait for it, older ones unread are discarded.
    public nonisolated let reports: AsyncStream<DeliveryReport>
    private let reportsContinuation: AsyncStream<DeliveryReport>.Continuation
    private nonisolated let inbox: AsyncStream<(ReaderSignal, Date)>.Continuation

    var queue = EventQueue()
    /// Whether the queue an earlier run left has been read; until then new events are not
    /// written, since their names could be those of its files.
    private var loaded = false
    /// Why the earlier run's queue could not be read, the last time it was tried.
    private var loadFailure: String?
    var stopped = false
    var views: [String: ViewTracker] = [:]
    /// The section maps the app gave for the articles on screen, cleaned.
    var sectionMaps: [String: [ArticleSection]] = [:]
    private var appState = AppState.active
    private var restChecks: [String: Task<Void, Never>] = [:]
    var deliveryTask: Task<Void, Never>?
    var retryTask: Task<Void, Never>?
    var timerTask: Task<Void, Never>?
    /// Failed requests in a row, for the backoff.
    var failures = 0
    /// The most events the next request carries: less than the configured batch after a 413.
    var batchLimit: Int
    /// The names of the events in the request in flight.
    var inFlight: Set<String> = []

    /// Creates a reporter. Nothing touches the disk here: the queue left by an earlier run is
    /// loaded on the reporter's actor right after, and delivered.
    ///
    /// - Parameters:
    ///   - transport: how requests reach the service; a `URLSession` of its own by default.
    ///   - clock: the time of events and the waits between deliveries; the system's by default.
    ///   - storage: the queue on disk; by default files in `configuration.queueDirectory`.
    public init(
        configuration: Configuration, transport: (any Transport)? = nil,
        clock: any ReportingClock = SystemClock(), storage: (any EventStorage)? = nil
    ) {
        self.configuration = configuration
        self.transport = transport ?? URLSessionTransport()
        self.clock = clock
        self.storage = storage ?? DirectoryStorage(directory: configuration.queueDirectory)
        reader = configuration.reader
        batchLimit = max(configuration.maximumBatchSize, 1)
        (reports, reportsContinuation) = AsyncStream.makeStream(bufferingPolicy: .bufferingNewest(256))
        let (signals, inbox) = AsyncStream.makeStream(of: (ReaderSignal, Date).self)
        self.inbox = inbox
        Task { [weak self] in
            await self?.loadQueue()
            for await (signal, time) in signals {
                guard let self else { return }
                await self.apply(signal, at: time)
            }
        }
    }

    deinit {
        inbox.finish()
        reportsContinuation.finish()
        deliveryTask?.cancel()
        retryTask?.cancel()
        timerTask?.cancel()
        for check in restChecks.values { check.cancel() }
    }

    // MARK: - What the views tell it

    /// Records that the view of `article` shows `snapshot` now, and returns its figures. Queues
    /// an event when this geometry matters (the first of a view, a new step of depth, enough
    /// engaged time); scrolling that comes to rest is noticed ``Configuration/restDelay`` later.
    /// Throws, and records nothing, for geometry the service would refuse.
    @discardableResult
    public func record(_ snapshot: ScrollSnapshot, article: String) throws(GeometryError) -> ProgressFigures {
        let figures = try snapshot.figures()
        ingest(Sample(snapshot: snapshot, figures: figures), article: article, at: clock.now())
        return figures
    }

    /// The view of `article` went away: queues what it has not reported yet.
    public func endView(article: String) {
        endView(article: article, at: clock.now())
    }

    /// The app changed state. Engaged time counts only while it is ``AppState/active``; going to
    /// the background queues what every open view has not reported yet and delivers it.
    public func setAppState(_ state: AppState) async {
        changeAppState(to: state, at: clock.now())
        if state == .background { await flush() }
    }

    /// Hands `signal` to the reporter without waiting, timed now; signals are applied in the
    /// order submitted. For views on the main actor, which must not wait on disk or network.
    public nonisolated func submit(_ signal: ReaderSignal) {
        inbox.yield((signal, clock.now()))
    }

    /// The reader id of the events queued from now on; nil for none (the service derives one).
    public func setReader(_ reader: String?) {
        self.reader = reader
    }

    // MARK: - Delivery on demand

    /// Delivers the queue now, unless a failed request's backoff is still running (then the
    /// events go when it ends), and returns how many events are still queued.
    @discardableResult
    public func flush() async -> Int {
        loadQueue()
        if let running = deliveryTask { await running.value }
        startDelivery()
        if let running = deliveryTask { await running.value }
        return queue.count
    }

    /// Events queued and not yet settled.
    public var queuedEvents: Int {
        loadQueue()
        return queue.count
    }

    /// Stops for good: no more requests and no more changes to the queue, whose events stay
    /// stored for the next reporter on the folder. Geometry recorded afterwards is not queued.
    public func stop() {
        stopped = true
        for task in [deliveryTask, retryTask, timerTask] + Array(restChecks.values) { task?.cancel() }
        restChecks = [:]
        reportsContinuation.finish()
    }

    func report(_ report: DeliveryReport) {
        reportsContinuation.yield(report)
    }

    // MARK: - Geometry into events

    private func apply(_ signal: ReaderSignal, at time: Date) {
        switch signal {
        case .geometry(let snapshot, let article):
            // Geometry the service would refuse is not recorded: ``record(_:article:)`` says why.
            guard let figures = try? snapshot.figures() else { return }
            ingest(Sample(snapshot: snapshot, figures: figures), article: article, at: time)
        case .viewEnded(let article):
            endView(article: article, at: time)
        case .appState(let state):
            changeAppState(to: state, at: time)
        case .sections(let sections, let article):
            setSections(sections, article: article)
        }
    }

    private func ingest(_ sample: Sample, article: String, at time: Date) {
        loadQueue()
        guard !stopped else { return }
        var tracker = views[article] ?? ViewTracker(rules: configuration.trackerRules)
        tracker.sections = sectionMaps[article]
        let moveBefore = tracker.lastMove
        let drafts = tracker.record(sample, at: time, active: appState == .active)
        views[article] = tracker
        enqueue(drafts, article: article)
        if tracker.lastMove != moveBefore { watchForRest(article) }
    }

    private func endView(article: String, at time: Date) {
        loadQueue()
        restChecks.removeValue(forKey: article)?.cancel()
        sectionMaps[article] = nil
        guard !stopped, var tracker = views.removeValue(forKey: article) else { return }
        enqueue(tracker.finish(at: time, active: appState == .active), article: article)
    }

    private func changeAppState(to state: AppState, at time: Date) {
        loadQueue()
        guard !stopped else { return }
        let wasActive = appState == .active
        for article in views.keys.sorted() {
            guard var tracker = views[article] else { continue }
            if state == .background {
                enqueue(tracker.finish(at: time, active: wasActive), article: article)
            } else {
                tracker.advance(to: time, active: wasActive)
            }
            views[article] = tracker
        }
        appState = state
        if state == .background { startDelivery() }
    }

    /// Checks `article` for rest once ``Configuration/restDelay`` has passed without a move.
    private func watchForRest(_ article: String) {
        guard restChecks[article] == nil else { return }
        let clock = clock
        restChecks[article] = Task { [weak self, delay = configuration.restDelay] in
            var wait = delay
            while true {
                do { try await clock.sleep(for: wait) } catch { return }
                guard let self, let more = await self.checkRest(article) else { return }
                wait = more
            }
        }
    }

    /// Queues what the rest of `article`'s view reports and returns nil, or returns how much
    /// longer to wait when the view moved meanwhile.
    private func checkRest(_ article: String) -> Duration? {
        guard !stopped, var tracker = views[article], let lastMove = tracker.lastMove else {
            restChecks[article] = nil
            return nil
        }
        let now = clock.now()
        let still = now.timeIntervalSince(lastMove)
        let delay = configuration.restDelay.seconds
        if still < delay { return .interval(delay - still) }
        restChecks[article] = nil
        enqueue(tracker.rest(at: now, active: appState == .active), article: article)
        views[article] = tracker
        return nil
    }

    /// Queues the events of `drafts`, each with a fresh id, and starts a delivery when enough
    /// are waiting.
    private func enqueue(_ drafts: [EventDraft], article: String) {
        for draft in drafts {
            let event = WireEvent(
                id: UUID().uuidString.lowercased(), article: article, reader: reader, draft: draft,
                configuration: configuration)
            // Never fails: the geometry passed ProgressCore's validation, every number is finite.
            guard let data = try? event.encoded() else { continue }
            let name: String
            if let loadFailure {
                // Kept in memory under a name no stored entry has, and delivered while the app runs.
                name = queue.makeUnsavedName()
                report(
                    .notSaved(eventID: event.id, message: "the queue on disk cannot be read: \(loadFailure)"))
            } else {
                name = queue.makeName()
                do {
                    try storage.write(data, name: name)
                } catch {
                    report(.notSaved(eventID: event.id, message: String(describing: error)))
                }
            }
            queue.append(.init(name: name, id: event.id, article: article, time: draft.time, data: data))
        }
        guard !drafts.isEmpty else { return }
        drop(queue.overflow(bound: configuration.maximumQueuedEvents, busy: inFlight), reason: .queueFull)
        if queue.count >= configuration.flushCount { startDelivery() }
        startTimer()
    }

    /// Loads the queue an earlier run left and starts delivering it; tried again on every call
    /// until it succeeds. Its entries go before those queued meanwhile, which are older than none.
    private func loadQueue() {
        guard !loaded else { return }
        let stored: [StoredEvent]
        do {
            stored = try storage.loadAll()
        } catch {
            loadFailure = String(describing: error)
            return
        }
        loaded = true
        loadFailure = nil
        let queuedMeanwhile = queue.removeAll()
        var unreadable: [String] = []
        for entry in stored {
            guard let event = try? WireEvent.decoded(from: entry.data) else {
                unreadable.append(entry.name)
                continue
            }
            queue.append(
                .init(
                    name: entry.name, id: event.id, article: event.article, time: event.date, data: entry.data
                ))
        }
        for entry in queuedMeanwhile { queue.append(entry) }
        if !unreadable.isEmpty {
            // An entry that stays is found unreadable again at the next start: nothing is lost.
            try? storage.remove(unreadable)
            report(.dropped(eventIDs: unreadable, reason: .unreadable))
        }
        drop(queue.overflow(bound: configuration.maximumQueuedEvents, busy: []), reason: .queueFull)
        startDelivery()
        startTimer()
    }
}
