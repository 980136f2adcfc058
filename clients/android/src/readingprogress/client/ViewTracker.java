package readingprogress.client;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * Decides, for one view of an article, which of the geometries it is shown become events: the
 * first; one that takes progress or seen depth into a new step; the deepest ones when scrolling
 * comes to rest or the view goes away, when the events so far fall short of them; one whenever
 * enough engaged time has gathered. Everything else only moves the bar.
 */
final class ViewTracker {
    /** One geometry and its figures. */
    static final class Sample {
        final ScrollSnapshot snapshot;
        final ProgressFigures figures;

        Sample(ScrollSnapshot snapshot, ProgressFigures figures) {
            this.snapshot = snapshot;
            this.figures = figures;
        }
    }

    /** An event to queue: the geometry it reports, the engaged time it carries, when it happened. */
    static final class Draft {
        final ScrollSnapshot snapshot;
        final long engagedMs;
        final long time;

        Draft(ScrollSnapshot snapshot, long engagedMs, long time) {
            this.snapshot = snapshot;
            this.engagedMs = engagedMs;
            this.time = time;
        }
    }

    private final int depthSteps;
    private final long engagedIntervalMillis;
    private Sample latest;
    /** When the content last moved, for telling that scrolling came to rest; -1 before a move. */
    private long lastMove = -1;
    private Sample deepestProgress;
    private Sample deepestSeen;
    /** The greatest figures the view's events carried so far; -1 before the first. */
    private double sentProgress = -1;
    private double sentSeen = -1;
    private final Engagement engagement;

    ViewTracker(int depthSteps, long engagedIntervalMillis, long idleTimeoutMillis) {
        this.depthSteps = Math.max(depthSteps, 1);
        this.engagedIntervalMillis = engagedIntervalMillis;
        engagement = new Engagement(idleTimeoutMillis);
    }

    /** When the content last moved; -1 when it never has. */
    long lastMove() {
        return lastMove;
    }

    /** The view shows {@code sample} at {@code now}; {@code active}: the app was active since the last call. */
    List<Draft> record(Sample sample, long now, boolean active) {
        engagement.advance(now, active);
        if (latest != null && moved(latest.snapshot.contentOffset, sample.snapshot.contentOffset)) {
            engagement.scrolled(now);
            lastMove = now;
        }
        latest = sample;
        if (deepestProgress == null || sample.figures.progress > deepestProgress.figures.progress) {
            deepestProgress = sample;
        }
        if (deepestSeen == null || sample.figures.seenDepth > deepestSeen.figures.seenDepth) deepestSeen = sample;
        if (step(sample.figures.progress) > step(sentProgress) || step(sample.figures.seenDepth) > step(sentSeen)
                || engagement.pendingMillis() >= engagedIntervalMillis) {
            return Collections.singletonList(emit(sample, now));
        }
        return Collections.emptyList();
    }

    /**
     * Scrolling has come to rest: the deepest geometries not yet reported, or the latest when enough
     * engaged time has gathered.
     */
    List<Draft> rest(long now, boolean active) {
        engagement.advance(now, active);
        List<Draft> drafts = catchUp(now);
        if (drafts.isEmpty() && latest != null && engagement.pendingMillis() >= engagedIntervalMillis) {
            drafts.add(emit(latest, now));
        }
        return drafts;
    }

    /**
     * The view goes away or the app goes to the background: what {@link #rest} sends, or the latest
     * when any engaged time is left.
     */
    List<Draft> finish(long now, boolean active) {
        engagement.advance(now, active);
        List<Draft> drafts = catchUp(now);
        if (drafts.isEmpty() && latest != null && engagement.pendingMillis() >= 1) drafts.add(emit(latest, now));
        return drafts;
    }

    /** Counts time up to {@code now} without a new geometry (the app changes state). */
    void advance(long now, boolean active) {
        engagement.advance(now, active);
    }

    /** The deepest geometries, by progress and by seen depth, that go further than the events so far. */
    private List<Draft> catchUp(long now) {
        List<Draft> drafts = new ArrayList<>();
        if (deepestProgress != null && deepestProgress.figures.progress > sentProgress) {
            drafts.add(emit(deepestProgress, now));
        }
        // Usually the same geometry, which the first event has covered.
        if (deepestSeen != null && deepestSeen.figures.seenDepth > sentSeen) drafts.add(emit(deepestSeen, now));
        return drafts;
    }

    private Draft emit(Sample sample, long now) {
        sentProgress = Math.max(sentProgress, sample.figures.progress);
        sentSeen = Math.max(sentSeen, sample.figures.seenDepth);
        return new Draft(sample.snapshot, engagement.take(), now);
    }

    /** Whether the content moved: -0 and 0 are the same place. */
    private static boolean moved(Point before, Point after) {
        return before.x != after.x || before.y != after.y;
    }

    /** Which of the steps a figure in 0…1 lies in; -1 before the first event. */
    private int step(double figure) {
        return figure < 0 ? -1 : (int) Math.floor(figure * depthSteps);
    }
}
