"""The web tracker (docs/tracker.md) in headless Chromium against the live service, its pages
served from another origin: the script as served, and reading — each test reads like a reader,
scrolls with the wheel, hides or leaves the page, and checks the figures the statistics then
show against the page's own geometry, within a pixel."""

import gzip
import os
import pathlib
import re
import subprocess
import sys
import time
import unittest

from tracker_support import NEWS_CSS, TrackerTestCase, deepest, news, page, paragraphs, wait_until

ROOT = pathlib.Path(__file__).resolve().parents[2]
FOLDER = ROOT / "Sources/ProgressService/Web/tracker"
SOURCE = FOLDER / "tracker.js"
# Bytes gzipped (docs/tracker.md, "Builds and size"): the tracker with the bar at most 2,300, the
# one without it at most 2,000.
LIMITS = {"/tracker.js": 2300, "/tracker-lite.js": 2000}


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
        head = self.service.request("HEAD", "/tracker.js", headers={"Accept-Encoding": "gzip"})
        self.assertEqual((head.status, head.body, head.header("ETag")), (200, b"", packed.header("ETag")))
        self.assertEqual(
            self.service.request("GET", "/tracker.js", headers={"If-None-Match": packed.header("ETag"),
                                                                "Accept-Encoding": "gzip"}).status, 304)
        metrics = self.service.request("GET", "/metrics").text
        self.assertIn('route="/tracker.js",method="GET",status="200"', metrics)

    def test_both_builds_are_small_and_terser_output_of_the_source(self):
        for path, limit in LIMITS.items():
            plain = self.service.request("GET", path)
            packed = self.service.request("GET", path, headers={"Accept-Encoding": "gzip"})
            self.assertEqual((plain.status, packed.header("Content-Encoding")), (200, "gzip"), path)
            self.assertEqual(plain.body, (FOLDER / path.lstrip("/")).read_bytes(), path)
            self.assertEqual(gzip.decompress(packed.body), plain.body, path)
            print(f"\n{path}: {len(plain.body)} bytes, {len(packed.body)} bytes gzipped (limit {limit})",
                  file=sys.stderr)
            self.assertLessEqual(len(packed.body), limit, path)
        self.assertEqual(self.service.request("GET", "/tracker.src.js").status, 404)
        # The served files are what scripts/build-tracker makes of tracker.src.js with the terser
        # it names; another terser is named, with the one the files were made with.
        pinned = re.search(r"^TERSER_VERSION=(\S+)$", (ROOT / "scripts/build-tracker").read_text(), re.M).group(1)
        try:
            # NODE_PATH as scripts/build-tracker sets it: where Debian keeps terser's modules.
            version = subprocess.run(["terser", "--version"], capture_output=True, text=True,
                                     env={**os.environ, "NODE_PATH": "/usr/share/nodejs"}).stdout.strip()
        except FileNotFoundError:
            version = ""
        installed = version.removeprefix("terser ") or "none"
        self.assertEqual(installed, pinned, f"terser {installed} is installed, but the tracker was built with "
                                            f"terser {pinned}: rebuild it with scripts/build-tracker")
        check = subprocess.run([ROOT / "scripts/build-tracker", "--check"], capture_output=True, text=True)
        self.assertEqual(check.returncode, 0, check.stderr)

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


if __name__ == "__main__":
    unittest.main()
