package readingprogress.client;

/**
 * Why a request is to be tried again: no answer at all (the connection failed or timed out), or an
 * answer that asks to come back later (408, 429, 5xx) or blames no event (such as a 404 from a
 * wrong endpoint, which a fixed deployment may cure).
 */
public final class RetryReason {
    /** The status of the answer; 0 when none came. */
    public final int status;
    /** The network error's description; null when an answer came. */
    public final String networkError;

    private RetryReason(int status, String networkError) {
        this.status = status;
        this.networkError = networkError;
    }

    static RetryReason network(String description) {
        return new RetryReason(0, description);
    }

    static RetryReason status(int status) {
        return new RetryReason(status, null);
    }

    /** Whether no answer came. */
    public boolean isNetwork() {
        return status == 0;
    }

    @Override
    public String toString() {
        return isNetwork() ? "network: " + networkError : "status " + status;
    }
}
