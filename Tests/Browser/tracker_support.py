"""What the tracker's browser tests share: test pages that embed /tracker.js from the service
(served from another origin), scrolling like a reader (wheel input), hiding and leaving a page,
the geometry a page has at a given moment, the figures the statistics must then show, and the
events the browser sent.

The figures are computed here from the page's own geometry, read in the browser with other DOM
properties than the tracker uses (`offsetTop` and `offsetHeight` for the article), and compared
with what `GET /v1/articles/{id}/stats` shows within a pixel's worth.
"""

import html
import json
import socket
import time
import urllib.parse

from support import LiveTestCase, StaticServer, wait_until

# A paragraph of filler text: real text, so the article's height is whatever the browser lays out.
FILLER = (
    "A reader scrolls through the story at their own pace, stopping at a figure, skipping a "
    "paragraph, coming back to a quotation. The article's true depth is how far of it they saw, "
    "not how far down the page the comments go. "
)


def paragraphs(count, prefix="p"):
    return "".join(f'<p id="{prefix}{i}">{FILLER * 3}</p>' for i in range(count))


def page(service, body, title="Article", css="", attributes=None, head="", after=""):
    """A complete test page: `body`, then the snippet of docs/tracker.md with `attributes`
    (`data-…` names without the prefix), then `after` (scripts that run after the tracker)."""
    data = " ".join(f'data-{name}="{html.escape(value)}"' for name, value in (attributes or {}).items())
    return f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>{html.escape(title)}</title>
