package readingprogress.client;

/** The app's state, as the process lifecycle reports it. */
public enum AppState {
    /** In the foreground and interactive: engaged time counts. */
    ACTIVE,
    /** Visible but not interactive (a dialog of the system over it): engaged time stops. */
    INACTIVE,
    /** In the background: what every open view has is queued and delivered. */
    BACKGROUND
}
