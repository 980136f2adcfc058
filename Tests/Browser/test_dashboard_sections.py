"""Where in the article, in the dashboard against the live service: the sections table, the
headings on the seen-depth curve and the attention strip show the API's numbers, hostile titles
show as text, the sections' CSV is the API's answer with formulas neutralised, and an article
without a map says so."""

import unittest

from selenium.webdriver.support.ui import Select

from dashboard_support import DashboardTestCase, dashboard_url, days_ago, parse_csv, percent_of, wait_for_view
from support import event

MAPPED = "/guide/sections"
UNMAPPED = "/news/no-map"
HOSTILE_TITLE = "<img src=x onerror=\"window.__hostile='title'\">"
FORMULA_TITLE = "=HYPERLINK(\"http://evil.example/\",\"click\")"
SECTIONS = [
    {"title": "Introduction", "start": 0, "words": 300},
    {"title": HOSTILE_TITLE, "start": 0.15, "words": 900},
    {"title": FORMULA_TITLE, "start": 0.4},
    {"title": "\u202eRTL and 🍞 emoji, a title long enough to be cut on the chart", "start": 0.55, "words": 0},
    {"title": "The long section", "start": 0.62, "words": 1200},
]
SKIMMED_WPM = 450


def attention_until(seen_depth):
    """Attention for a reader who saw the body down to `seen_depth`: slow on the introduction,
    quick over the middle, steady after; no band beyond what came into view."""
    return [0 if band / 20 >= seen_depth else 4_000 if band < 3 else 300 if band < 8 else 2_000
            for band in range(20)]


def scenario():
    events = []
    # A first map, older than the one every reader sends later: the page shows the latest.
    first = event(MAPPED, "early", progress=0.2, time_ms=days_ago(3), engaged_ms=1_000)
    first["sections"] = [{"title": "An older heading", "start": 0}]
    events.append(first)
    for i in range(30):
        progress = ((i * 7) % 30 + 0.5) / 30
        body = event(MAPPED, f"reader-{i}", progress=progress, time_ms=days_ago(2) + i * 1000, engaged_ms=5_000)
        body["sections"] = SECTIONS
        body["attention"] = attention_until(0.1 + 0.9 * progress)
        events.append(body)
    flat = event(MAPPED, "flat", scrollable=False, time_ms=days_ago(2, hour=12), engaged_ms=5_000)
    flat["attention"] = [5_000] * 20
    events.append(flat)
    for i in range(6):
        events.append(event(UNMAPPED, f"news-{i}", progress=i / 5, time_ms=days_ago(1), engaged_ms=2_000))
    return events


def shown_sections(browser):
    """The sections table: per row its title as text, the skimmed mark, and per column the cell's
    data-value and text."""
    return browser.run("""
        return [...document.querySelectorAll('table.section-figures tbody tr')].map(tr => {
            const row = { title: tr.querySelector('.section-title bdi').textContent,
                          skimmed: tr.querySelector('.skimmed') !== null };
            for (const td of tr.querySelectorAll('td[data-column]')) row[td.dataset.column] = [td.dataset.value, td.textContent];
            return row;
        });""")


def number_of(text):
    return float(text.replace(",", "").split()[0])


