package readingprogress.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static readingprogress.client.Support.page;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** Which geometries become events, and the engaged time they carry, with the clock in hand. */
@DisplayName("Geometry into events")
class ViewTrackerTest {
    private static final long START = 1_764_547_200_000L;

    private static ViewTracker tracker() {
        return new ViewTracker(10, 15_000, 15_000);
    }

    private static ViewTracker.Sample sample(double y) throws GeometryException {
        return new ViewTracker.Sample(page(y), page(y).figures());
    }

    private static long at(double seconds) {
        return START + (long) (seconds * 1000);
    }

    private static List<ScrollSnapshot> snapshots(List<ViewTracker.Draft> drafts) {
        List<ScrollSnapshot> snapshots = new ArrayList<>();
        for (ViewTracker.Draft draft : drafts) snapshots.add(draft.snapshot);
        return snapshots;
    }

    private static List<Long> engaged(List<ViewTracker.Draft> drafts) {
        List<Long> engaged = new ArrayList<>();
        for (ViewTracker.Draft draft : drafts) engaged.add(draft.engagedMs);
        return engaged;
    }

    @Test
    @DisplayName("the first geometry is an event; moves within a step are not; a new step of progress is")
    void steps() throws Exception {
        ViewTracker tracker = tracker();
        assertEquals(List.of(page(0)), snapshots(tracker.record(sample(0), at(0), true)));
        for (double y = 10; y <= 90; y += 10) assertTrue(tracker.record(sample(y), at(0), true).isEmpty(), "y " + y);
        assertEquals(List.of(page(100)), snapshots(tracker.record(sample(100), at(0), true)));
        // Back up and down again within steps already reported: nothing new.
        assertTrue(tracker.record(sample(20), at(0), true).isEmpty());
        assertTrue(tracker.record(sample(150), at(0), true).isEmpty());
    }

    @Test
    @DisplayName("at rest the deepest geometry short of the next step is sent once, not the resting one")
    void rest() throws Exception {
        ViewTracker tracker = tracker();
        tracker.record(sample(0), at(0), true);
        assertEquals(1, tracker.record(sample(100), at(0), true).size());
        assertTrue(tracker.record(sample(180), at(0), true).isEmpty());
        assertTrue(tracker.record(sample(120), at(0), true).isEmpty());
        assertEquals(List.of(page(180)), snapshots(tracker.rest(at(1), true)));
        assertTrue(tracker.rest(at(2), true).isEmpty());
        // The second after the rest was engaged: the view's end carries it.
        assertEquals(List.of(1_000L), engaged(tracker.finish(at(2), false)));
        assertTrue(tracker.finish(at(3), false).isEmpty());
    }

    @Test
    @DisplayName("engaged time counts while active and within the idle timeout of the last scroll")
    void engagedTime() throws Exception {
        ViewTracker tracker = tracker();
        tracker.record(sample(0), at(0), true);
        // Opening the article is not scrolling: the 10 s before the first scroll do not count.
        assertTrue(tracker.record(sample(10), at(10), true).isEmpty());
        // Engaged from 10 s to 25 s, not up to 60 s: 15 s, an event of its own.
        assertEquals(List.of(15_000L), engaged(tracker.record(sample(20), at(60), true)));
        assertTrue(tracker.record(sample(30), at(61), true).isEmpty());
        // From 61 s to 70 s the app was inactive: nothing counts.
        assertTrue(tracker.record(sample(40), at(70), false).isEmpty());
        assertEquals(List.of(1_000L), engaged(tracker.finish(at(70), false)));
        assertEquals(List.of(10_000L), engaged(tracker.finish(at(80), true)));
        assertTrue(tracker.finish(at(80), true).isEmpty());
    }

    @Test
    @DisplayName("an event carries at most a day of engaged time; the rest goes with the next")
    void dayAtMost() {
        Engagement engagement = new Engagement(200_000_000L);
        engagement.advance(at(0), true);
        engagement.scrolled(at(0));
        engagement.advance(at(90_000), true);
        assertEquals(86_400_000L, engagement.take());
        assertEquals(3_600_000L, engagement.take());
        assertEquals(0L, engagement.take());
    }

    @Test
    @DisplayName("time is counted once when the clock steps back")
    void clockBack() {
        Engagement engagement = new Engagement(15_000);
        engagement.advance(at(0), true);
        engagement.scrolled(at(0));
        engagement.advance(at(10), true);
        engagement.advance(at(5), true);
        engagement.advance(at(12), true);
        assertEquals(12_000L, engagement.take());
    }

    @Test
    @DisplayName("seen depth that grows while progress stays, as a region becomes known, is an event too")
    void seenDepthAlone() throws Exception {
        ViewTracker tracker = tracker();
        ScrollSnapshot whole = page(0).toBuilder().contentSize(400, 3000).build();
        assertEquals(1, tracker.record(new ViewTracker.Sample(whole, whole.figures()), at(0), true).size());
        assertTrue(tracker.record(new ViewTracker.Sample(whole, whole.figures()), at(1), true).isEmpty());
        ScrollSnapshot body = whole.toBuilder().region(new Region(0, 1200)).build();
        assertEquals(0, body.figures().progress);
        assertEquals(List.of(body), snapshots(tracker.record(new ViewTracker.Sample(body, body.figures()), at(2), true)));
    }

    @Test
    @DisplayName("content that cannot scroll is one event: progress stays 0, seen depth 1")
    void unscrollable() throws Exception {
        ViewTracker tracker = tracker();
        ScrollSnapshot flat = page(0).toBuilder().contentSize(400, 800).build();
        assertEquals(1, tracker.record(new ViewTracker.Sample(flat, flat.figures()), at(0), true).size());
        assertTrue(tracker.record(new ViewTracker.Sample(flat, flat.figures()), at(1), true).isEmpty());
        assertTrue(tracker.rest(at(2), true).isEmpty());
    }
}
