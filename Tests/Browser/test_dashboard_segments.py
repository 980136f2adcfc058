"""Segments in the dashboard against the live service: "compare by device / source" draws the
API's curves and lists its figures, with a legend that tells the curves apart by line pattern and
marker as well as colour; a device and a source picked as a filter narrow the whole article view
to the API's filtered answer, and stay in the URL across a reload."""

import unittest
import urllib.parse

from selenium.webdriver.support.ui import Select

from dashboard_support import DashboardTestCase, assert_percent, dashboard_url, days_ago, figures, wait_for_view
from support import event, wait_until

ARTICLE = "/guide/segments"
# (device, source, readers, depth): phones stop early, the newsletter reads furthest, and seven
# sources in all, so that by source two of them fold into `other`.
GROUPS = [
    ("phone", None, 9, 0.3), ("phone", "news.example", 5, 0.45), ("desktop", "newsletter", 6, 0.95),
    ("desktop", None, 4, 0.7), ("tablet", "social.example", 3, 0.6), ("phone", "search.example", 3, 0.5),
    ("other", "a.example", 2, 0.8), ("desktop", "b.example", 1, 1.0), ("tablet", "c.example", 1, 0.2),
]

PLURALS = {"circle": "circles", "square": "squares", "triangle": "triangles", "diamond": "diamonds", "cross": "crosses"}


def scenario():
    events = []
    for group, (device, source, count, depth) in enumerate(GROUPS):
        for i in range(count):
            body = event(ARTICLE, f"g{group}-{i}", progress=min(1, depth + i * 0.02), time_ms=days_ago(1) + i,
                         engaged_ms=4_000)
            body["device"] = device
            if source:
                body["source"] = source.upper() if i == 0 else source
            events.append(body)
    return events


def shown_segments(browser):
    """The comparison: per table row its name and per column data-value and text; per curve its
    name, pattern, marker and reach; per legend entry its name, pattern, marker and text."""
    return browser.run("""
        const q = (selector) => [...document.querySelectorAll(selector)];
        return {
          rows: q('table.segment-figures tbody tr').map(tr => {
            const row = { segment: tr.dataset.segment, name: tr.querySelector('.segment-name bdi').textContent };
            for (const td of tr.querySelectorAll('td[data-column]')) row[td.dataset.column] = [td.dataset.value, td.textContent];
            return row;
          }),
          curves: q('svg.segments-chart .segment-curve').map(g => ({
            segment: g.dataset.segment, dash: g.dataset.dash, marker: g.dataset.marker,
            drawnDash: g.querySelector('polyline').getAttribute('stroke-dasharray'),
            markers: g.querySelectorAll('.segment-markers path').length,
            markerClass: g.querySelector('.segment-markers path').getAttribute('class'),
            reach: g.dataset.reach.split(',').map(Number),
            vertices: g.querySelector('polyline').getAttribute('points').trim().split(/\\s+/).length })),
          legend: q('.segment-legend li').map(li => ({
            segment: li.dataset.segment, dash: li.dataset.dash, marker: li.dataset.marker, text: li.textContent,
            swatchDash: li.querySelector('svg line').getAttribute('stroke-dasharray'),
            swatchMarker: li.querySelector('svg path').getAttribute('class') })),
        };""")


