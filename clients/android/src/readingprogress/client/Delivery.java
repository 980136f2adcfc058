package readingprogress.client;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ThreadLocalRandom;

/**
 * A reporter's queue and its delivery (docs/android-client.md, "Delivery and its guarantees"). Every
 * method runs on the reporter's state thread; only the request itself runs on the delivery thread,
 * one at a time, and its answer comes back to the state thread to be settled.
 */
final class Delivery {
    private final Configuration configuration;
    private final Transport transport;
    private final ReportingClock clock;
    private final EventStorage storage;
    private final ExecutorService network;
    private final Reporter.Sink sink;

    private final EventQueue queue = new EventQueue();
    private boolean loaded;
    private boolean stopped;
    private boolean delivering;
    private ScheduledFuture<?> retry;
    private ScheduledFuture<?> timer;
    /** Failed requests in a row, for the backoff. */
    private int failures;
    /** The most events the next request carries: less than the configured batch after a 413. */
    private int batchLimit;
    /** The names of the events in the request in flight. */
    private Set<String> inFlight = Collections.emptySet();
    /** What waits for the running delivery to end. */
    private List<Runnable> whenDelivered = new ArrayList<>();

    Delivery(Configuration configuration, Transport transport, ReportingClock clock, EventStorage storage,
            ExecutorService network, Reporter.Sink sink) {
        this.configuration = configuration;
        this.transport = transport;
        this.clock = clock;
        this.storage = storage;
        this.network = network;
        this.sink = sink;
        batchLimit = Math.max(configuration.maximumBatchSize, 1);
    }

    int size() {
        return queue.size();
    }

    /** Loads the queue an earlier run left, once, and starts delivering it. */
    void load() {
        if (loaded) return;
        loaded = true;
        List<StoredEvent> stored;
        try {
            stored = storage.loadAll();
        } catch (IOException unreadable) {
            // The folder cannot be read (or made): the files of an earlier run, if any, stay where
            // they are for the next run; this run's events are queued in memory, and each one the
            // storage cannot take is reported NOT_SAVED.
            return;
        }
        List<String> unreadable = new ArrayList<>();
        for (StoredEvent entry : stored) {
            try {
                WireEvent event = WireEvent.decode(entry.data);
                queue.append(new EventQueue.Entry(entry.name, event.id, event.article, event.time, entry.data));
            } catch (IllegalArgumentException notAnEvent) {
                unreadable.add(entry.name);
            }
        }
        if (!unreadable.isEmpty()) {
            removeStored(unreadable);
            sink.report(DeliveryReport.dropped(unreadable, DropReason.UNREADABLE));
        }
        drop(queue.overflow(configuration.maximumQueuedEvents, Collections.<String>emptySet()), DropReason.QUEUE_FULL);
        startDelivery();
        startTimer();
    }

    /** Queues the events of {@code drafts}, each with a fresh id, and starts a delivery when enough are waiting. */
    void enqueue(List<ViewTracker.Draft> drafts, String article, String reader) {
        if (stopped || drafts.isEmpty()) return;
        for (ViewTracker.Draft draft : drafts) {
            String id = UUID.randomUUID().toString();
            byte[] data = WireEvent.encode(id, draft.time, article, reader, draft.snapshot, draft.engagedMs,
                    configuration.device, configuration.source);
            String name = queue.makeName();
            try {
                storage.write(data, name);
            } catch (IOException | RuntimeException failed) {
                sink.report(DeliveryReport.notSaved(id, String.valueOf(failed.getMessage())));
            }
            queue.append(new EventQueue.Entry(name, id, article, draft.time, data));
        }
        drop(queue.overflow(configuration.maximumQueuedEvents, inFlight), DropReason.QUEUE_FULL);
        if (queue.size() >= configuration.flushCount) startDelivery();
        startTimer();
    }

    /** Delivers now, unless a backoff is waiting, and runs {@code done} when that delivery has ended. */
    void flush(Runnable done) {
        if (delivering) {
            whenDelivered.add(() -> {
                startDelivery();
                afterDelivery(done);
            });
        } else {
            startDelivery();
            afterDelivery(done);
        }
    }

    private void afterDelivery(Runnable done) {
        if (delivering) whenDelivered.add(done); else done.run();
    }

    /** Starts delivering unless a delivery is running, a backoff is waiting, or nothing is queued. */
    void startDelivery() {
        if (stopped || delivering || retry != null || queue.isEmpty()) return;
        delivering = true;
        deliverNext();
    }