<meta name="viewport" content="width=device-width">
<link rel="icon" href="data:,">
<style>body {{ margin: 0; font: 18px/1.6 Georgia, serif; }} p {{ margin: 0 0 1em; }} {css}</style>
{head}</head><body>
{body}
<script defer src="{service.url('/tracker.js')}" {data}></script>
{after}
</body></html>"""


# A news page: a masthead above the article, comments and a footer below it.
NEWS_CSS = """
header.masthead { height: 420px; background: #123; color: #fff; }
section.comments { height: 2400px; background: #eee; }
footer { height: 300px; }
article { padding: 0 40px; }
"""


def news(service, reader="reader-news", count=40, attributes=None):
    body = f"""<header class="masthead"><h1>The Daily Scroll</h1></header>
<article><h2>How far do readers get?</h2>{paragraphs(count)}</article>
<section class="comments"><h3>Comments</h3></section><footer>footer</footer>"""
    data = {"reader": reader} if reader else {}
    data.update(attributes or {})
    return page(service, body, css=NEWS_CSS, attributes=data)


def closed_port():
    """A port of 127.0.0.1 nothing listens on."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


# The window's geometry and the article's extent in the document, read as the page has them.
WINDOW_GEOMETRY = """
const root = document.documentElement, a = document.querySelector(arguments[0]);
let top = 0;
for (let e = a; e; e = e.offsetParent) top += e.offsetTop;
return {y: scrollY, content: root.scrollHeight, container: root.clientHeight,
        start: a ? top : null, end: a ? top + a.offsetHeight : null};
"""

# An element's scroll geometry; the article's offsetParent is that element (position: relative).
ELEMENT_GEOMETRY = """
const s = document.querySelector(arguments[0]), a = document.querySelector(arguments[1]);
let top = 0;
for (let e = a; e && e !== s; e = e.offsetParent) top += e.offsetTop;
return {y: s.scrollTop, content: s.scrollHeight, container: s.clientHeight,
        start: top, end: top + a.offsetHeight};
"""


class Figures:
    """What the service computes from one geometry (docs/api.md): `progress`, `seenDepth`,
    whether it scrolls, and one pixel's worth of each."""

    def __init__(self, geometry):
        self.geometry = geometry
        y, content, container = geometry["y"], geometry["content"], geometry["container"]
        start = geometry.get("start")
        end = geometry.get("end")
        if start is None:
            start, end = 0, content
        scrollable_range = content - container
        self.scrollable = scrollable_range > 0
        if self.scrollable:
            self.progress = min(1.0, max(0.0, y / scrollable_range))
            self.seen = min(1.0, max(0.0, (y + container - start) / (end - start)))
            self.progress_pixel = 1.0 / scrollable_range
            self.seen_pixel = 1.0 / (end - start)
        else:
            self.progress, self.seen = 0.0, 1.0
            self.progress_pixel = self.seen_pixel = 1e-9

    def __repr__(self):
        return f"Figures(progress={self.progress:.4f}, seen={self.seen:.4f}, {self.geometry})"


def deepest(*figures):
    """The figures of a reader who saw all of `figures`: the maximum of each (what the store keeps)."""
    best = max(figures, key=lambda f: f.progress)
    most = max(figures, key=lambda f: f.seen)
    result = Figures(best.geometry)
    result.seen, result.seen_pixel = most.seen, most.seen_pixel
    return result


class TrackerTestCase(LiveTestCase):
    """The harness's service and browser for a class of tests, the service allowing the origin
    of a page server of their own and no other; each test uses article ids of its own."""

    @classmethod
    def setUpClass(cls):
        cls.pages = StaticServer()
        cls.addClassCleanup(cls.pages.stop)
        cls.service_arguments = ("--allowed-origins", cls.pages.origin)
        super().setUpClass()
        cls.driver = cls.browser.driver

    def setUp(self):
        super().setUp()
        self.started = time.monotonic()

    def tearDown(self):
        # The next test starts on a page of its own in the one remaining tab.
        handles = self.driver.window_handles
        for handle in handles[1:]:
            self.driver.switch_to.window(handle)
            self.driver.close()
        self.driver.switch_to.window(handles[0])
        self.driver.get("about:blank")

    # -- pages -------------------------------------------------------------------------------

    def serve(self, path, text):
        self.pages.pages[path] = ("text/html; charset=utf-8", text)
        return self.pages.url(path)

    def open(self, path, text=None):
        """Serves `text` at `path` (when given) and opens it; returns once the page has loaded."""
        url = self.serve(path, text) if text is not None else self.pages.url(path)
        self.browser.open(url)
        wait_until(lambda: self.browser.run("return document.readyState") == "complete",
                   message=f"{path} to load")
        return url

    # -- a reader ------------------------------------------------------------------------------

    def wheel(self, delta, over=None):
        """Scrolls with the mouse wheel, `delta` CSS pixels down in steps a reader's wheel
        makes, over the element matching `over` (else the viewport), and waits until the
        scroll position has settled."""
        from selenium.webdriver.common.action_chains import ActionChains
        from selenium.webdriver.common.actions.wheel_input import ScrollOrigin

        origin = ScrollOrigin.from_element(self.driver.find_element("css selector", over)) if over else \
            ScrollOrigin.from_viewport(10, 10)
        step = 120 if delta > 0 else -120
        remaining = delta
        while abs(remaining) > 0:
            amount = step if abs(remaining) >= abs(step) else remaining
            ActionChains(self.driver).scroll_from_origin(origin, 0, int(amount)).perform()
            remaining -= amount
        self.settle(over)

    def settle(self, scroller=None):
        """Waits until the scroll position stops changing (smooth scrolling may still move it)."""
        read = ("return document.querySelector(arguments[0]).scrollTop" if scroller
                else "return scrollY")
        positions = []

        def still():
            positions.append(self.browser.run(read, scroller))
            time.sleep(0.05)
            return len(positions) >= 4 and len(set(positions[-4:])) == 1
        wait_until(still, timeout=10, interval=0, message="the scroll position to settle")
        # A scroll event is dispatched at the next frame after the position changes.
        self.browser.run("return new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")

    def scroll_to(self, y, scroller=None):
        """Wheels from where the page is to about `y`."""
        read = ("return document.querySelector(arguments[0]).scrollTop" if scroller
                else "return scrollY")
        self.wheel(y - self.browser.run(read, scroller), over=scroller)

    def window_figures(self, article="article"):
        return Figures(self.browser.run(WINDOW_GEOMETRY, article))

    def element_figures(self, scroller, article="article"):
        return Figures(self.browser.run(ELEMENT_GEOMETRY, scroller, article))

    def hide_and_return(self, endpoint=None):
        """Hides the page (another tab in front) and brings it back once the browser has sent
        what the page sends when hidden (to `endpoint`, default the service's)."""
        own = self.driver.current_window_handle
        before = len(self.events_sent(endpoint))
        self.driver.switch_to.new_window("tab")
        wait_until(lambda: len(self.events_sent(endpoint)) > before, message="an event sent on hiding")
        self.driver.close()
        self.driver.switch_to.window(own)
        wait_until(lambda: self.browser.run("return document.visibilityState") == "visible",
                   message="the page visible again")

    def hide(self):
        """Hides the page behind another tab and stays there."""
        before = len(self.events_sent())
        self.driver.switch_to.new_window("tab")
        wait_until(lambda: len(self.events_sent()) > before, message="an event sent on hiding")

    def leave(self, article):
        """Navigates away, as a reader following a link off the site, and waits until the
        service has counted the event of `article` sent on leaving. (The browser no longer
        reports the requests of a page it has left: that event is not in ``events_sent``.)"""
        before = (self.stats(article) or {}).get("events", 0)
        self.driver.get("about:blank")
        self.wait_stats(article, lambda s: s["events"] > before, what="the event sent on leaving")

    # -- what was sent, what is counted ----------------------------------------------------------

    def events_sent(self, endpoint=None):
        """The events the browser posted to `endpoint` (default the service's), as parsed
        bodies with the request's `type`, `status` and `headers` under `_request`."""
        url = endpoint or self.service.url("/v1/events")
        sent = []
        for request in self.browser.requests():
            if request["url"] == url and request["method"] == "POST":
                body = json.loads(request["body"]) if request["body"] else {}
                body["_request"] = request
                sent.append(body)
        return sent

    def stats(self, article, metric="progress"):
        """The statistics of `article`, or None while the service has no event of it."""
        segment = urllib.parse.quote(article, safe="")
        response = self.service.request("GET", f"/v1/articles/{segment}/stats?metric={metric}")
        if response.status == 404:
            return None
        self.assertEqual(response.status, 200, response.body[:300])
        return response.json()

    def wait_stats(self, article, check, metric="progress", timeout=15, what=None):
        """Polls the statistics of `article` until `check(stats)` holds; returns them."""
        last = {}

        def ready():
            last["stats"] = self.stats(article, metric)
            return last["stats"] if last["stats"] is not None and check(last["stats"]) else None
        return wait_until(ready, timeout=timeout, interval=0.1,
                          message=lambda: f"{what or 'statistics'} of {article} ({metric}); last: "
                                          f"{json.dumps(last.get('stats'))[:600]}")

    def assert_counted(self, article, figures, readers=1, unscrollable=0, events=None, timeout=15):
        """Waits until the statistics of `article` show `figures` (one reader's maximum
        progress and seenDepth, within a pixel), then checks readers, unscrollable readers and,
        when given, the event count."""
        def near(value, expected, pixel):
            return abs(value - expected) <= pixel + 1e-9

        counted = figures.scrollable
        progress = self.wait_stats(
            article,
            lambda s: s["readers"] == readers and (
                not counted or near(s["depth"]["mean"], figures.progress, figures.progress_pixel)),
            what=f"progress {figures}")
        seen = self.wait_stats(
            article, lambda s: near(s["depth"]["mean"], figures.seen, figures.seen_pixel),
            metric="seenDepth", what=f"seenDepth {figures}")
        for stats in (progress, seen):
            self.assertEqual(stats["readers"], readers, stats)
            self.assertEqual(stats["unscrollableReaders"], unscrollable, stats)
        if events is not None:
            self.assertEqual(seen["events"], events, seen)
        return progress, seen

    def assert_every_event_counted(self, article):
        """The statistics count as many events of `article` as the browser sent: each one
        counted once (each has a fresh id), nothing else."""
        def sent():
            return len([event for event in self.events_sent() if event["article"] == article])
        self.wait_stats(article, lambda s: s["events"] == sent() > 0, what="as many events as were sent")

    def assert_page_unbroken(self, allowed_failures=()):
        """No exception, no console.error: the console holds at most failed loads of the URLs in
        `allowed_failures` (the browser's own network lines, which no script can prevent)."""
        errors = [
            entry for entry in self.browser.console_errors()
            if not (entry.get("source") == "network" and any(url in entry["message"] for url in allowed_failures))
        ]
        self.assertEqual(errors, [])


__all__ = [
    "Figures", "StaticServer", "TrackerTestCase", "closed_port", "deepest", "page", "paragraphs", "wait_until",
]
