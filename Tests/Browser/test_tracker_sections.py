"""The article's headings (`sections`) and where the reader's engaged time went (`attention`) in
the tracker's events (docs/tracker.md, "Sections and attention"), in headless Chromium against
the live service: the map, each figure of it computed here another way (offsetTop, a walk over the
text nodes), sent with the first event of a view and again when it changes; titles cut on a
character boundary; the bands in view accruing the engaged time."""

import time
import unittest

from tracker_support import NEWS_CSS, TrackerTestCase, page, paragraphs, wait_until

# Each heading of the article: its title (white space collapsed), where it starts as a share of
# the article's height (offsetTop), and the words of its section: the text nodes after it up to
# the next heading, joined as they are (docs/tracker.md: elements with no white space between
# them join their words).
MAP = """
const a = document.querySelector(arguments[0]), hs = [...a.querySelectorAll(arguments[1])];
const top = e => { let t = 0; for (; e && e !== arguments[2]; e = e.offsetParent) t += e.offsetTop; return t };
const texts = hs.map(() => ''), walk = document.createTreeWalker(a, NodeFilter.SHOW_TEXT);
for (let n; (n = walk.nextNode());) {
  let k = -1;
  hs.forEach((h, i) => { if (h.compareDocumentPosition(n) & Node.DOCUMENT_POSITION_FOLLOWING) k = i });
  if (k >= 0 && !hs.some(h => h.contains(n))) texts[k] += n.data;
}
const words = texts.map(t => (t.match(/\\S+/g) || []).length);
return hs.map((h, i) => ({title: h.textContent.replace(/\\s+/g, ' ').trim(),
                          start: (top(h) - top(a)) / a.offsetHeight, words: words[i]}));
"""

STICKY = "header.site { position: sticky; top: 0; height: 60px; background: #fff; z-index: 5; }"


def wrapped(parts, prefix="w"):
    """Sections in the wrappers a CMS writes: a div per section, the heading in a header of its
    own, an h3 deeper down, a figure between the paragraphs."""
    return "".join(f"""<div class="section"><header><h2>Part {i}: how   far\n readers get</h2></header>
        <div class="body">{paragraphs(3, f"{prefix}{i}a")}<figure style="height:200px">figure</figure>
        <section><h3>Detail {i}</h3>{paragraphs(2, f"{prefix}{i}b")}</section></div></div>""" for i in range(parts))


def cut(title, limit=200):
    return " ".join(title.split()).encode()[:limit].decode("utf-8", "ignore")


