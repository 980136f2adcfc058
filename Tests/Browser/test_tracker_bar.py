"""The reading progress bar that /tracker.js draws for `data-bar` (docs/tracker.md), in headless
Chromium: its filled width, read from the pixels drawn, and its ARIA values against the article's
progress computed here from the page's own geometry; where it stands on the page; layout shift,
reduced motion, one measurement a frame; an inner scroller, a sticky header, a single-page app and
the back-forward cache."""

import unittest

from pixels import viewport_row
from tracker_support import NEWS_CSS, TrackerTestCase, page, paragraphs, wait_until

RED = {"bar": "top", "bar-color": "rgb(255, 0, 0)", "bar-height": "6"}

# Records every layout shift from the start of the page.
SHIFTS = """<script>window.shifts = [];
new PerformanceObserver(list => shifts.push(...list.getEntries().map(e => e.value)))
  .observe({type: 'layout-shift', buffered: true});</script>"""

BAR = """const b = document.querySelectorAll('reading-progress, [role=progressbar]'), e = b[0];
if (!e) return {count: 0};
const r = e.getBoundingClientRect(), s = getComputedStyle(e);
return {count: b.length, role: e.getAttribute('role'), label: e.getAttribute('aria-label'),
        now: e.getAttribute('aria-valuenow'), text: e.getAttribute('aria-valuetext'),
        top: r.top, bottom: r.bottom, left: r.left, width: r.width, height: r.height,
        pointer: s.pointerEvents, transition: s.transitionDuration, animations: e.getAnimations().length,
        parent: e.parentElement.tagName, width_viewport: document.documentElement.clientWidth,
        height_viewport: innerHeight};"""


def sectioned(count=6):
    """An article in wrappers with h2 and h3 headings every few paragraphs."""
    return "".join(f'<div class="part"><header><h{2 + i % 2}>Part {i}</h{2 + i % 2}></header>{paragraphs(5, f"s{i}p")}</div>'
                   for i in range(count))


def progress(geometry):
    """§3's progress with the article as the content (docs/tracker.md, "The bar")."""
    y, view, start, end = geometry["y"], geometry["container"], geometry["start"], geometry["end"]
    scrollable = end - start - view
    return (min(1.0, max(0.0, (y - start) / scrollable)) if scrollable > 0 else 0.0), 1.0 / max(scrollable, 1)


def reddish(pixel):
    r, g, b = pixel
    return r > 80 and g < 80 and b < 80


