package readingprogress.client;

/**
 * The geometry of an Android scroll container (a ScrollView or NestedScrollView with one child) as
 * the view system reports it, in pixels, turned into a {@link ScrollSnapshot} in dp. Kept here, and
 * tested, so that the Android glue only reads the view's numbers.
 *
 * <p>Android's {@code getScrollY()} is 0 at rest whatever the padding, and at most
 * {@code childHeight + paddingTop + paddingBottom − height}; the client's offset is
 * {@code scrollY − paddingTop} with the padding as insets, which gives the same progress.
 */
public final class ViewGeometry {
    private ViewGeometry() {}

    /**
     * A vertical scroll container: its scroll position, its child's size, its own size and padding,
     * all in pixels, and the display's density (pixels per dp). {@code bodyTop} and
     * {@code bodyBottom} are where the article's own view lies inside the child, in pixels; pass
     * {@code bodyBottom <= bodyTop} for none.
     */
    public static ScrollSnapshot ofScrollView(int scrollX, int scrollY, int childWidth, int childHeight, int width,
            int height, int paddingTop, int paddingBottom, float density, int bodyTop, int bodyBottom) {
        double dp = density > 0 ? density : 1;
        ScrollSnapshot.Builder geometry = ScrollSnapshot.builder()
                .contentOffset(scrollX / dp, (scrollY - paddingTop) / dp)
                .contentSize(childWidth / dp, childHeight / dp)
                .containerSize(width / dp, height / dp)
                .contentInsets(paddingTop / dp, 0, paddingBottom / dp, 0);
        int top = Math.max(bodyTop, 0);
        int bottom = Math.min(bodyBottom, childHeight);
        if (bottom > top) geometry.region(new Region(top / dp, bottom / dp));
        return geometry.build();
    }
}
