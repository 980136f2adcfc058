"""The web tracker (docs/tracker.md) in headless Chromium against the live service, its pages
served from another origin: each test reads like a reader, scrolls with the wheel, hides or
leaves the page, and checks the figures the statistics then show against the page's own
geometry, within a pixel."""

import gzip
import pathlib
import sys
import time
import unittest

from tracker_support import (
    Figures, StaticServer, TrackerTestCase, closed_port, deepest, page, paragraphs, wait_until,
)

SOURCE = pathlib.Path(__file__).resolve().parents[2] / "Sources/ProgressService/Web/tracker/tracker.js"
LIMIT = 2000  # bytes, gzipped

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


class ServedScriptTests(TrackerTestCase):
    def test_the_script_is_served_cacheable_and_small(self):
        plain = self.service.request("GET", "/tracker.js")
        self.assertEqual(plain.status, 200)
        self.assertEqual(plain.body, SOURCE.read_bytes())
        self.assertTrue(plain.header("Content-Type").startswith("text/javascript"), plain.header("Content-Type"))
        cache = plain.header("Cache-Control")
        self.assertTrue(cache.startswith("public") and "max-age=" in cache, cache)
        self.assertEqual(plain.header("Cross-Origin-Resource-Policy"), "cross-origin")
        etag = plain.header("ETag")
        self.assertTrue(etag.startswith('"') and etag.endswith('"'), etag)
        again = self.service.request("GET", "/tracker.js", headers={"If-None-Match": etag})
        self.assertEqual((again.status, again.body), (304, b""))

        packed = self.service.request("GET", "/tracker.js", headers={"Accept-Encoding": "gzip"})
        self.assertEqual(packed.status, 200)
        self.assertEqual(packed.header("Content-Encoding"), "gzip")
        self.assertEqual(gzip.decompress(packed.body), SOURCE.read_bytes())
        self.assertNotEqual(packed.header("ETag"), etag)
        print(f"\ntracker.js: {len(plain.body)} bytes, {len(packed.body)} bytes gzipped (limit {LIMIT})",
              file=sys.stderr)
        self.assertLessEqual(len(packed.body), LIMIT)
        head = self.service.request("HEAD", "/tracker.js", headers={"Accept-Encoding": "gzip"})
        self.assertEqual((head.status, head.body, head.header("ETag")), (200, b"", packed.header("ETag")))
        self.assertEqual(
            self.service.request("GET", "/tracker.js", headers={"If-None-Match": packed.header("ETag"),
                                                                "Accept-Encoding": "gzip"}).status, 304)
        metrics = self.service.request("GET", "/metrics").text
        self.assertIn('route="/tracker.js",method="GET",status="200"', metrics)

    def test_a_page_of_another_origin_loads_it_and_finds_the_api(self):
        self.open("/api-probe.html", page(self.service, paragraphs(2), attributes={"reader": "probe"}))
        self.assertEqual(self.browser.run(
            "return [typeof readingProgress.flush, typeof readingProgress.track]"), ["function", "function"])
        loads = [r for r in self.browser.requests() if r["url"] == self.service.url("/tracker.js")]
        self.assertEqual([(r["type"], r["status"]) for r in loads], [("Script", 200)])
        self.assert_page_unbroken()


