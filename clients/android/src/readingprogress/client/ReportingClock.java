package readingprogress.client;

/**
 * The time of events, engaged time and rest, as a {@link Reporter} reads it. The system's wall
 * clock in an app; a test holds the time still and moves it by hand. The waits between deliveries
 * are real time whatever the clock says.
 */
public interface ReportingClock {
    /** The wall clock. */
    ReportingClock SYSTEM = System::currentTimeMillis;

    /** Milliseconds since 1970, UTC. */
    long nowMillis();
}