class SegmentTests(DashboardTestCase):
    @classmethod
    def events(cls):
        return scenario()

    def segments_api(self, query):
        return self.service.get_json(f"/v1/articles/{urllib.parse.quote(ARTICLE, safe='')}/segments?{query}")

    def open_article(self, ready, **query):
        self.browser.open(dashboard_url(self.service, article=ARTICLE, **query))
        wait_for_view(self.browser, ready)

    def assert_comparison(self, answer):
        shown = shown_segments(self.browser)
        drawn = answer["segments"][:5]
        listed = answer["segments"] + ([answer["other"]] if answer["other"] else [])
        self.assertEqual([row["segment"] for row in shown["rows"]], [g["segment"] for g in listed])
        for row, segment in zip(shown["rows"], listed):
            name = segment["segment"]
            self.assertEqual(row["name"], name)
            self.assertEqual(int(row["readers"][0]), segment["readers"], name)
            self.assertEqual(row["readers"][1].strip(), str(segment["readers"]), name)
            self.assertEqual(int(row["completed"][0]), segment["completion"]["completed"], name)
            for column, value in (("completionRate", segment["completion"]["rate"]),
                                  ("depthMean", segment["depth"]["mean"]), ("depthMedian", segment["depth"]["median"])):
                self.assertEqual(float(row[column][0]), value, (name, column))
                assert_percent(self, row[column][1], value, f"{name} {column}")
        self.assertEqual([c["segment"] for c in shown["curves"]], [g["segment"] for g in drawn])
        for curve, segment in zip(shown["curves"], drawn):
            self.assertEqual(curve["reach"], segment["reach"], curve["segment"])
            self.assertEqual(curve["vertices"], 101, curve["segment"])
        # Not by colour alone: every curve has its own line pattern and marker shape, the legend
        # entry draws the same ones and names the segment, and says the pattern in words.
        self.assertEqual(len({c["dash"] for c in shown["curves"]}), len(drawn))
        self.assertEqual(len({c["marker"] for c in shown["curves"]}), len(drawn))
        self.assertEqual([entry["segment"] for entry in shown["legend"]], [g["segment"] for g in drawn])
        for curve, entry in zip(shown["curves"], shown["legend"]):
            self.assertEqual((entry["dash"], entry["marker"]), (curve["dash"], curve["marker"]))
            self.assertEqual(entry["swatchDash"], curve["drawnDash"])
            self.assertEqual(entry["swatchMarker"], curve["markerClass"])
            self.assertEqual(curve["markerClass"], f"marker-{curve['marker']}")
            self.assertGreater(curve["markers"], 5)
            self.assertIn(curve["segment"], entry["text"])
            self.assertIn(PLURALS[curve["marker"]], entry["text"])
        return shown

    def test_compare_by_device_shows_the_apis_curves_and_figures(self):
        self.open_article("table.segment-figures", by="device")
        answer = self.segments_api("by=device&limit=5")
        self.assertEqual([g["segment"] for g in answer["segments"]], ["phone", "desktop", "tablet", "other"])
        self.assertEqual(answer["segments"][0]["readers"], 17)
        self.assertIsNone(answer["other"])
        shown = self.assert_comparison(answer)
        self.assertEqual(len(shown["curves"]), 4)
        # The phone readers stop earlier than the desktop ones.
        phone, desktop = answer["segments"][0], answer["segments"][1]
        self.assertLess(phone["depth"]["mean"], desktop["depth"]["mean"])
        self.assertEqual(Select(self.browser.driver.find_element("id", "compare-by")).first_selected_option
                         .get_attribute("value"), "device")

    def test_compare_by_source_draws_five_and_folds_the_rest(self):
        self.open_article("svg.reach-chart", metric="seenDepth", threshold="0.5")
        self.assertIsNone(self.browser.run("return document.querySelector('table.segment-figures')"))
        Select(self.browser.driver.find_element("id", "compare-by")).select_by_value("source")
        wait_until(lambda: "by=source" in self.browser.driver.current_url, message="by=source in the URL")
        wait_until(lambda: self.browser.run("return document.querySelector('.segment-compare')?.dataset.by") == "source",
                   message="the comparison by source")
        wait_for_view(self.browser, "table.segment-figures")
        answer = self.segments_api("by=source&limit=5&metric=seenDepth&threshold=0.5")
        self.assertEqual(len(answer["segments"]), 5)
        self.assertEqual(answer["other"]["segment"], "(other)")
        self.assertEqual(answer["segments"][0]["segment"], "(direct)")
        shown = self.assert_comparison(answer)
        self.assertEqual(len(shown["curves"]), 5)
        self.assertEqual(shown["rows"][-1]["segment"], "(other)")

    def test_a_segment_filters_the_whole_view_and_survives_a_reload(self):
        self.open_article("[data-figure='readers']")
        self.assertEqual(figures(self.browser)["readers"][0], str(sum(g[2] for g in GROUPS)))
        Select(self.browser.driver.find_element("id", "segment-device")).select_by_value("desktop")
        wait_until(lambda: "device=desktop" in self.browser.driver.current_url, message="device in the URL")
        # The source picker offers the sources the API lists, as kept (lower-cased).
        wait_until(lambda: "newsletter" in self.browser.run(
            "return [...document.querySelectorAll('#segment-source option')].map(o => o.value)"),
            message="the sources offered")
        Select(self.browser.driver.find_element("id", "segment-source")).select_by_value("newsletter")
        wait_until(lambda: "source=newsletter" in self.browser.driver.current_url, message="source in the URL")
        stats = self.service.stats(ARTICLE, "device=desktop&source=newsletter")
        self.assertEqual(stats["readers"], 6)
        for reload in (False, True):
            if reload:
                self.browser.driver.refresh()
                wait_for_view(self.browser, "[data-state='segment']")
            wait_until(lambda: figures(self.browser)["readers"][0] == "6", message="the segment's readers")
            shown = figures(self.browser)
            self.assertEqual(float(shown["completionRate"][0]), stats["completion"]["rate"])
            self.assertEqual(float(shown["depthMean"][0]), stats["depth"]["mean"])
            self.assertEqual(float(shown["depthMedian"][0]), stats["depth"]["median"])
            self.assertEqual(int(shown["events"][0]), stats["events"])
            self.assertEqual(shown["firstEventAt"][1], "—")
            points = self.browser.run(
                "return [...document.querySelectorAll('svg.reach-chart circle.point')].map(c => Number(c.dataset.reach))")
            self.assertEqual(points, stats["reach"])
            pickers = self.browser.run("return ['segment-device', 'segment-source'].map(id => document.getElementById(id).value)")
            self.assertEqual(pickers, ["desktop", "newsletter"])
            note = self.browser.driver.find_element("css selector", "[data-state='segment']").text
            self.assertIn("desktop readers from newsletter", note)
        # Back to every reader.
        self.browser.driver.find_element("css selector", "[data-state='segment'] button").click()
        wait_until(lambda: "device=" not in self.browser.driver.current_url, message="the filter gone from the URL")
        wait_until(lambda: figures(self.browser)["readers"][0] == str(sum(g[2] for g in GROUPS)), message="every reader")

    def test_a_filter_and_a_comparison_together(self):
        self.open_article("table.segment-figures", device="phone", by="source")
        answer = self.segments_api("by=source&limit=5&device=phone")
        self.assertEqual([g["segment"] for g in answer["segments"]], ["(direct)", "news.example", "search.example"])
        self.assert_comparison(answer)
        phone = self.service.stats(ARTICLE, "device=phone")
        self.assertEqual(figures(self.browser)["readers"][0], str(phone["readers"]))
        assert_percent(self, figures(self.browser)["completionRate"][1], phone["completion"]["rate"], "phone completion")


if __name__ == "__main__":
    unittest.main()