class ReadingTests(TrackerTestCase):
    def test_a_long_article_between_a_masthead_and_comments(self):
        self.open("/news/long-read.html", news(self.service))
        article = "/news/long-read.html"
        at_load = self.window_figures()
        self.assertTrue(at_load.scrollable, at_load)
        self.assert_counted(article, at_load, events=1)

        # Some way into the article: an event follows once a few seconds have passed.
        self.scroll_to(1500)
        middle = self.window_figures()
        self.assertGreater(middle.progress, 0.1)
        self.assertLess(middle.seen, 1)
        self.assert_counted(article, middle, timeout=15)
        self.assertGreaterEqual(self.stats(article)["events"], 2)

        # On to where the article ends at the bottom of the window: all of the article seen,
        # none of the comments, and the page well short of its end.
        geometry = self.window_figures().geometry
        self.scroll_to(geometry["end"] - geometry["container"])
        end = self.window_figures()
        self.assertGreater(end.seen, 0.99)
        self.assertLess(end.progress, 0.8)
        # Back up a little before leaving: the statistics keep the deepest point.
        self.scroll_to(end.geometry["y"] - 600)
        self.hide()
        self.assert_counted(article, deepest(at_load, middle, end))

        sent = self.events_sent()
        self.assertEqual(len({event["id"] for event in sent}), len(sent), "a fresh id for each event")
        self.assert_every_event_counted(article)
        for event in sent:
            self.assertEqual(event["_request"]["headers"].get("Content-Type"), "text/plain;charset=UTF-8")
            self.assertEqual(event["_request"]["status"], 202)
            self.assertEqual((event["article"], event["reader"]), (article, "reader-news"))
            self.assertLessEqual(abs(event["region"]["start"] - at_load.geometry["start"]), 1)
        self.assertFalse([r for r in self.browser.requests() if r["method"] == "OPTIONS"], "no preflight")

        engaged = self.stats(article)["engagedSeconds"]["total"]
        self.assertGreater(engaged, 0)
        self.assertLessEqual(engaged, time.monotonic() - self.started)
        self.assert_page_unbroken()

    def test_an_article_in_an_inner_scroll_container(self):
        # First laid out as a plain page, then as an app shell whose main pane scrolls, with a
        # wrapper inside it that scrolls sideways only.
        css = """
        .bar { height: 80px; background: #333; }
        main { position: relative; }
        body.shell { overflow: hidden; }
        body.shell main { height: calc(100vh - 80px); overflow-y: auto; }
        .intro { height: 500px; } .comments { height: 1800px; }
        .wide { overflow-x: auto; }
        """
        body = f"""<div class="bar">app</div>
        <main><div class="intro">intro</div><div class="wide"><article>{paragraphs(30)}</article></div>
        <div class="comments">comments</div></main>"""
        self.open("/app/pane.html", page(self.service, body, css=css, attributes={"reader": "reader-pane"}))
        article = "/app/pane.html"
        at_load = self.window_figures()
        self.assert_counted(article, at_load, events=1)

        self.browser.run("document.body.classList.add('shell')")
        self.assertEqual(self.browser.run("return document.documentElement.scrollHeight <= innerHeight"), True)
        self.scroll_to(2200, scroller="main")
        inner = self.element_figures("main")
        self.assertTrue(inner.scrollable and inner.progress > 0.2, inner)
        self.assertLess(inner.seen, 1)
        self.hide_and_return()
        self.assert_counted(article, deepest(at_load, inner))
        self.assertGreater(inner.seen, at_load.seen)
        sent = self.events_sent()[-1]
        self.assertEqual(sent["contentOffset"]["y"], inner.geometry["y"])
        self.assertEqual(sent["containerSize"]["height"], inner.geometry["container"])
        self.assert_page_unbroken()

    def test_a_page_shorter_than_the_viewport(self):
        self.open("/short/note.html", page(self.service, f"<article>{paragraphs(1)}</article>"))
        article = "/short/note.html"
        figures = self.window_figures()
        self.assertFalse(figures.scrollable, figures)
        self.wheel(600)
        self.assertEqual(self.browser.run("return scrollY"), 0)
        self.leave(article)
        progress, seen = self.assert_counted(article, figures, unscrollable=1)
        # Sent as it is: never as a page read to its end.
        self.assertEqual(progress["completion"]["completed"], 0)
        self.assertEqual(progress["depth"]["mean"], 0)
        self.assertEqual(seen["depth"]["mean"], 1)
        for event in self.events_sent():
            self.assertEqual(event["contentOffset"]["y"], 0)
            self.assertLessEqual(event["contentSize"]["height"], event["containerSize"]["height"])

    def test_engaged_time_stops_15_seconds_after_the_last_input_and_while_hidden(self):
        article = "/engaged/story.html"
        self.open(article, news(self.service, reader="reader-engaged"))
        wait_until(lambda: len(self.events_sent()) == 1, message="the first event")
        self.assertEqual(self.events_sent()[0]["engagedMs"], 0, "no input yet")

        # One input, then none: the time counts for 15 s after it, not beyond.
        self.browser.run("scrollTo(0, 500)")
        since = time.monotonic()
        wait_until(lambda: time.monotonic() - since > 17, timeout=30, interval=0.5,
                   message="17 s without input")
        self.browser.run("readingProgress.flush()")
        wait_until(lambda: len(self.events_sent()) >= 3, message="the flushed event")
        self.assertEqual(sum(event["engagedMs"] for event in self.events_sent()[1:]), 15_000)

        # Hidden for 3 s within 15 s of an input: that time does not count, nor the time after
        # coming back until the next input.
        own = self.driver.current_window_handle
        self.browser.run("scrollTo(0, 900)")
        self.hide()
        hidden_at = time.monotonic()
        wait_until(lambda: time.monotonic() - hidden_at > 3, interval=0.2, message="3 s hidden")
        self.driver.close()
        self.driver.switch_to.window(own)
        wait_until(lambda: self.browser.run("return document.visibilityState") == "visible",
                   message="the page visible again")
        before = len(self.events_sent())
        self.browser.run("readingProgress.flush()")
        wait_until(lambda: len(self.events_sent()) > before, message="the flushed event")
        self.assertEqual(self.events_sent()[-1]["engagedMs"], 0)
        total = sum(event["engagedMs"] for event in self.events_sent())
        self.wait_stats(article, lambda s: s["engagedSeconds"]["total"] == total / 1000,
                        what=f"{total} ms engaged")

    def test_data_selector_names_the_article(self):
        # The story is a div; the article elements on the page are teasers in a sidebar.
        body = f"""<header class="masthead">masthead</header>
        <aside><article>teaser one</article><article>teaser two</article></aside>
        <div id="story">{paragraphs(30)}</div><section class="comments">comments</section>"""
        self.open("/selected/story.html", page(self.service, body, css=NEWS_CSS,
                                               attributes={"reader": "reader-selected", "selector": "#story"}))
        at_load = self.window_figures("#story")
        self.scroll_to(2500)
        read = self.window_figures("#story")
        self.hide()
        self.assert_counted("/selected/story.html", deepest(at_load, read))
        start = self.events_sent()[-1]["region"]["start"]
        self.assertLessEqual(abs(start - at_load.geometry["start"]), 1)

    def test_a_page_without_an_article_element_is_measured_whole(self):
        body = f"<header class='masthead'>masthead</header><div>{paragraphs(30)}</div><footer>footer</footer>"
        self.open("/whole/page.html", page(self.service, body, css=NEWS_CSS))
        at_load = self.window_figures("no-such-element")
        self.assertIsNone(at_load.geometry["start"])
        self.scroll_to(3000)
        read = self.window_figures("no-such-element")
        self.hide()
        self.assert_counted("/whole/page.html", deepest(at_load, read))
        for event in self.events_sent():
            self.assertNotIn("region", event)

    def test_content_that_grows_after_load(self):
        # Late embeds: four figures of 600 px each arrive in the article a moment after load.
        after = """<script>
        addEventListener('load', () => setTimeout(() => {
          const article = document.querySelector('article');
          for (let i = 0; i < 4; i++) {
            const figure = document.createElement('figure');
            figure.style.height = '600px';
            article.appendChild(figure);
          }
          window.grown = true;
        }, 300));
        </script>"""
        body = f"<header style='height:200px'>masthead</header><article>{paragraphs(12)}</article>" \
               "<footer style='height:400px'>footer</footer>"
        self.open("/late/embeds.html", page(self.service, body, after=after))
        article = "/late/embeds.html"
        before = self.window_figures()
        wait_until(lambda: self.browser.run("return window.grown === true"), message="the embeds")
        grown = self.window_figures()
        self.assertGreater(grown.geometry["content"], before.geometry["content"] + 2000)
        # Further down than the page reached when it loaded.
        self.scroll_to(before.geometry["content"] - before.geometry["container"] + 900)
        read = self.window_figures()
        self.assertLess(read.progress, 0.95)
        self.assertGreater(read.geometry["y"], before.geometry["content"] - before.geometry["container"])
        self.hide()
        self.assert_counted(article, deepest(before, read))
        last = self.events_sent()[-1]
        self.assertEqual(last["contentSize"]["height"], grown.geometry["content"])
        self.assertLessEqual(abs(last["region"]["end"] - grown.geometry["end"]), 1)


