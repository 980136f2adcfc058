package readingprogress.android;

import androidx.lifecycle.DefaultLifecycleObserver;
import androidx.lifecycle.LifecycleOwner;
import androidx.lifecycle.ProcessLifecycleOwner;
import readingprogress.client.AppState;
import readingprogress.client.Reporter;

/**
 * Tells a Reporter the process's state: resumed is active, paused inactive, stopped background
 * (which queues what the open views have and delivers it). Not compiled by this project.
 */
public final class AppStateReporter implements DefaultLifecycleObserver {
    private final Reporter reporter;

    private AppStateReporter(Reporter reporter) {
        this.reporter = reporter;
    }

    /** Call once, on the main thread, from {@code Application.onCreate}. */
    public static void install(Reporter reporter) {
        ProcessLifecycleOwner.get().getLifecycle().addObserver(new AppStateReporter(reporter));
    }

    @Override public void onResume(LifecycleOwner owner) { reporter.setAppState(AppState.ACTIVE); }

    @Override public void onPause(LifecycleOwner owner) { reporter.setAppState(AppState.INACTIVE); }

    @Override public void onStop(LifecycleOwner owner) { reporter.setAppState(AppState.BACKGROUND); }
}
