package readingprogress.client;

/**
 * Hears what became of the queued events. Called on the reporter's own thread, one report after
 * another: return quickly, and hand anything slow to another thread.
 */
public interface DeliveryListener {
    /** One report. */
    void onReport(DeliveryReport report);
}
