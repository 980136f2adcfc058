"""One article in the dashboard against the live service: the figures are the API's, the chart
draws the API's 101 points and follows the controls, the previous period is the API's answer for
the days before, the readout reads the curve, and a link opens the same view."""

import unittest
import urllib.parse

from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select

from dashboard_support import (
    LONG, SHORT, DashboardTestCase, assert_percent, chart_points, count_of, dashboard_url, figures, parse_csv,
    wait_for_view,
)
from support import Browser, day_of, now_ms, wait_until

DAY = 86_400_000


def api_figures(stats):
    """The API's answer under the keys the page gives its figures."""
    return {
        "readers": stats["readers"], "unscrollableReaders": stats["unscrollableReaders"], "events": stats["events"],
        "completed": stats["completion"]["completed"], "completionRate": stats["completion"]["rate"],
        "depthMean": stats["depth"]["mean"], "depthP25": stats["depth"]["p25"], "depthMedian": stats["depth"]["median"],
        "depthP75": stats["depth"]["p75"], "engagedTotal": stats["engagedSeconds"]["total"],
        "engagedPerReader": stats["engagedSeconds"]["meanPerReader"], "firstEventAt": stats["firstEventAt"],
        "lastEventAt": stats["lastEventAt"],
    }


class ArticleTests(DashboardTestCase):
    def open_article(self, article=LONG, **query):
        self.browser.open(dashboard_url(self.service, article=article, **query))
        wait_for_view(self.browser, "svg.reach-chart")

    def assert_figures(self, stats, shown=None):
        """Every figure the page shows is the API's, as a value and as text."""
        shown = shown or figures(self.browser)
        expected = api_figures(stats)
        self.assertEqual(set(shown), set(expected))
        for key, value in expected.items():
            data, text, _ = shown[key]
            if value is None:
                self.assertEqual((data, text), ("", "—"), key)
            elif isinstance(value, str):
                self.assertEqual(data, value, key)
                self.assertIn("UTC", text)
            else:
                self.assertEqual(float(data), value, key)
                if key in ("readers", "unscrollableReaders", "events", "completed"):
                    self.assertEqual(count_of(text), value, key)
                elif key.startswith("engaged"):
                    self.assertRegex(text, r"\d", key)
                else:
                    assert_percent(self, text, value, key)

    def assert_chart(self, stats):
        chart = chart_points(self.browser)
        self.assertEqual(len(chart["points"]), 101)
        self.assertEqual(chart["vertices"], 101)
        self.assertEqual([depth for depth, _ in chart["points"]], list(range(101)))
        self.assertEqual([reach for _, reach in chart["points"]], stats["reach"])
        markers = self.browser.run(
            "return Object.fromEntries([...document.querySelectorAll('[data-marker]')]"
            ".map(m => [m.dataset.marker, Number(m.dataset.depth)]))")
        self.assertEqual(markers, {"p25": stats["depth"]["p25"], "median": stats["depth"]["median"],
                                   "p75": stats["depth"]["p75"], "threshold": stats["completion"]["threshold"]})
        table = self.browser.run(
            "return [...document.querySelectorAll('table.curve-points tbody td:first-of-type')].map(td => Number(td.dataset.value))")
        self.assertEqual(table, stats["reach"])

    def test_the_figures_and_the_curve_are_the_apis(self):
        self.open_article()
        stats = self.service.stats(LONG)
        self.assertEqual(stats["readers"], 78)
        self.assertEqual(stats["unscrollableReaders"], 3)
        self.assert_figures(stats)
        self.assert_chart(stats)
        self.assertEqual(self.browser.driver.find_element("css selector", "h1").text, LONG)
        self.assertEqual(self.browser.driver.title, f"{LONG} — Reading progress")
        labels = self.browser.run("return [...document.querySelectorAll('.axis-titles text')].map(t => t.textContent)")
        self.assertEqual(labels, ["% of readers", "depth"])

    def test_the_chart_follows_every_control(self):
        self.open_article()
        url_query = lambda: urllib.parse.parse_qs(urllib.parse.urlsplit(self.browser.driver.current_url).query)
        before = chart_points(self.browser)["points"]

        Select(self.browser.driver.find_element("id", "metric")).select_by_value("seenDepth")
        wait_until(lambda: url_query().get("metric") == ["seenDepth"], message="the metric in the URL")
        stats = self.service.stats(LONG, "metric=seenDepth")
        wait_until(lambda: [r for _, r in chart_points(self.browser)["points"]] == stats["reach"], message="the seenDepth curve")
        self.assertNotEqual(chart_points(self.browser)["points"], before)
        self.assert_figures(stats)

        threshold = self.browser.driver.find_element("id", "threshold")
        threshold.clear()
        threshold.send_keys("50", Keys.ENTER)
        wait_until(lambda: url_query().get("threshold") == ["0.5"], message="the threshold in the URL")
        stats = self.service.stats(LONG, "metric=seenDepth&threshold=0.5")
        wait_until(lambda: figures(self.browser)["completionRate"][0] == str(stats["completion"]["rate"]),
                   message="the completion rate at 50%")
        self.assert_figures(stats)
        self.assert_chart(stats)

        engaged = self.browser.driver.find_element("id", "min-engaged")
        engaged.send_keys("5", Keys.ENTER)
        wait_until(lambda: url_query().get("minEngagedSeconds") == ["5"], message="the engaged minimum in the URL")
        stats = self.service.stats(LONG, "metric=seenDepth&threshold=0.5&minEngagedSeconds=5")
        wait_until(lambda: figures(self.browser)["completed"][0] == str(stats["completion"]["completed"]),
                   message="the completions with 5 engaged seconds")
        self.assert_figures(stats)

        self.browser.driver.find_element("css selector", ".segment[data-range='7d']").click()
        wait_until(lambda: url_query().get("range") == ["7d"], message="the range in the URL")
        start, today = day_of(now_ms() - 6 * DAY), day_of(now_ms())
        stats = self.service.stats(LONG, f"metric=seenDepth&threshold=0.5&minEngagedSeconds=5&from={start}&to={today}")
        wait_until(lambda: figures(self.browser)["readers"][0] == str(stats["readers"]), message="the 7-day readers")
        self.assertEqual(stats["readers"], 43)
        self.assert_figures(stats)
        self.assert_chart(stats)

    def test_the_previous_period_is_the_apis_answer_for_the_days_before(self):
        self.open_article(range="7d")
        self.browser.driver.find_element("id", "compare").click()
        wait_until(lambda: "compare=1" in self.browser.driver.current_url, message="compare in the URL")
        wait_until(lambda: chart_points(self.browser)["previous"] == 101, message="the previous period's curve")
        previous = self.service.stats(LONG, f"from={day_of(now_ms() - 13 * DAY)}&to={day_of(now_ms() - 7 * DAY)}")
        self.assertEqual(previous["readers"], 25)
        shown = figures(self.browser)
        self.assertEqual(shown["readers"][2], "25")
        self.assertEqual(float(shown["completionRate"][2]), previous["completion"]["rate"])
        column = self.browser.run(
            "return [...document.querySelectorAll('table.curve-points tbody td:nth-of-type(2)')].map(td => Number(td.dataset.value))")
        self.assertEqual(column, previous["reach"])
        # With all time there is no period before: the control says so and is off.
        self.browser.driver.find_element("css selector", ".segment[data-range='all']").click()
        wait_until(lambda: self.browser.run("return document.getElementById('compare').disabled"),
                   message="compare disabled for all time")
        wait_until(lambda: chart_points(self.browser)["previous"] == 0, message="the chart without a previous curve")
        self.assertEqual(figures(self.browser)["readers"][2], None)

    def test_pointer_and_keyboard_read_the_curve(self):
        self.open_article()
        stats = self.service.stats(LONG)
        svg = self.browser.driver.find_element("css selector", "svg.reach-chart")
        box = self.browser.run(
            "const r = document.querySelector('svg.reach-chart .hit').getBoundingClientRect();"
            "const s = document.querySelector('svg.reach-chart').getBoundingClientRect();"
            "return [r.left - s.left, r.width, s.width, s.height]")
        left, width, svg_width, svg_height = box
        depth = 40
        offset_x = left + width * depth / 100 - svg_width / 2
        ActionChains(self.browser.driver).move_to_element_with_offset(svg, round(offset_x), 0).perform()
        readout = lambda: self.browser.driver.find_element("css selector", ".readout")
        wait_until(lambda: readout().get_attribute("data-depth") is not None, message="the readout to follow the pointer")
        k = int(readout().get_attribute("data-depth"))
        self.assertLessEqual(abs(k - depth), 1)
        text = readout().text
        self.assertRegex(text, rf"^[\d.]+% of readers reached {k}%\.$")
        assert_percent(self, text, stats["reach"][k], f"reach at {k}%")
        tip = self.browser.run("return document.querySelector('svg.reach-chart text.tip').textContent")
        self.assertEqual(tip + ".", text)

        # Focus and arrows: the keyboard moves the same readout one percent at a time.
        self.browser.run("arguments[0].focus()", svg)
        svg.send_keys(Keys.HOME)
        wait_until(lambda: readout().get_attribute("data-depth") == "0", message="Home to depth 0")
        self.assertIn("of readers reached 0%", readout().text)
        svg.send_keys(Keys.ARROW_RIGHT, Keys.ARROW_RIGHT, Keys.ARROW_RIGHT)
        wait_until(lambda: readout().get_attribute("data-depth") == "3", message="three steps right")
        assert_percent(self, readout().text, stats["reach"][3], "reach at 3%")
        svg.send_keys(Keys.END)
        wait_until(lambda: readout().get_attribute("data-depth") == "100", message="End to depth 100")

    def test_a_link_opens_the_same_view_in_another_browser(self):
        query = {"range": "30d", "metric": "seenDepth", "threshold": "0.75", "minEngagedSeconds": "3", "compare": "1"}
        self.open_article(**query)
        wait_until(lambda: chart_points(self.browser)["previous"] == 101, message="the comparison")
        url = self.browser.driver.current_url
        first = figures(self.browser)
        first_chart = chart_points(self.browser)
        with Browser() as other:
            other.open(url)
            wait_for_view(other, "svg.reach-chart .reach-previous")
            self.assertEqual(figures(other), first)
            self.assertEqual(chart_points(other)["points"], first_chart["points"])
            controls = other.run("return ['metric', 'threshold', 'min-engaged', 'compare', 'article-from', 'article-to']"
                                 ".map(id => { const e = document.getElementById(id); return e.type === 'checkbox' ? e.checked : e.value; })")
            self.assertEqual(controls, ["seenDepth", "75", "3", True, day_of(now_ms() - 29 * DAY), day_of(now_ms())])
            self.assertEqual(other.console_errors(), [])
        start = day_of(now_ms() - 29 * DAY)
        stats = self.service.stats(LONG, f"metric=seenDepth&threshold=0.75&minEngagedSeconds=3&from={start}&to={day_of(now_ms())}")
        self.assert_figures(stats, first)

    def test_the_curve_downloads_as_csv(self):
        self.open_article(SHORT)
        self.browser.driver.find_element("xpath", "//button[contains(., 'Download the curve')]").click()
        rows = parse_csv(self.browser.wait_for_download())
        stats = self.service.stats(SHORT)
        self.assertEqual(rows[0], ["article", "metric", "from", "to", "depth", "shareOfReaders"])
        self.assertEqual(len(rows), 102)
        for k, row in enumerate(rows[1:]):
            self.assertEqual(row[:4], [SHORT, "progress", "", ""])
            self.assertEqual((float(row[4]), float(row[5])), (k / 100, stats["reach"][k]))

    def test_an_article_without_events_in_range_says_so(self):
        self.open_article("/archive/old-only", range="7d")
        wait_for_view(self.browser, "[data-state='no-readers']")
        notice = self.browser.driver.find_element("css selector", "[data-state='no-readers']")
        self.assertIn("No readers in this range", notice.text)
        self.assertEqual(figures(self.browser)["readers"][0], "0")
        notice.find_element("tag name", "button").click()
        wait_until(lambda: figures(self.browser)["readers"][0] == "4", message="all time's readers")
        self.assertNotIn("range=", self.browser.driver.current_url)


if __name__ == "__main__":
    unittest.main()
