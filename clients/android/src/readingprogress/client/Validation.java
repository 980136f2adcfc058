package readingprogress.client;

/**
 * The rules of an event's geometry (docs/api.md), checked field by field in the order of its table:
 * the first problem found is thrown, with the field and the message the service would give.
 */
final class Validation {
    private Validation() {}

    static void validate(ScrollSnapshot snapshot) throws GeometryException {
        requireFinite(snapshot.contentOffset.x, "contentOffset.x");
        requireFinite(snapshot.contentOffset.y, "contentOffset.y");
        requireNonNegative(snapshot.contentSize.width, "contentSize.width");
        requireNonNegative(snapshot.contentSize.height, "contentSize.height");
        requireNonNegative(snapshot.containerSize.width, "containerSize.width");
        requireNonNegative(snapshot.containerSize.height, "containerSize.height");
        requireNonNegative(snapshot.contentInsets.top, "contentInsets.top");
        requireNonNegative(snapshot.contentInsets.leading, "contentInsets.leading");
        requireNonNegative(snapshot.contentInsets.bottom, "contentInsets.bottom");
        requireNonNegative(snapshot.contentInsets.trailing, "contentInsets.trailing");
        if (snapshot.region != null) {
            double content = snapshot.axis == ScrollAxis.VERTICAL ? snapshot.contentSize.height
                    : snapshot.contentSize.width;
            validate(snapshot.region, content);
        }
        if (snapshot.step != null) {
            if (snapshot.step.index < 0) throw new GeometryException("step.index", "step.index must be ≥ 0");
            if (snapshot.step.total < 1) throw new GeometryException("step.total", "step.total must be ≥ 1");
        }
        if (snapshot.indicator != null) validate(snapshot.indicator);
    }

    private static void validate(Region region, double content) throws GeometryException {
        requireFinite(region.start, "region.start");
        requireFinite(region.end, "region.end");
        if (!(region.start >= 0 && region.start <= content)) {
            throw GeometryException.outsideContent("region.start", content);
        }
        if (!(region.end >= 0 && region.end <= content)) throw GeometryException.outsideContent("region.end", content);
        if (!(region.start < region.end)) throw GeometryException.emptyRegion(content);
    }

    private static void validate(Indicator indicator) throws GeometryException {
        requireFinite(indicator.trackLength, "indicator.trackLength");
        if (!(indicator.trackLength > 0)) {
            throw new GeometryException("indicator.trackLength", "indicator.trackLength must be > 0");
        }
        requireNonNegative(indicator.thumbLength, "indicator.thumbLength");
        if (!(indicator.thumbLength <= indicator.trackLength)) {
            throw new GeometryException("indicator.thumbLength", "indicator.thumbLength must be ≤ "
                    + "indicator.trackLength (" + GeometryException.plainText(indicator.trackLength) + ")");
        }
    }

    private static void requireFinite(double value, String field) throws GeometryException {
        if (!Double.isFinite(value)) throw GeometryException.notFinite(field);
    }

    private static void requireNonNegative(double value, String field) throws GeometryException {
        requireFinite(value, field);
        if (!(value >= 0)) throw GeometryException.negative(field);
    }
}
