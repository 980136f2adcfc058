package readingprogress.android;

import android.graphics.Rect;
import android.view.View;
import android.view.ViewGroup;
import androidx.core.widget.NestedScrollView;
import readingprogress.client.GeometryException;
import readingprogress.client.ProgressFigures;
import readingprogress.client.Reporter;
import readingprogress.client.ScrollSnapshot;
import readingprogress.client.ViewGeometry;

/**
 * Reports a vertical ScrollView or NestedScrollView (one child, the content) to a Reporter. Not
 * compiled by this project (no Android SDK here): it only reads the view's numbers; turning them
 * into geometry (ViewGeometry), every figure and every decision is the tested library's.
 */
public final class ScrollReporter implements View.OnScrollChangeListener, NestedScrollView.OnScrollChangeListener {
    /** Hears the figures of each geometry, for a progress bar; called on the main thread. */
    public interface Bar {
        void show(ProgressFigures figures);
    }

    private final Reporter reporter;
    private final String article;
    private final View body;
    private final Bar bar;

    private ScrollReporter(Reporter reporter, String article, View body, Bar bar) {
        this.reporter = reporter;
        this.article = article;
        this.body = body;
        this.bar = bar;
    }

    /** Reports {@code scrollView} as {@code article}; {@code body} (or null) is the article's own view inside it. */
    public static ScrollReporter attach(ViewGroup scrollView, Reporter reporter, String article, View body, Bar bar) {
        ScrollReporter adapter = new ScrollReporter(reporter, article, body, bar);
        scrollView.setOnScrollChangeListener(adapter);
        scrollView.addOnLayoutChangeListener((v, l, t, r, b, oldL, oldT, oldR, oldB) -> adapter.report(scrollView));
        scrollView.addOnAttachStateChangeListener(new View.OnAttachStateChangeListener() {
            @Override public void onViewAttachedToWindow(View view) {}
            @Override public void onViewDetachedFromWindow(View view) { reporter.endView(article); }
        });
        return adapter;
    }

    @Override public void onScrollChange(View view, int x, int y, int oldX, int oldY) { report((ViewGroup) view); }

    @Override public void onScrollChange(NestedScrollView view, int x, int y, int oldX, int oldY) { report(view); }

    private void report(ViewGroup scrollView) {
        if (scrollView.getChildCount() == 0) return;
        View content = scrollView.getChildAt(0);
        int bodyTop = 0;
        int bodyBottom = 0;
        if (body != null && content instanceof ViewGroup) {
            Rect extent = new Rect();
            body.getDrawingRect(extent);
            ((ViewGroup) content).offsetDescendantRectToMyCoords(body, extent);
            bodyTop = extent.top;
            bodyBottom = extent.bottom;
        }
        ScrollSnapshot geometry = ViewGeometry.ofScrollView(scrollView.getScrollX(), scrollView.getScrollY(),
                content.getWidth(), content.getHeight(), scrollView.getWidth(), scrollView.getHeight(),
                scrollView.getPaddingTop(), scrollView.getPaddingBottom(),
                scrollView.getResources().getDisplayMetrics().density, bodyTop, bodyBottom);
        try {
            ProgressFigures figures = reporter.record(geometry, article);
            if (bar != null) bar.show(figures);
        } catch (GeometryException impossible) {
            // Sizes from the view system are never negative and the body is clipped to the child:
            // the library refuses nothing it is given here.
        }
    }
}
