import Foundation

extension Reporter {
    /// Starts delivering the queue unless a delivery is running, a backoff is waiting, or
    /// there is nothing to send: one request in flight at most.
    func startDelivery() {
        guard !stopped, deliveryTask == nil, retryTask == nil, !queue.isEmpty else { return }
        deliveryTask = Task { await self.deliver() }
    }

    /// Sends the queue a batch at a time, oldest first, until it is empty or a request fails.
    private func deliver() async {
        while !stopped, retryTask == nil {
            drop(
                queue.older(than: clock.now() - configuration.maximumEventAge.seconds, busy: []),
                reason: .tooOld)
            let batch = queue.oldest(batchLimit)
            guard !batch.isEmpty else { break }
            inFlight = Set(batch.map(\.name))
            let body = WireEvent.batchBody(batch.map(\.data))
            let outcome: BatchOutcome
            do {
                let response = try await transport.post(
                    body, to: configuration.eventsURL, timeout: configuration.effectiveRequestTimeout)
                outcome = BatchOutcome(response, now: clock.now())
            } catch {
                outcome = .retry(.network(String(describing: error)), retryAfter: nil)
            }
            inFlight = []
            // A stopped reporter leaves the queue to the next one, answered or not.
            guard !stopped else { break }
            settle(batch, outcome)
        }
        deliveryTask = nil
        if queue.isEmpty { batchLimit = max(configuration.maximumBatchSize, 1) }
    }

    /// Acts on the answer to `batch`: settled events leave the queue, by name, only now.
    private func settle(_ batch: [EventQueue.Entry], _ outcome: BatchOutcome) {
        switch outcome {
        case .accepted(let duplicates, let rejected):
            failures = 0
            // Events the bound dropped while the request was out were reported already.
            let present = Set(queue.remove(Set(batch.map(\.name))).map(\.name))
            let delivered = batch.indices.filter { rejected[$0] == nil && present.contains(batch[$0].name) }
            if !delivered.isEmpty {
                report(.delivered(eventIDs: delivered.map { batch[$0].id }, duplicates: duplicates))
            }
            reportRejected(batch, present: present) { rejected[$0] }
            // A file that stays is sent again by the next run, and counted once by its id (or
            // dropped as too old): nothing is lost.
            try? storage.remove(batch.map(\.name))
        case .refused(let error, let rejected):
            failures = 0
            let present = Set(queue.remove(Set(batch.map(\.name))).map(\.name))
            reportRejected(batch, present: present) { rejected[$0] ?? error }
            // A file that stays is refused again by the next run: nothing is lost.
            try? storage.remove(batch.map(\.name))
        case .tooLarge where batch.count > 1:
            // Halves until the batches fit; back to full size once the queue is empty.
            batchLimit = max(1, batch.count / 2)
        case .tooLarge:
            drop(batch, reason: .tooLarge)
        case .retry(let reason, let retryAfter):
            failures += 1
            let delay = configuration.backoff.delay(
                afterFailures: failures, retryAfter: retryAfter, jitter: Double.random(in: 0...1))
            report(.retrying(after: .interval(delay), reason: reason))
            scheduleRetry(after: delay)
        }
    }

    private func reportRejected(
        _ batch: [EventQueue.Entry], present: Set<String>, error: (Int) -> ServiceError?
    ) {
        for index in batch.indices where present.contains(batch[index].name) {
            guard let error = error(index) else { continue }
            report(.rejected(eventID: batch[index].id, article: batch[index].article, error: error))
        }
    }

    private func scheduleRetry(after seconds: TimeInterval) {
        let clock = clock
        retryTask = Task { [weak self] in
            do { try await clock.sleep(for: .interval(seconds)) } catch { return }
            await self?.retryDue()
        }
    }

    private func retryDue() {
        retryTask = nil
        startDelivery()
    }

    /// Keeps a timer running while events are queued: each tick starts a delivery.
    func startTimer() {
        guard !stopped, timerTask == nil, !queue.isEmpty else { return }
        let clock = clock
        timerTask = Task { [weak self, interval = configuration.flushInterval] in
            while true {
                do { try await clock.sleep(for: interval) } catch { return }
                guard let self, await self.timerTicked() else { return }
            }
        }
    }

    /// Returns whether the timer is still needed.
    private func timerTicked() -> Bool {
        guard !stopped, !queue.isEmpty else {
            timerTask = nil
            return false
        }
        startDelivery()
        return true
    }

    /// Removes `entries` from the queue and its storage, unsent, and reports them.
    func drop(_ entries: [EventQueue.Entry], reason: DropReason) {
        guard !entries.isEmpty else { return }
        let removed = queue.remove(Set(entries.map(\.name)))
        // Dropped either way: a file that stays is dropped again by the next run.
        try? storage.remove(entries.map(\.name))
        if !removed.isEmpty { report(.dropped(eventIDs: removed.map(\.id), reason: reason)) }
    }
}
