package readingprogress.client;

import java.util.ArrayList;
import java.util.List;

/** Every report a reporter makes, kept as it comes. */
final class ReportLog implements DeliveryListener {
    private final List<DeliveryReport> kept = new ArrayList<>();

    static ReportLog of(Reporter reporter) {
        ReportLog log = new ReportLog();
        reporter.setListener(log);
        return log;
    }

    @Override
    public synchronized void onReport(DeliveryReport report) {
        kept.add(report);
    }

    synchronized List<DeliveryReport> all() {
        return new ArrayList<>(kept);
    }

    synchronized List<DeliveryReport> of(DeliveryReport.Kind kind) {
        List<DeliveryReport> found = new ArrayList<>();
        for (DeliveryReport report : kept) {
            if (report.kind == kind) found.add(report);
        }
        return found;
    }

    List<String> deliveredIds() {
        List<String> ids = new ArrayList<>();
        for (DeliveryReport report : of(DeliveryReport.Kind.DELIVERED)) ids.addAll(report.eventIds);
        return ids;
    }

    int duplicates() {
        int total = 0;
        for (DeliveryReport report : of(DeliveryReport.Kind.DELIVERED)) total += report.duplicates;
        return total;
    }

    List<String> dropped(DropReason reason) {
        List<String> ids = new ArrayList<>();
        for (DeliveryReport report : of(DeliveryReport.Kind.DROPPED)) {
            if (report.dropReason == reason) ids.addAll(report.eventIds);
        }
        return ids;
    }
}