class SectionTests(TrackerTestCase):
    def expected_map(self, article="article", headings="h2,h3", scroller=None):
        return self.browser.run(MAP, article, headings, self.driver.find_element("css selector", scroller)
                                if scroller else None)

    def assert_map(self, sent, expected, height):
        self.assertEqual([s["title"] for s in sent], [cut(e["title"]) for e in expected])
        for got, want in zip(sent, expected):
            self.assertLessEqual(abs(got["start"] - want["start"]), 1.5 / height, (got, want))
            self.assertEqual(got["words"], want["words"], (got, want))
        starts = [s["start"] for s in sent]
        self.assertEqual(starts, sorted(set(starts)))
        self.assertTrue(all(0 <= s < 1 for s in starts), starts)

    def first_with_sections(self, article):
        return wait_until(lambda: next((e for e in self.events_sent() if e["article"] == article and "sections" in e),
                                       None), message=f"an event of {article} with sections")

    def test_headings_in_wrappers_under_a_sticky_header_and_the_bands_in_view(self):
        body = f"""<header class="site"><h2>The Daily Scroll</h2></header><header class="masthead">masthead</header>
        <aside><h2>Related</h2><h3>Most read</h3></aside><article>{wrapped(4)}</article>
        <section class="comments"><h3>Comments</h3></section><footer><h2>About us</h2></footer>"""
        article = "/sections/wrapped.html"
        self.open(article, page(self.service, body, css=NEWS_CSS + STICKY, attributes={"reader": "r-sections"}))
        first = self.first_with_sections(article)
        self.assertEqual(first["id"], self.events_sent()[0]["id"], "the map goes with the view's first event")
        self.assertEqual(first["_request"]["status"], 202)
        geometry = self.window_figures().geometry
        self.assert_map(first["sections"], self.expected_map(), geometry["end"] - geometry["start"])
        self.assertEqual(len(first["sections"]), 8)
        self.assertEqual(first["sections"][0]["title"], "Part 0: how far readers get")
        self.assertEqual((first["engagedMs"], first["attention"]), (0, [0] * 20))

        # Read in one place for a while: the bands in view accrue that time, the others nothing.
        self.scroll_to(2600)
        self.browser.run("readingProgress.flush()")  # from here on, the reader stays where they are
        before = wait_until(lambda: len(self.events_sent()) >= 2 and len(self.events_sent()), message="a flush")
        still = time.monotonic()
        wait_until(lambda: time.monotonic() - still > 1.5, interval=0.1, message="1.5 s in one place")
        self.browser.run("readingProgress.flush()")
        wait_until(lambda: len(self.events_sent()) > before, message="the flushed event")
        event, at = self.events_sent()[-1], self.window_figures().geometry
        self.assertGreater(event["engagedMs"], 0)
        band = (at["end"] - at["start"]) / 20
        for i, ms in enumerate(event["attention"]):
            low, high = at["start"] + i * band, at["start"] + (i + 1) * band
            if low < at["y"] + at["container"] - 2 and high > at["y"] + 2:
                self.assertEqual(ms, event["engagedMs"], f"band {i} in view: {event['attention']}")
            elif low > at["y"] + at["container"] + 2 or high < at["y"] - 2:
                self.assertEqual(ms, 0, f"band {i} out of view: {event['attention']}")
        self.assertTrue(0 < event["attention"].count(event["engagedMs"]) < 20, event["attention"])

        self.hide()
        # The last event's answer comes after the request itself is seen.
        sent = wait_until(
            lambda: (events := self.events_sent()) and all(e["_request"]["status"] is not None for e in events)
            and events, message="every event answered")
        self.assertEqual([("sections" in e) for e in sent], [True] + [False] * (len(sent) - 1), "map unchanged")
        for e in sent:
            self.assertEqual(len(e["attention"]), 20)
            self.assertTrue(all(0 <= a <= e["engagedMs"] for a in e["attention"]), e)
            self.assertEqual(e["_request"]["status"], 202)

    def test_an_article_in_an_inner_scroller(self):
        css = """.bar { height: 80px; } body { overflow: hidden; margin: 0; }
        main { position: relative; height: calc(100vh - 80px); overflow-y: auto; } .intro { height: 700px; }"""
        body = f"""<div class="bar"><h2>App</h2></div><main><div class="intro"><h2>Intro</h2></div>
        <article>{wrapped(3, "i")}</article><div style="height:1500px"><h3>Comments</h3></div></main>"""
        self.open("/sections/pane.html", page(self.service, body, css=css))
        self.scroll_to(900, scroller="main")
        first = self.first_with_sections("/sections/pane.html")
        geometry = self.element_figures("main").geometry
        self.assert_map(first["sections"], self.expected_map(scroller="main"), geometry["end"] - geometry["start"])
        self.assertEqual(first["sections"][0]["start"], 0)

    def test_no_headings_none_and_a_selector_of_its_own(self):
        self.open("/sections/plain.html", page(self.service, f"<h2>Site</h2><article>{paragraphs(20)}</article>"))
        self.assertEqual(self.first_with_sections("/sections/plain.html")["sections"], [])

        self.browser.forget()
        self.open("/sections/none.html", page(self.service, f"<article>{wrapped(2)}</article>",
                                              attributes={"sections": "none"}))
        self.hide_and_return()
        self.assertTrue(self.events_sent())
        self.assertFalse([e for e in self.events_sent() if "sections" in e])

        self.browser.forget()
        body = "<article>" + "".join(f'<h4 class="chapter">Chapter {i}</h4><h2>Not this</h2>{paragraphs(4, f"c{i}")}'
                                     for i in range(3)) + "</article>"
        self.open("/sections/own.html", page(self.service, body, attributes={"sections": "h4.chapter"}))
        sent = self.first_with_sections("/sections/own.html")["sections"]
        geometry = self.window_figures().geometry
        self.assert_map(sent, self.expected_map(headings="h4.chapter"), geometry["end"] - geometry["start"])

    def test_titles_cut_to_200_bytes_between_characters(self):
        titles = ["长" * 100, "😀" * 60, "a" + "😀" * 60, "é" * 150, " Methods \n\t and   results ", "👩‍🔬" * 40]
        body = "<article>" + "".join(f"<h2>{t}</h2>{paragraphs(1, f't{i}')}" for i, t in enumerate(titles)) + "</article>"
        self.open("/sections/titles.html", page(self.service, body))
        first = self.first_with_sections("/sections/titles.html")
        self.assertEqual(first["_request"]["status"], 202)
        got = [s["title"] for s in first["sections"]]
        self.assertEqual(got, [cut(t) for t in titles])
        self.assertEqual(got[4], "Methods and results")
        for title in got:
            self.assertLessEqual(len(title.encode()), 200)
        self.assertEqual([len(t.encode()) for t in got[:4]], [198, 200, 197, 200])

    def test_late_content_and_a_single_page_app_change_the_map(self):
        after = """<script>
        window.grow = () => document.querySelector('article').insertAdjacentHTML('beforeend',
          '<h2>Appendix</h2>' + '<p>Late words arrive here. </p>'.repeat(30));
        window.next = () => {
          history.pushState({}, '', '/sections/next.html');
          document.querySelector('article').innerHTML = '<h2>Another story</h2>' + '<p>Its words. </p>'.repeat(40);
        };
        </script>"""
        article = "/sections/late.html"
        self.open(article, page(self.service, f"<article>{wrapped(2)}</article>", after=after))
        first = self.first_with_sections(article)
        self.browser.run("grow(); readingProgress.flush()")
        wait_until(lambda: len(self.events_sent()) >= 2, message="the flushed event")
        changed = self.events_sent()[-1]
        self.assertIn("sections", changed)
        self.assertEqual([s["title"] for s in changed["sections"]],
                         [s["title"] for s in first["sections"]] + ["Appendix"])
        geometry = self.window_figures().geometry
        self.assert_map(changed["sections"], self.expected_map(), geometry["end"] - geometry["start"])
        self.assertEqual(changed["sections"][-1]["words"], 120)

        self.browser.run("next()")
        moved = self.first_with_sections("/sections/next.html")
        self.assertEqual(moved["sections"], [{"title": "Another story", "start": 0, "words": 80}])
        self.assertFalse([e for e in self.events_sent() if e["article"] == article and "Another story" in str(e)])


if __name__ == "__main__":
    unittest.main()
