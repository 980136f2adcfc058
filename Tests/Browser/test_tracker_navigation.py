"""The web tracker (docs/tracker.md) in headless Chromium against the live service, its pages
served from another origin: navigation (single-page apps, the back-forward cache), privacy, and
what it does when the service refuses or cannot be reached."""

import unittest

from tracker_support import (
    StaticServer, TrackerTestCase, closed_port, deepest, news, page, paragraphs, wait_until,
)


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