class NavigationTests(TrackerTestCase):
    # A single-page app: one document, the article rendered by the app for the path. Its
    # navigation changes the history first and then the page (a router's order), or the page
    # first; the reader starts at the top of the new article, the back button included.
    APP = """<script>
    const lengths = {'/spa/first': 30, '/spa/second': 20, '/spa/third': 45};
    const filler = 'A reader scrolls through the story at their own pace, stopping at a figure. '.repeat(6);
    history.scrollRestoration = 'manual';
    function render(path) {
      document.querySelector('#app').innerHTML =
        `<header class="masthead">${path}</header><article><h2>${path}</h2>` +
        `<p>${filler}</p>`.repeat(lengths[path] || 5) + `</article><section class="comments">comments</section>`;
    }
    window.go = (path, replace, renderFirst) => {
      if (renderFirst) render(path);
      history[replace ? 'replaceState' : 'pushState']({}, '', path);
      if (!renderFirst) render(path);
      scrollTo(0, 0);
    };
    addEventListener('popstate', () => { render(location.pathname); scrollTo(0, 0); });
    render(location.pathname);
    </script>"""

    def spa(self):
        css = "header.masthead { height: 300px; } section.comments { height: 1500px; }"
        return page(self.service, '<div id="app"></div>' + self.APP, css=css)

    def test_a_single_page_app(self):
        text = self.spa()
        for path in ("/spa/first", "/spa/second", "/spa/third"):
            self.serve(path, text)
        self.open("/spa/first")
        first = [self.window_figures()]
        self.scroll_to(2000)
        first.append(self.window_figures())

        # pushState: the first article ends where the reader left it, the second starts.
        self.browser.run("go('/spa/second')")
        self.assert_counted("/spa/first", deepest(*first))
        second = [self.window_figures()]
        self.assertEqual(second[0].geometry["y"], 0)
        self.assert_counted("/spa/second", second[0])
        self.scroll_to(1200)
        second.append(self.window_figures())

        # replaceState, the app rendering the next article before it changes the history.
        self.browser.run("go('/spa/third', true, true)")
        self.assert_counted("/spa/second", deepest(*second))
        third = [self.window_figures()]
        self.scroll_to(3000)
        third.append(self.window_figures())

        # popstate: back to the first (the third replaced the second), a new view of it.
        self.driver.back()
        wait_until(lambda: self.browser.run("return location.pathname") == "/spa/first", message="back")
        self.assert_counted("/spa/third", deepest(*third))
        self.settle()
        first.append(self.window_figures())
        self.scroll_to(900)
        first.append(self.window_figures())
        self.hide()
        self.assert_counted("/spa/first", deepest(*first))

        articles = [event["article"] for event in self.events_sent()]
        self.assertEqual(sorted(set(articles)), ["/spa/first", "/spa/second", "/spa/third"])
        for article in set(articles):
            self.assert_every_event_counted(article)
        self.assert_page_unbroken()

    def test_a_page_restored_from_the_back_forward_cache(self):
        article = "/cache/story.html"
        self.serve("/cache/elsewhere.html", page(self.service, "<p>elsewhere</p>", attributes={"reader": "x"}))
        after = "<script>addEventListener('pageshow', e => { if (e.persisted) window.restored = true })</script>"
        self.open(article, news(self.service, reader=None) + after)
        self.scroll_to(1800)
        before = self.window_figures()
        self.browser.run(f"location.href = {self.pages.url('/cache/elsewhere.html')!r}")
        wait_until(lambda: self.browser.run("return location.pathname") == "/cache/elsewhere.html",
                   message="the other page")
        self.assert_counted(article, before)
        events = self.stats(article)["events"]

        self.driver.back()
        wait_until(lambda: self.browser.run("return window.restored === true"),
                   message="a restore from the back-forward cache")
        # A new view: its first event without waiting for a scroll.
        self.wait_stats(article, lambda s: s["events"] == events + 1, what="the restored view's first event")
        restored = self.window_figures()
        self.assertEqual(restored.geometry["y"], before.geometry["y"])
        self.scroll_to(3200)
        deeper = self.window_figures()
        self.leave(article)
        self.assert_counted(article, deepest(before, deeper))
        # The restored view's first event and the one sent on leaving, at least.
        self.assertGreaterEqual(self.stats(article)["events"], events + 2)

    def test_a_prerendered_page_sends_nothing_until_it_is_shown(self):
        article = "/prerender/next.html"
        # The prerendered page tells the page server once its load event is over.
        after = """<script>addEventListener('load', () => setTimeout(() =>
            fetch('/prerender/loaded?prerendering=' + document.prerendering)))</script>"""
        self.serve(article, news(self.service, reader=None) + after)
        rules = '{"prerender": [{"source": "list", "urls": ["/prerender/next.html"]}]}'
        self.open("/prerender/index.html", page(
            self.service, f'<script type="speculationrules">{rules}</script><a id="next" href="{article}">next</a>',
            attributes={"article": "/prerender/index"}))
        try:
            wait_until(lambda: any(path == "/prerender/loaded?prerendering=true" for _, path, _ in self.pages.requests),
                       timeout=10, message="the next page prerendered and loaded")
        except AssertionError:
            self.skipTest("this Chromium did not prerender the page (speculation rules declined)")
        self.assertIsNone(self.stats(article))
        self.assertEqual([e for e in self.events_sent() if e["article"] == article], [])

        self.driver.find_element("id", "next").click()
        wait_until(lambda: self.browser.run("return location.pathname") == article, message="the next page shown")
        self.assertEqual(self.browser.run("return document.prerendering"), False)
        self.assert_counted(article, self.window_figures(), events=1)

    def test_track_and_flush_for_pages_that_manage_their_articles(self):
        # The page's own scripts run after the tracker once the document is parsed.
        after = "<script>addEventListener('DOMContentLoaded', () => readingProgress.track('/manual/one'))</script>"
        body = f"<article>{paragraphs(30)}</article>"
        self.open("/manual/page.html", page(self.service, body, after=after, attributes={"reader": "reader-manual"}))
        one = [self.window_figures()]
        self.assert_counted("/manual/one", one[0], events=1)
        # flush() sends at once, whatever the depth.
        self.browser.run("scrollTo(0, 1000); readingProgress.flush(); readingProgress.flush()")
        one.append(self.window_figures())
        self.assert_counted("/manual/one", deepest(*one), events=3)

        # track() ends the article with an event and starts the next with one.
        self.browser.run("scrollTo(0, 0); readingProgress.track('/manual/two')")
        two = self.window_figures()
        self.assert_counted("/manual/two", two, events=1)
        self.assertEqual(self.stats("/manual/one")["events"], 4)
        # A page that names its articles keeps its own: the history does not switch them.
        self.browser.run("history.pushState({}, '', '/manual/elsewhere.html')")
        self.scroll_to(1500)
        two = deepest(two, self.window_figures())
        self.hide()
        self.assert_counted("/manual/two", two)
        self.assert_every_event_counted("/manual/two")
        self.assertEqual({e["article"] for e in self.events_sent()}, {"/manual/one", "/manual/two"})
        self.assertIsNone(self.stats("/manual/page.html"))
        self.assertIsNone(self.stats("/manual/elsewhere.html"))