class SectionTests(DashboardTestCase):
    @classmethod
    def events(cls):
        return scenario()

    def open_article(self, article=MAPPED, ready="table.section-figures", **query):
        self.browser.open(dashboard_url(self.service, article=article, **query))
        wait_for_view(self.browser, ready)

    def assert_nothing_ran(self):
        self.assertIsNone(self.browser.run("return window.__hostile ?? null"))
        self.assertEqual(self.browser.run("return document.querySelectorAll('img, iframe, object, embed').length"), 0)

    def assert_table(self, stats):
        rows = shown_sections(self.browser)
        self.assertEqual([row["title"] for row in rows], [s["title"] for s in stats["sections"]])
        for row, section in zip(rows, stats["sections"]):
            for key in ("start", "reached", "stoppedWithin", "seconds", "words", "wordsPerMinute"):
                data, text = row[key]
                value = section[key]
                if value is None:
                    self.assertEqual((data, text), ("", "—"), (section["title"], key))
                    continue
                self.assertEqual(float(data), value, (section["title"], key))
                if key in ("start", "reached", "stoppedWithin"):
                    self.assertAlmostEqual(percent_of(text), value * 100, delta=0.05 + 1e-9, msg=key)
                elif key == "seconds" and value < 60:
                    self.assertAlmostEqual(number_of(text), value, delta=0.05 + 1e-9, msg=key)
                elif key == "seconds":
                    self.assertRegex(text, r"\d+ min \d\d s", key)
                else:
                    self.assertEqual(number_of(text), round(value), key)
            wpm = section["wordsPerMinute"]
            self.assertEqual(row["skimmed"], wpm is not None and wpm > SKIMMED_WPM, section["title"])

    def test_the_sections_table_is_the_apis_whatever_the_metric(self):
        for metric in ("progress", "seenDepth"):
            with self.subTest(metric=metric):
                self.open_article(metric=metric)
                stats = self.service.stats(MAPPED, f"metric={metric}")
                self.assertEqual([s["title"] for s in stats["sections"]], [s["title"] for s in SECTIONS])
                self.assertEqual(stats["sections"][0]["words"], 300)
                self.assert_table(stats)
        # The scenario reads the middle quickly: at least one section is marked, one is not.
        marks = [row["skimmed"] for row in shown_sections(self.browser)]
        self.assertIn(True, marks)
        self.assertIn(False, marks)
        help_text = self.browser.run("return document.querySelector('#skimmed-help').textContent")
        self.assertIn("450 words a minute", help_text)
        self.assertIn("240", help_text)

    def test_the_headings_sit_on_the_seen_depth_curve_at_their_starts(self):
        self.open_article(metric="seenDepth", ready="svg.reach-chart .heading")
        stats = self.service.stats(MAPPED, "metric=seenDepth")
        marks = self.browser.run("""
            const ticks = [...document.querySelectorAll('svg.reach-chart .x-tick')];
            const at = (label) => Number(ticks.find(t => t.textContent === label).getAttribute('x'));
            return { x0: at(ticks[0].textContent), x100: at(ticks[ticks.length - 1].textContent),
                     marks: [...document.querySelectorAll('svg.reach-chart .heading')].map(g => ({
                       start: Number(g.dataset.start), x: Number(g.querySelector('line').getAttribute('x1')),
                       title: g.querySelector('title').textContent,
                       label: g.querySelector('text') ? g.querySelector('text').textContent : null })) };""")
        self.assertEqual([m["start"] for m in marks["marks"]], [s["start"] for s in stats["sections"]])
        for mark, section in zip(marks["marks"], stats["sections"]):
            expected = marks["x0"] + section["start"] * (marks["x100"] - marks["x0"])
            self.assertAlmostEqual(mark["x"], expected, delta=0.01, msg=section["title"])
            self.assertTrue(mark["title"].startswith(section["title"] + " "), mark["title"])
            if mark["label"] is not None:
                label = mark["label"]
                self.assertTrue(label == section["title"] or
                                (label.endswith("…") and section["title"].startswith(label[:-1])), label)
        self.assertIn(HOSTILE_TITLE[:27] + "…", [m["label"] for m in marks["marks"]], "markup shown as its characters")
        self.assertIn(HOSTILE_TITLE + " (starts at 15%)", [m["title"] for m in marks["marks"]])
        self.assertIn("section headings", self.browser.run("return document.querySelector('.legend').textContent"))
        self.assert_nothing_ran()

        # With progress the starts would be in the wrong coordinate: no headings, the table stays.
        Select(self.browser.driver.find_element("id", "metric")).select_by_value("progress")
        wait_for_view(self.browser, "svg.reach-chart:not(:has(.heading))")
        self.assertEqual(len(shown_sections(self.browser)), len(SECTIONS))

    def test_the_attention_strip_is_the_apis(self):
        self.open_article(ready="svg.reach-chart .attention-strip")
        stats = self.service.stats(MAPPED)
        self.assertEqual(len(stats["attention"]), 20)
        self.assertGreater(stats["attention"][0], stats["attention"][5])
        strip = self.browser.run("""
            return [...document.querySelectorAll('svg.reach-chart .attention-strip rect.band')].map(r => ({
              band: Number(r.dataset.band), seconds: Number(r.dataset.seconds),
              opacity: Number(r.getAttribute('fill-opacity')), x: Number(r.getAttribute('x')),
              width: Number(r.getAttribute('width')), title: r.querySelector('title').textContent }));""")
        self.assertEqual([band["band"] for band in strip], list(range(20)))
        self.assertEqual([band["seconds"] for band in strip], stats["attention"])
        # Darker for more: the order of opacities is the order of the values, the most at 1.
        most = max(stats["attention"])
        for band in strip:
            self.assertAlmostEqual(band["opacity"], 0.08 + 0.92 * band["seconds"] / most, delta=0.001)
            self.assertIn(f"{band['band'] * 5}–{band['band'] * 5 + 5}%", band["title"])
        widths = {round(band["width"], 1) for band in strip}
        self.assertLessEqual(max(widths) - min(widths), 0.1, "twenty equal bands along the depth axis")
        # The same figures as text, for whoever cannot see the strip.
        table = self.browser.run("""
            return [...document.querySelectorAll('table.attention-figures tbody td')].map(td => Number(td.dataset.value))""")
        self.assertEqual(table, stats["attention"])

    def test_hostile_titles_show_as_text(self):
        self.open_article(metric="seenDepth", ready="svg.reach-chart .heading")
        titles = [row["title"] for row in shown_sections(self.browser)]
        self.assertIn(HOSTILE_TITLE, titles)
        self.assertIn(FORMULA_TITLE, titles)
        self.assertEqual(self.browser.run("return document.querySelectorAll('.section-title bdi').length"),
                         len(SECTIONS), "each title isolated from the text around it")
        self.assert_nothing_ran()

    def test_the_sections_csv_is_the_apis(self):
        self.open_article(range="all")
        stats = self.service.stats(MAPPED)
        self.browser.driver.find_element("xpath", "//button[contains(., 'Download the sections')]").click()
        rows = parse_csv(self.browser.wait_for_download())
        self.assertEqual(rows[0], ["article", "metric", "from", "to", "section", "title", "start", "end", "words",
                                   "reached", "stoppedWithin", "secondsPerReader", "wordsPerMinute", "skimmed"])
        self.assertEqual(len(rows), 1 + len(stats["sections"]))
        for index, (row, section) in enumerate(zip(rows[1:], stats["sections"])):
            self.assertEqual(row[:5], [MAPPED, stats["metric"], "", "", str(index + 1)])
            title = "'" + section["title"] if section["title"].startswith("=") else section["title"]
            self.assertEqual(row[5], title)
            numbers = [section[key] for key in ("start", "end", "words", "reached", "stoppedWithin", "seconds",
                                                "wordsPerMinute")]
            self.assertEqual([float(cell) if cell else None for cell in row[6:13]], numbers)
            wpm = section["wordsPerMinute"]
            self.assertEqual(row[13], "yes" if wpm is not None and wpm > SKIMMED_WPM else "no")
        self.assertIn("'" + FORMULA_TITLE, [row[5] for row in rows[1:]])

    def test_an_article_without_a_map_says_so(self):
        self.open_article(UNMAPPED, ready="[data-state='no-sections']")
        stats = self.service.stats(UNMAPPED)
        self.assertEqual(stats["sections"], [])
        self.assertEqual(stats["attention"], [0] * 20)
        self.assertIn("No sections reported",
                      self.browser.run("return document.querySelector('[data-state=\"no-sections\"]').textContent"))
        self.assertEqual(self.browser.run("return document.querySelectorAll('table.section-figures').length"), 0)
        self.assertEqual(self.browser.run(
            "return [...document.querySelectorAll('button')].filter(b => b.textContent.includes('sections')).length"), 0)
        self.assertEqual(self.browser.run("return document.querySelectorAll('svg.reach-chart .heading').length"), 0)
        strip = self.browser.run(
            "return [...document.querySelectorAll('.attention-strip rect.band')].map(r => Number(r.dataset.seconds))")
        self.assertEqual(strip, stats["attention"])


if __name__ == "__main__":
    unittest.main()
