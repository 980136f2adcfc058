package readingprogress.client;

import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Makes an app a reporting reader: it takes the scroll geometry of the articles on screen, computes
 * their figures on the device, turns the geometry that matters into events and delivers them to the
 * service in batches, from a queue on disk that survives the app being killed
 * (docs/android-client.md).
 *
 * <p>Create one for the app and keep it; {@link #close()} it when done. {@link #record},
 * {@link #endView} and {@link #setAppState} return at once, so that the main thread never waits on
 * the disk or the network: they hand over to the reporter's own thread, which applies them in the
 * order they were made. The request runs on a second thread, one at a time.
 */
public final class Reporter implements AutoCloseable {
    /** The newest reports kept for a listener that is not set yet. */
    private static final int BUFFERED_REPORTS = 256;
    /** java.util.logging, which Android sends to logcat. */
    private static final Logger LOG = Logger.getLogger("readingprogress.client");

    private final Configuration configuration;
    private final ReportingClock clock;
    private final ScheduledThreadPoolExecutor state;
    private final ExecutorService network;
    private final Sink sink;
    private final Delivery delivery;
    private final Map<String, ViewTracker> views = new HashMap<>();
    private final Map<String, ScheduledFuture<?>> restChecks = new HashMap<>();
    private final ArrayDeque<DeliveryReport> unheard = new ArrayDeque<>();
    private volatile boolean stopped;
    private volatile int queuedAtStop;
    private volatile Thread stateThread;
    private AppState appState = AppState.ACTIVE;
    private String reader;
    private DeliveryListener listener;

    /** A reporter with the default transport ({@link HttpTransport}), clock and storage ({@link DirectoryStorage}). */
    public Reporter(Configuration configuration) {
        this(configuration, null, null, null);
    }

    /**
     * A reporter; each of {@code transport}, {@code clock} and {@code storage} may be null for the
     * default. The queue left by an earlier run is loaded on the reporter's thread and delivered.
     */
    public Reporter(Configuration configuration, Transport transport, ReportingClock clock, EventStorage storage) {
        this.configuration = configuration.copy();
        this.configuration.check(storage != null);
        Path folder = this.configuration.queueDirectory;
        this.clock = clock != null ? clock : ReportingClock.SYSTEM;
        reader = this.configuration.reader;
        state = new ScheduledThreadPoolExecutor(1, runnable -> {
            Thread thread = new Thread(runnable, "reading-progress");
            thread.setDaemon(true);
            stateThread = thread;
            return thread;
        });
        state.setRemoveOnCancelPolicy(true);
        state.setExecuteExistingDelayedTasksAfterShutdownPolicy(false);
        network = Executors.newSingleThreadExecutor(runnable -> {
            Thread thread = new Thread(runnable, "reading-progress-delivery");
            thread.setDaemon(true);
            return thread;
        });
        sink = new Sink();
        delivery = new Delivery(this.configuration, transport != null ? transport : new HttpTransport(), this.clock,
                storage != null ? storage : new DirectoryStorage(folder), network, sink);
        onState(delivery::load);
    }

    /**
     * The view of {@code article} shows {@code snapshot} now: returns its figures at once (the bar
     * needs no round trip) and queues an event when the geometry matters. Geometry the service would
     * refuse throws, and records nothing.
     */
    public ProgressFigures record(ScrollSnapshot snapshot, String article) throws GeometryException {
        Objects.requireNonNull(article, "article");
        ProgressFigures figures = snapshot.figures();
        long now = clock.nowMillis();
        ViewTracker.Sample sample = new ViewTracker.Sample(snapshot, figures);
        onState(() -> ingest(sample, article, now));
        return figures;
    }

    /** The view of {@code article} went away: what it has not reported yet is queued. */
    public void endView(String article) {
        Objects.requireNonNull(article, "article");
        long now = clock.nowMillis();
        onState(() -> {
            cancelRestCheck(article);
            ViewTracker tracker = views.remove(article);
            if (tracker != null) enqueue(tracker.finish(now, appState == AppState.ACTIVE), article);
        });
    }

    /**
     * The app changed state. Engaged time counts only while it is {@link AppState#ACTIVE}; going to
     * the background queues what every open view has not reported yet and delivers it.
     */
    public void setAppState(AppState newState) {
        Objects.requireNonNull(newState, "newState");
        long now = clock.nowMillis();
        onState(() -> {
            boolean wasActive = appState == AppState.ACTIVE;
            for (String article : new TreeSet<>(views.keySet())) {
                ViewTracker tracker = views.get(article);
                if (newState == AppState.BACKGROUND) {
                    enqueue(tracker.finish(now, wasActive), article);
                } else {
                    tracker.advance(now, wasActive);
                }
            }
            appState = newState;
            if (newState == AppState.BACKGROUND) delivery.startDelivery();
        });
    }

    /**
     * The reader id of the events queued from now on; null for none (the service derives one). A
     * different reader ends the open views (what they have not reported goes as the reader before):
     * the next geometry of an article starts the new reader's view of it.
     */
    public void setReader(String reader) {
        long now = clock.nowMillis();
        onState(() -> {
            if (Objects.equals(reader, this.reader)) return;
            for (String article : new TreeSet<>(views.keySet())) {
                cancelRestCheck(article);
                enqueue(views.remove(article).finish(now, appState == AppState.ACTIVE), article);
            }
            this.reader = reader;
        });
    }

    /**
     * Who hears what became of the events; reports made before it was set (the newest 256) are
     * handed to it first. Null stops the reports, which are then kept for the next listener.
     */
    public void setListener(DeliveryListener listener) {
        onState(() -> {
            this.listener = listener;
            while (listener != null && !unheard.isEmpty()) hear(listener, unheard.poll());
        });
    }

    /**
     * Delivers the queue now, unless a failed request's backoff is still running (then the events go
     * when it ends); completes with how many events are still queued once that delivery has ended.
     */
    public CompletableFuture<Integer> flush() {
        CompletableFuture<Integer> done = new CompletableFuture<>();
        if (!onState(() -> delivery.flush(() -> done.complete(delivery.size())))) done.complete(queuedAtStop);
        return done;
    }

    /**
     * Events queued and not yet settled, once what was handed over before has been applied. Waits for
     * the reporter's thread: not for the main thread.
     */
    public int queuedEvents() {
        if (Thread.currentThread() == stateThread) return delivery.size();
        try {
            return state.submit(delivery::size).get();
        } catch (RejectedExecutionException stoppedMeanwhile) {
            return queuedAtStop;
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
            return queuedAtStop;
        } catch (ExecutionException cannot) {
            throw new IllegalStateException(cannot.getCause());
        }
    }

    /**
     * Stops for good: no more requests and no more changes to the queue, whose events stay stored for
     * the next reporter on the folder. Geometry recorded afterwards is not queued. Waits (a few
     * seconds at most) for what the reporter's thread is doing.
     */
    @Override
    public void close() {
        if (stopped) return;
        stopped = true;
        onState(() -> {
            delivery.stop();
            for (ScheduledFuture<?> check : restChecks.values()) check.cancel(false);
            restChecks.clear();
            queuedAtStop = delivery.size();
        });
        state.shutdown();
        network.shutdownNow();
        if (Thread.currentThread() == stateThread) return;
        try {
            state.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    private void ingest(ViewTracker.Sample sample, String article, long now) {
        if (stopped) return;
        ViewTracker tracker = views.get(article);
        if (tracker == null) {
            tracker = new ViewTracker(configuration.depthSteps, configuration.engagedInterval.toMillis(),
                    configuration.idleTimeout.toMillis());
            views.put(article, tracker);
        }
        long moveBefore = tracker.lastMove();
        enqueue(tracker.record(sample, now, appState == AppState.ACTIVE), article);
        if (tracker.lastMove() != moveBefore) watchForRest(article, configuration.restDelay.toMillis());
    }

    private void enqueue(List<ViewTracker.Draft> drafts, String article) {
        if (!stopped) delivery.enqueue(drafts, article, reader);
    }

    /** Checks {@code article} for rest once {@code delayMillis} have passed, unless a check is waiting already. */
    private void watchForRest(String article, long delayMillis) {
        if (restChecks.containsKey(article)) return;
        ScheduledFuture<?> check = sink.after(delayMillis, () -> {
            restChecks.remove(article);
            checkRest(article);
        });
        if (check != null) restChecks.put(article, check);
    }

    /** Queues what the rest of the view reports, or waits longer when the view moved meanwhile. */
    private void checkRest(String article) {
        ViewTracker tracker = views.get(article);
        if (stopped || tracker == null || tracker.lastMove() < 0) return;
        long now = clock.nowMillis();
        long still = now - tracker.lastMove();
        long delay = configuration.restDelay.toMillis();
        if (still < delay) {
            watchForRest(article, delay - still);
            return;
        }
        enqueue(tracker.rest(now, appState == AppState.ACTIVE), article);
    }

    private void cancelRestCheck(String article) {
        ScheduledFuture<?> check = restChecks.remove(article);
        if (check != null) check.cancel(false);
    }

    /** Runs {@code work} on the reporter's thread; false once the reporter has stopped. */
    private boolean onState(Runnable work) {
        try {
            state.execute(() -> guarded(work));
            return true;
        } catch (RejectedExecutionException stoppedAlready) {
            return false;
        }
    }

    private void guarded(Runnable work) {
        try {
            work.run();
        } catch (RuntimeException bug) {
            // A fault of this library must neither end the thread every later event depends on nor
            // the app (Android's default handler of uncaught exceptions kills it): it is logged, the
            // events stay queued and the next delivery tries again.
            LOG.log(Level.SEVERE, "reading-progress: a task of the reporter failed", bug);
        }
    }

    private void hear(DeliveryListener listener, DeliveryReport report) {
        try {
            listener.onReport(report);
        } catch (RuntimeException thrown) {
            // The app's listener failed: logged, and delivery goes on.
            LOG.log(Level.WARNING, "reading-progress: the delivery listener threw", thrown);
        }
    }

    /** What {@link Delivery} needs of the reporter; called on the reporter's thread. */
    final class Sink {
        void report(DeliveryReport report) {
            if (listener != null) {
                hear(listener, report);
                return;
            }
            if (unheard.size() == BUFFERED_REPORTS) unheard.poll();
            unheard.add(report);
        }

        /** Runs {@code work} on the reporter's thread, later; nothing once the reporter has stopped. */
        void onStateThread(Runnable work) {
            onState(work);
        }

        /** Runs {@code work} on the reporter's thread after {@code delayMillis}; null once it has stopped. */
        ScheduledFuture<?> after(long delayMillis, Runnable work) {
            try {
                return state.schedule(() -> guarded(work), delayMillis, TimeUnit.MILLISECONDS);
            } catch (RejectedExecutionException stoppedAlready) {
                return null;
            }
        }
    }
}