class PrivacyTests(TrackerTestCase):
    def test_global_privacy_control_sends_nothing(self):
        script = self.driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {
            "source": "Object.defineProperty(Navigator.prototype, 'globalPrivacyControl', {get: () => true})"})
        try:
            self.open("/private/gpc.html", news(self.service, reader="reader-gpc"))
            self.assertTrue(self.browser.run("return navigator.globalPrivacyControl"))
            self.scroll_to(1500)
            self.browser.run("readingProgress.flush(); readingProgress.track('/private/other')")
            self.driver.switch_to.new_window("tab")
            self.driver.close()
            self.driver.switch_to.window(self.driver.window_handles[0])
            self.assertTrue(self.browser.run("return document.visibilityState == 'visible'"))
            self.driver.get("about:blank")
        finally:
            self.driver.execute_cdp_cmd("Page.removeScriptToEvaluateOnNewDocument",
                                        {"identifier": script["identifier"]})
        self.assertEqual(self.events_sent(), [])
        self.assertIsNone(self.stats("/private/gpc.html"))
        self.assertIsNone(self.stats("/private/other"))
        self.assert_page_unbroken()

    def test_nothing_is_stored_in_the_browser(self):
        self.open("/private/stored.html", news(self.service, reader="reader-stored"))
        self.scroll_to(1200)
        self.hide_and_return()
        self.assertEqual(self.browser.run(
            "return [document.cookie, localStorage.length, sessionStorage.length]"), ["", 0, 0])
        self.assertEqual(self.driver.get_cookies(), [])
        self.driver.get(self.service.url("/healthz"))
        self.assertEqual(self.driver.get_cookies(), [])
        for event in self.events_sent():
            self.assertNotIn("Cookie", event["_request"]["headers"])

    def test_without_data_reader_no_reader_is_sent_and_the_service_derives_one(self):
        self.open("/private/anonymous.html", news(self.service, reader=None))
        at_load = self.window_figures()
        wait_until(lambda: self.events_sent(), message="the first event")
        self.scroll_to(1500)
        read = self.window_figures()
        self.hide_and_return()
        for event in self.events_sent():
            self.assertNotIn("reader", event)
        self.assert_counted("/private/anonymous.html", deepest(at_load, read))
        # The same browser on the same site and day is the same derived reader.
        self.leave("/private/anonymous.html")
        self.open("/private/anonymous.html")
        self.scroll_to(2500)
        again = self.window_figures()
        self.hide()
        self.assert_counted("/private/anonymous.html", deepest(at_load, read, again))