class BarTests(TrackerTestCase):
    def bar(self):
        return self.browser.run(BAR)

    def assert_bar_shows(self, geometry):
        """The bar's ARIA values and the red pixels of its row show the article's progress."""
        expected, pixel = progress(geometry)
        state = wait_until(lambda: (lambda s: s if s["now"] is not None and
                                    abs(int(s["now"]) - expected * 100) <= 0.5 + 100 * pixel else None)(self.bar()),
                           message=lambda: f"the bar at {expected:.4f}: {self.bar()}")
        self.assertEqual(state["text"], state["now"] + "%")
        row = viewport_row(self.driver, state["top"] + state["height"] / 2, state["width_viewport"])
        filled = sum(1 for p in row if reddish(p))
        self.assertLessEqual(abs(filled - expected * len(row)), 2 + pixel * len(row),
                             f"{filled} of {len(row)} pixels filled, expected {expected:.4f}")
        return state, row

    def test_a_page_without_data_bar_gets_no_element(self):
        self.open("/bar/none.html", page(self.service, f"<article>{sectioned()}</article>"))
        wait_until(lambda: self.events_sent(), message="the first event")
        self.assertEqual(self.bar(), {"count": 0})
        self.assertEqual(self.browser.run("return [...document.documentElement.children].map(e => e.tagName)"),
                         ["HEAD", "BODY"])

    def test_the_bar_follows_the_article_between_masthead_and_comments(self):
        body = f"""<header class="masthead"><h1>The Daily Scroll</h1></header>
        <article>{sectioned()}</article><section class="comments"><h2>Comments</h2></section><footer>footer</footer>"""
        self.open("/bar/news.html", page(self.service, body, css=NEWS_CSS, attributes=RED, head=SHIFTS))
        state, _ = self.assert_bar_shows(self.window_figures().geometry)  # the article's top below the window's
        self.assertEqual(state["now"], "0")
        self.assertEqual((state["count"], state["role"], state["label"], state["parent"]),
                         (1, "progressbar", "Reading progress", "HTML"))
        self.assertEqual((state["top"], state["left"], state["height"], state["width"]),
                         (0, 0, 6, state["width_viewport"]))
        self.assertEqual(state["pointer"], "none")
        self.assertNotEqual(self.browser.run("return document.elementFromPoint(200, 3).tagName"), "READING-PROGRESS")

        geometry = self.window_figures().geometry
        self.scroll_to((geometry["start"] + geometry["end"] - geometry["container"]) / 2)
        _, row = self.assert_bar_shows(self.window_figures().geometry)
        self.assertTrue(0.3 < int(self.bar()["now"]) / 100 < 0.7, self.bar())
        # The headings of the first event's map as ticks: darker pixels where each starts.
        sections = [e for e in self.events_sent() if "sections" in e][0]["sections"]
        self.assertEqual([s["title"] for s in sections], [f"Part {i}" for i in range(6)])
        for section in sections:
            x = int(section["start"] * len(row))
            self.assertTrue(any(max(p) < 200 and p[1] < 180 and p != (255, 0, 0) for p in row[x:x + 5]),
                            f"a tick at {x}: {row[x:x + 5]}")
        self.browser.screenshot("tracker-bar", full_page=False)

        self.scroll_to(geometry["end"] - geometry["container"])  # the article's end at the window's bottom
        end = self.window_figures().geometry
        self.assertLessEqual(abs(end["y"] + end["container"] - end["end"]), 60, end)
        self.assert_bar_shows(end)
        self.scroll_to(end["y"] + 900)  # into the comments
        state, _ = self.assert_bar_shows(self.window_figures().geometry)
        self.assertEqual((state["now"], state["text"]), ("100", "100%"))
        self.assertEqual(self.browser.run("return shifts"), [])
        self.assert_page_unbroken()

    def test_at_the_bottom_with_the_default_height(self):
        self.open("/bar/bottom.html", page(self.service, f"<article>{sectioned()}</article>",
                                           attributes={"bar": "bottom"}))
        state = wait_until(lambda: (lambda s: s if s.get("now") is not None else None)(self.bar()),
                           message="the bar drawn")
        self.assertEqual((state["bottom"], state["height"]), (state["height_viewport"], 3))

    def test_an_inner_scroller_under_a_sticky_header(self):
        css = """header.sticky { position: sticky; top: 0; height: 64px; background: #000; z-index: 1000; }
        body { overflow: hidden; } main { position: relative; height: calc(100vh - 64px); overflow-y: auto; }
        .intro { height: 400px; } .comments { height: 1500px; }"""
        body = f"""<header class="sticky">site</header><main><div class="intro">intro</div>
        <article>{sectioned()}</article><div class="comments">comments</div></main>"""
        self.open("/bar/pane.html", page(self.service, body, css=css, attributes=RED))
        self.scroll_to(1500, scroller="main")
        state, row = self.assert_bar_shows(self.element_figures("main").geometry)
        self.assertGreater(int(state["now"]), 10)
        self.assertFalse(any(p == (0, 0, 0) for p in row[:10]), "the bar is drawn over the sticky header")

    def test_measured_once_a_frame_however_many_scroll_events(self):
        self.open("/bar/frames.html", page(self.service, f"<article>{sectioned()}</article>", attributes=RED))
        wait_until(lambda: self.events_sent(), message="the first event")
        calls = self.driver.execute_async_script("""
        const done = arguments[arguments.length - 1];
        let calls = 0;
        const own = Element.prototype.getBoundingClientRect;
        Element.prototype.getBoundingClientRect = function () { calls++; return own.call(this) };
        for (let i = 0; i < 50; i++) { scrollBy(0, 10); dispatchEvent(new Event('scroll')) }
        requestAnimationFrame(() => requestAnimationFrame(() => {
          Element.prototype.getBoundingClientRect = own;
          done(calls);
        }));""")
        self.assertGreaterEqual(calls, 1)
        self.assertLessEqual(calls, 3, "one measurement a frame, not one a scroll event")
        self.assert_bar_shows(self.window_figures().geometry)

    def test_nothing_moves_under_reduced_motion(self):
        self.driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {
            "features": [{"name": "prefers-reduced-motion", "value": "reduce"}]})
        self.addCleanup(self.driver.execute_cdp_cmd, "Emulation.setEmulatedMedia", {"features": []})
        self.open("/bar/still.html", page(self.service, f"<article>{sectioned()}</article>", attributes=RED))
        self.assertTrue(self.browser.run("return matchMedia('(prefers-reduced-motion: reduce)').matches"))
        self.scroll_to(900)
        state, _ = self.assert_bar_shows(self.window_figures().geometry)
        self.assertEqual((state["transition"], state["animations"]), ("0s", 0))

    def test_a_single_page_app_restarts_it_and_a_restored_page_keeps_it(self):
        app = """<script>
        const parts = {'/bar/app/one': 6, '/bar/app/two': 3};
        function render(path) {
          document.querySelector('#app').innerHTML = `<header class="masthead">${path}</header><article>` +
            Array.from({length: parts[path] || 2}, (_, i) => `<h2>${path} ${i}</h2>` + '<p>Reading on. </p>'.repeat(60)).join('') +
            '</article><section class="comments">comments</section>';
        }
        window.go = path => { history.pushState({}, '', path); render(path); scrollTo(0, 0) };
        addEventListener('popstate', () => render(location.pathname));
        render(location.pathname);
        </script>"""
        text = page(self.service, '<div id="app"></div>' + app, css=NEWS_CSS, attributes=RED)
        for path in ("/bar/app/one", "/bar/app/two"):
            self.serve(path, text)
        self.serve("/bar/elsewhere.html", page(self.service, "<p>elsewhere</p>"))
        self.open("/bar/app/one")
        self.scroll_to(2500)
        self.assertGreater(int(self.assert_bar_shows(self.window_figures().geometry)[0]["now"]), 5)

        self.browser.run("go('/bar/app/two')")
        state, _ = self.assert_bar_shows(self.window_figures().geometry)
        self.assertEqual(state["now"], "0")
        self.scroll_to(1200)
        self.assertGreater(int(self.assert_bar_shows(self.window_figures().geometry)[0]["now"]), 0)
        wait_until(lambda: [e for e in self.events_sent() if e["article"] == "/bar/app/two" and "sections" in e],
                   message="the second article's map")

        # Away and back: the page comes out of the back-forward cache with its one bar, as it was.
        self.browser.run("addEventListener('pageshow', e => { if (e.persisted) window.restored = true })")
        before = self.window_figures().geometry
        self.browser.run(f"location.href = {self.pages.url('/bar/elsewhere.html')!r}")
        wait_until(lambda: self.browser.run("return location.pathname") == "/bar/elsewhere.html", message="away")
        self.driver.back()
        wait_until(lambda: self.browser.run("return window.restored === true"), message="restored from the cache")
        restored = self.window_figures().geometry
        self.assertEqual(restored["y"], before["y"])
        state, _ = self.assert_bar_shows(restored)
        self.assertEqual(state["count"], 1)
        self.scroll_to(restored["y"] + 600)
        self.assert_bar_shows(self.window_figures().geometry)
        self.assert_page_unbroken()


if __name__ == "__main__":
    unittest.main()
