package readingprogress.client;

/**
 * One snapshot of a scroll view, as a reading client reports it: the input of the figures
 * (docs/api.md, "The figures"). Immutable; build one with {@link #builder()} or
 * {@link #vertical(double, double, double)}, and call {@link #figures()} to validate it and compute
 * its {@link ProgressFigures}.
 */
public final class ScrollSnapshot {
    /** Which way the view scrolls; the figures read only this axis's half of the geometry. */
    public final ScrollAxis axis;
    /** How far the content is scrolled (a view's {@code getScrollY()}). */
    public final Point contentOffset;
    /** The size of the whole scrollable content, such as the article. */
    public final Size contentSize;
    /** The size of the viewport the content scrolls in. */
    public final Size containerSize;
    /** Space added around the content. */
    public final Insets contentInsets;
    /** Where the article body lies along the axis; null for all of the content. */
    public final Region region;
    /** The reader's place in a multi-step flow; null outside one. */
    public final Step step;
    /** The horizontal indicator's geometry; null for {@link Indicator#STANDARD}. */
    public final Indicator indicator;

    private ScrollSnapshot(Builder builder) {
        axis = builder.axis;
        contentOffset = builder.contentOffset;
        contentSize = builder.contentSize;
        containerSize = builder.containerSize;
        contentInsets = builder.contentInsets;
        region = builder.region;
        step = builder.step;
        indicator = builder.indicator;
    }

    /** A builder with the vertical axis, zeros everywhere and nothing optional. */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * A vertical geometry without insets: scrolled {@code offsetY} down content {@code contentHeight}
     * tall in a container {@code containerHeight} tall (widths 0, which no figure reads).
     */
    public static ScrollSnapshot vertical(double offsetY, double contentHeight, double containerHeight) {
        return builder().contentOffset(0, offsetY).contentSize(0, contentHeight).containerSize(0, containerHeight)
                .build();
    }

    /** A builder holding this geometry, to change a part of it. */
    public Builder toBuilder() {
        Builder builder = new Builder();
        builder.axis = axis;
        builder.contentOffset = contentOffset;
        builder.contentSize = contentSize;
        builder.containerSize = containerSize;
        builder.contentInsets = contentInsets;
        builder.region = region;
        builder.step = step;
        builder.indicator = indicator;
        return builder;
    }

    /**
     * Validates the geometry (every number finite, sizes and insets at least 0, the region inside
     * the content, the step and indicator well formed) and computes the figures along
     * {@link #axis}. Throws the first problem found, in the order of the event's fields.
     */
    public ProgressFigures figures() throws GeometryException {
        Validation.validate(this);
        return Figures.of(this);
    }

    @Override
    public boolean equals(Object other) {
        if (!(other instanceof ScrollSnapshot)) return false;
        ScrollSnapshot that = (ScrollSnapshot) other;
        return axis == that.axis && contentOffset.equals(that.contentOffset) && contentSize.equals(that.contentSize)
                && containerSize.equals(that.containerSize) && contentInsets.equals(that.contentInsets)
                && java.util.Objects.equals(region, that.region) && java.util.Objects.equals(step, that.step)
                && java.util.Objects.equals(indicator, that.indicator);
    }

    @Override
    public int hashCode() {
        return java.util.Objects.hash(axis, contentOffset, contentSize, containerSize, contentInsets, region, step,
                indicator);
    }

    @Override
    public String toString() {
        return axis.wireName() + " offset " + contentOffset + " content " + contentSize + " container "
                + containerSize;
    }

    /** Builds a {@link ScrollSnapshot}; nothing is checked until {@link ScrollSnapshot#figures()}. */
    public static final class Builder {
        private ScrollAxis axis = ScrollAxis.VERTICAL;
        private Point contentOffset = new Point(0, 0);
        private Size contentSize = new Size(0, 0);
        private Size containerSize = new Size(0, 0);
        private Insets contentInsets = Insets.ZERO;
        private Region region;
        private Step step;
        private Indicator indicator;

        private Builder() {}

        /** The axis; vertical unless set. */
        public Builder axis(ScrollAxis axis) {
            this.axis = java.util.Objects.requireNonNull(axis, "axis");
            return this;
        }

        /** How far the content is scrolled. */
        public Builder contentOffset(double x, double y) {
            contentOffset = new Point(x, y);
            return this;
        }

        /** The size of the whole content. */
        public Builder contentSize(double width, double height) {
            contentSize = new Size(width, height);
            return this;
        }

        /** The size of the viewport. */
        public Builder containerSize(double width, double height) {
            containerSize = new Size(width, height);
            return this;
        }

        /** The insets around the content; zeros unless set. */
        public Builder contentInsets(double top, double leading, double bottom, double trailing) {
            contentInsets = new Insets(top, leading, bottom, trailing);
            return this;
        }

        /** Where the article body lies along the axis; null (the default) for all of the content. */
        public Builder region(Region region) {
            this.region = region;
            return this;
        }

        /** The place in a multi-step flow; null (the default) outside one. */
        public Builder step(Step step) {
            this.step = step;
            return this;
        }

        /** The horizontal indicator; null (the default) for the standard one. */
        public Builder indicator(Indicator indicator) {
            this.indicator = indicator;
            return this;
        }

        /** The geometry. */
        public ScrollSnapshot build() {
            return new ScrollSnapshot(this);
        }
    }
}