class RefusalTests(TrackerTestCase):
    def test_the_service_unreachable_breaks_nothing(self):
        dead = f"http://127.0.0.1:{closed_port()}"
        after = """<script>
        window.problems = [];
        addEventListener('error', e => problems.push(String(e.message)));
        addEventListener('unhandledrejection', e => problems.push(String(e.reason)));
        addEventListener('DOMContentLoaded', () => { document.title = 'still working' });
        </script>"""
        for name, head in [("beacon", ""), ("fetch", "<script>navigator.sendBeacon = () => false</script>")]:
            with self.subTest(name):
                self.browser.forget()
                self.open(f"/down/{name}.html", news(self.service, attributes={"endpoint": dead}).replace(
                    "</head>", head + after + "</head>"))
                self.scroll_to(1500)
                self.assertIsNone(self.browser.run(
                    "readingProgress.flush(); readingProgress.track('/down/x'); return readingProgress.flush()"))
                self.hide_and_return(dead + "/v1/events")
                sent = self.events_sent(dead + "/v1/events")
                self.assertGreaterEqual(len(sent), 3)
                self.assertEqual({e["_request"]["type"] for e in sent}, {"Ping" if name == "beacon" else "Fetch"})
                self.assertEqual(self.browser.run("return [document.title, problems]"), ["still working", []])
                self.assert_page_unbroken(allowed_failures=[dead + "/v1/events"])

    def test_a_site_not_allowed_has_its_events_refused(self):
        with StaticServer(hostname="localhost") as other:
            other.pages["/copied.html"] = ("text/html; charset=utf-8", news(self.service, reader="reader-copy"))
            self.browser.open(other.url("/copied.html"))
            self.scroll_to(1500)
            self.hide()
        sent = self.events_sent()
        self.assertGreaterEqual(len(sent), 2)
        self.assertEqual({e["_request"]["status"] for e in sent}, {403})
        self.assertIsNone(self.stats("/copied.html"))

        event = {"article": "/copied.html", "reader": "r", "contentOffset": {"x": 0, "y": 10},
                 "contentSize": {"width": 10, "height": 1000}, "containerSize": {"width": 10, "height": 100}}
        refused = self.service.request("POST", "/v1/events", body=event, headers={"Origin": other.origin})
        self.assertEqual(refused.status, 403)
        self.assertEqual(refused.json()["error"]["code"], "origin_not_allowed")
        self.assertIsNone(self.stats("/copied.html"))
        for headers in ({"Origin": self.pages.origin}, {}):
            self.assertEqual(self.service.request("POST", "/v1/events", body=event, headers=headers).status, 202)
        self.assertEqual(self.stats("/copied.html")["events"], 2)


if __name__ == "__main__":
    unittest.main()