    /** Sends the oldest batch, or ends the delivery when there is none or a backoff has begun. */
    private void deliverNext() {
        if (stopped || retry != null) {
            endDelivery();
            return;
        }
        drop(queue.olderThan(clock.nowMillis() - configuration.maximumEventAge.toMillis(),
                Collections.<String>emptySet()), DropReason.TOO_OLD);
        List<EventQueue.Entry> batch = queue.oldest(batchLimit);
        if (batch.isEmpty()) {
            endDelivery();
            return;
        }
        Set<String> names = new HashSet<>();
        List<byte[]> objects = new ArrayList<>();
        for (EventQueue.Entry entry : batch) {
            names.add(entry.name);
            objects.add(entry.data);
        }
        inFlight = names;
        byte[] body = WireEvent.batchBody(objects);
        Runnable request = () -> {
            BatchOutcome outcome;
            try {
                TransportResponse response = transport.post(body, configuration.eventsURL(),
                        configuration.effectiveRequestTimeoutMillis());
                outcome = BatchOutcome.of(response, clock.nowMillis());
            } catch (IOException | RuntimeException failed) {
                outcome = BatchOutcome.networkFailure(failed.toString());
            }
            BatchOutcome answered = outcome;
            sink.onStateThread(() -> {
                inFlight = Collections.emptySet();
                // A stopped reporter leaves the queue to the next one, answered or not.
                if (stopped) return;
                settle(batch, answered);
                deliverNext();
            });
        };
        try {
            network.execute(request);
        } catch (RejectedExecutionException closing) {
            // The reporter is being closed: the batch stays queued, on disk, for the next run.
            inFlight = Collections.emptySet();
            endDelivery();
        }
    }

    private void endDelivery() {
        delivering = false;
        if (queue.isEmpty()) batchLimit = Math.max(configuration.maximumBatchSize, 1);
        List<Runnable> waiting = whenDelivered;
        whenDelivered = new ArrayList<>();
        for (Runnable next : waiting) next.run();
    }

    /** Acts on the answer to {@code batch}: settled events leave the queue, and their files, only now. */
    private void settle(List<EventQueue.Entry> batch, BatchOutcome outcome) {
        switch (outcome.kind) {
            case ACCEPTED:
            case REFUSED: {
                failures = 0;
                List<String> names = new ArrayList<>();
                for (EventQueue.Entry entry : batch) names.add(entry.name);
                // Events the bound dropped while the request was out were reported already.
                Set<String> present = new HashSet<>();
                for (EventQueue.Entry entry : queue.remove(names)) present.add(entry.name);
                List<String> delivered = new ArrayList<>();
                for (int i = 0; i < batch.size(); i++) {
                    EventQueue.Entry entry = batch.get(i);
                    if (!present.contains(entry.name)) continue;
                    ServiceError error = outcome.rejected.get(i);
                    if (error == null && outcome.kind == BatchOutcome.Kind.REFUSED) error = outcome.error;
                    if (error == null) {
                        delivered.add(entry.id);
                    } else {
                        sink.report(DeliveryReport.rejected(entry.id, entry.article, error));
                    }
                }
                if (!delivered.isEmpty()) sink.report(DeliveryReport.delivered(delivered, outcome.duplicates));
                removeStored(names);
                break;
            }
            case TOO_LARGE:
                if (batch.size() > 1) {
                    // Halves until the batches fit; back to full size once the queue is empty.
                    batchLimit = Math.max(1, batch.size() / 2);
                } else {
                    drop(batch, DropReason.TOO_LARGE);
                }
                break;
            default: {
                failures += 1;
                long delay = configuration.backoff().delayMillis(failures, outcome.retryAfterMillis,
                        ThreadLocalRandom.current().nextDouble());
                sink.report(DeliveryReport.retrying(delay, outcome.retryReason));
                retry = sink.after(delay, () -> {
                    retry = null;
                    startDelivery();
                });
            }
        }
    }

    /** Keeps a timer running while events are queued: each tick starts a delivery. */
    private void startTimer() {
        if (stopped || timer != null || queue.isEmpty()) return;
        timer = sink.after(configuration.flushInterval.toMillis(), () -> {
            timer = null;
            if (stopped || queue.isEmpty()) return;
            startDelivery();
            startTimer();
        });
    }

    /** Removes {@code entries} from the queue and its storage, unsent, and reports them. */
    void drop(List<EventQueue.Entry> entries, DropReason reason) {
        if (entries.isEmpty()) return;
        List<String> names = new ArrayList<>();
        for (EventQueue.Entry entry : entries) names.add(entry.name);
        List<String> ids = new ArrayList<>();
        for (EventQueue.Entry entry : queue.remove(names)) ids.add(entry.id);
        removeStored(names);
        if (!ids.isEmpty()) sink.report(DeliveryReport.dropped(ids, reason));
    }

    private void removeStored(List<String> names) {
        try {
            storage.remove(names);
        } catch (IOException failed) {
            // Nothing is lost or counted twice: a file left behind is sent again by the next run, and
            // the service counts a repeated id once (an unreadable one is dropped again).
        }
    }

    /** Stops for good: no more requests and no more changes to the queue, whose files stay for the next run. */
    void stop() {
        stopped = true;
        if (retry != null) retry.cancel(false);
        if (timer != null) timer.cancel(false);
        retry = null;
        timer = null;
        List<Runnable> waiting = whenDelivered;
        whenDelivered = new ArrayList<>();
        delivering = false;
        for (Runnable next : waiting) next.run();
    }
}
