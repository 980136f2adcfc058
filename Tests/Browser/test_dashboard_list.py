"""The dashboard's list against the live service: what it shows is what the API answers, in
every sort, range and page, filtered by prefix, and downloaded as CSV."""

import unittest
import urllib.parse

from dashboard_support import (
    LONG, OLD, SHORT, DashboardTestCase, assert_percent, count_of, dashboard_url, list_rows, parse_csv, scenario,
    wait_for_view,
)
from support import day_of, event, now_ms, wait_until

SORTS = {"readers": "Readers", "completion": "Completion", "recent": "Last event", "article": "Article"}


class ListTests(DashboardTestCase):
    @classmethod
    def events(cls):
        # More articles than a page holds, so that the pager has pages to walk.
        return scenario() + [event(f"/filler/{n:02}", "r", progress=n / 60) for n in range(60)]

    def assert_rows_match(self, shown, expected):
        self.assertEqual([row["article"] for row in shown], [row["article"] for row in expected])
        for row, api in zip(shown, expected):
            self.assertEqual(int(row["readers"][0]), api["readers"], row["article"])
            self.assertEqual(count_of(row["readers"][1]), api["readers"])
            self.assertEqual(int(row["events"][0]), api["events"])
            self.assertEqual(count_of(row["events"][1]), api["events"])
            self.assertEqual(float(row["completionRate"][0]), api["completionRate"])
            assert_percent(self, row["completionRate"][1], api["completionRate"], row["article"])
            self.assertEqual(float(row["meanDepth"][0]), api["meanDepth"])
            assert_percent(self, row["meanDepth"][1], api["meanDepth"], row["article"])
            self.assertEqual(row["lastEventAt"][0], api["lastEventAt"] or "")

    def open_list(self, **query):
        self.browser.open(dashboard_url(self.service, **query))
        wait_for_view(self.browser, "table.articles")

    def test_every_row_equals_the_api_in_every_sort(self):
        self.open_list()
        for sort, label in SORTS.items():
            with self.subTest(sort=sort):
                self.browser.driver.find_element("css selector", f"th button[data-sort='{sort}']").click()
                wait_until(lambda: ("sort=" + sort) in self.browser.driver.current_url or sort == "readers",
                           message="the URL to carry the sort")
                expected = self.first_page(f"sort={sort}")
                wait_until(lambda: [r["article"] for r in list_rows(self.browser)] == [r["article"] for r in expected],
                           message=f"the rows sorted by {sort}")
                self.assert_rows_match(list_rows(self.browser), expected)
                header = self.browser.driver.find_element("css selector", "th[aria-sort]")
                self.assertIn(label, header.text)

    def test_presets_and_custom_dates_ask_the_api_for_those_days(self):
        self.open_list()
        today = day_of(now_ms())
        for preset, days in [("7d", 7), ("30d", 30), ("90d", 90)]:
            with self.subTest(preset=preset):
                self.browser.driver.find_element("css selector", f".segment[data-range='{preset}']").click()
                wait_until(lambda: f"range={preset}" in self.browser.driver.current_url, message="the URL")
                start = day_of(now_ms() - (days - 1) * 86_400_000)
                expected = self.first_page(f"from={start}&to={today}")
                wait_until(lambda: self.rows_equal(expected), message=f"the rows of {preset}")
                self.assertEqual(
                    self.browser.run("return document.querySelector('.segment[aria-pressed=true]').dataset.range"), preset)
        # In the last 7 days the old article has no reader, and says so.
        self.open_list(range="7d", prefix="/archive/")
        wait_until(lambda: self.rows_equal(
            self.first_page(f"from={day_of(now_ms() - 6 * 86_400_000)}&to={today}&prefix=/archive/")),
            message="the 7-day rows")
        old = next(row for row in list_rows(self.browser) if row["article"] == OLD)
        self.assertEqual(old["readers"][0], "0")
        self.assertIn("no event in range", old["lastEventAt"][1])

        # Custom dates: the inputs' values become from and to.
        start, end = day_of(now_ms() - 10 * 86_400_000), day_of(now_ms() - 5 * 86_400_000)
        self.open_list(**{"from": start, "to": end})
        expected = self.first_page(f"from={start}&to={end}")
        wait_until(lambda: self.rows_equal(expected), message="the custom range's rows")
        self.assertEqual(self.browser.run("return document.getElementById('list-from').value"), start)
        self.assertEqual(self.browser.run("return document.getElementById('list-to').value"), end)
        set_start = """const input = document.getElementById('list-from');
            input.value = arguments[0]; input.dispatchEvent(new Event('change', {bubbles: true}));"""
        # A start after the end is refused by the control, not sent.
        url = self.browser.driver.current_url
        self.browser.run(set_start, day_of(now_ms() - 3 * 86_400_000))
        self.assertFalse(self.browser.run("return document.getElementById('list-to').checkValidity()"))
        self.assertEqual(self.browser.driver.current_url, url)
        later = day_of(now_ms() - 7 * 86_400_000)
        self.browser.run(set_start, later)
        wait_until(lambda: f"from={later}" in self.browser.driver.current_url, message="the new start in the URL")
        wait_until(lambda: self.rows_equal(self.first_page(f"from={later}&to={end}")), message="rows of the new start")

    def first_page(self, query=""):
        """The rows of the list's first page (of 50) for `query`."""
        return self.service.get_json("/v1/articles?limit=50" + (f"&{query}" if query else ""))["articles"]

    def rows_equal(self, expected):
        shown = list_rows(self.browser)
        if [r["article"] for r in shown] != [r["article"] for r in expected]:
            return False
        self.assert_rows_match(shown, expected)
        return True

    def test_pages_follow_the_api_cursor_forward_and_back(self):
        self.open_list(sort="article", limit="25")
        pages, cursor = [], None
        while True:
            page = self.service.get_json("/v1/articles?sort=article&limit=25" + (f"&cursor={cursor}" if cursor else ""))
            pages.append(([r["article"] for r in page["articles"]], page["next"]))
            cursor = page["next"]
            if not cursor:
                break
        self.assertGreaterEqual(len(pages), 3, "the scenario fills at least three pages of 25")
        shown = lambda: [r["article"] for r in list_rows(self.browser)]
        button = lambda label: self.browser.driver.find_element("xpath", f"//nav[@class='pager']/button[contains(., '{label}')]")
        for number, (articles, next_cursor) in enumerate(pages, start=1):
            wait_until(lambda: shown() == articles, message=f"page {number}")
            self.assertEqual(self.browser.driver.find_element("css selector", ".page-number").text, f"Page {number}")
            self.assertEqual(button("Next").is_enabled(), next_cursor is not None)
            self.assertEqual(button("Previous").is_enabled(), number > 1)
            if next_cursor:
                button("Next").click()
                wait_until(lambda: urllib.parse.parse_qs(urllib.parse.urlsplit(self.browser.driver.current_url).query)
                           .get("cursor") == [next_cursor], message="the API's cursor in the URL")
        button("Previous").click()
        wait_until(lambda: shown() == pages[-2][0], message="the page before, by the pager")
        self.browser.driver.back()
        wait_until(lambda: shown() == pages[-1][0], message="the last page again, by the browser's Back")
        self.browser.driver.back()
        self.browser.driver.back()
        wait_until(lambda: shown() == pages[-3][0], message="an earlier page, by the browser's Back")
        # A link to a later page opens that page.
        self.browser.open(self.browser.driver.current_url)
        wait_until(lambda: shown() == pages[-3][0], message="the linked page")

    def test_the_prefix_filter_lists_only_matching_ids(self):
        self.open_list()
        field = self.browser.driver.find_element("id", "prefix")
        field.send_keys("/guide/")
        wait_until(lambda: "prefix=%2Fguide%2F" in self.browser.driver.current_url, message="the prefix in the URL")
        expected = self.service.articles("prefix=/guide/")
        self.assertEqual([r["article"] for r in expected], [LONG])
        wait_until(lambda: self.rows_equal(expected), message="only the matching rows")
        field.clear()
        field.send_keys("/nothing-starts-like-this")
        wait_for_view(self.browser, ".notice.empty")
        self.assertIn("No article id starts with", self.browser.driver.find_element("css selector", ".notice.empty").text)
        self.browser.driver.find_element("css selector", ".notice.empty button").click()
        wait_until(lambda: self.rows_equal(self.first_page()), message="every row again")

    def test_a_deep_link_opens_the_same_list(self):
        start = day_of(now_ms() - 29 * 86_400_000)
        query = {"range": "30d", "sort": "completion", "prefix": "/"}
        self.open_list(**query)
        expected = self.first_page(f"sort=completion&prefix=/&from={start}&to={day_of(now_ms())}")
        wait_until(lambda: self.rows_equal(expected), message="the linked view")
        self.assertEqual(self.browser.driver.find_element("id", "prefix").get_attribute("value"), "/")
        self.assertEqual(self.browser.run("return document.querySelector('th[aria-sort] button').dataset.sort"), "completion")
        # A row's link opens that article with the list's range, and Back returns to the list.
        link = next(row["href"] for row in list_rows(self.browser) if row["article"] == SHORT)
        self.assertEqual(urllib.parse.parse_qs(link.lstrip("?")), {"article": [SHORT], "range": ["30d"]})
        self.browser.driver.find_element("css selector", f"a[href='{link}']").click()
        wait_for_view(self.browser, "svg.reach-chart")
        self.browser.driver.back()
        wait_until(lambda: self.rows_equal(expected), message="the list again after Back")

    def test_the_list_downloads_as_csv_with_the_api_figures(self):
        self.open_list(sort="article")
        self.browser.driver.find_element("xpath", "//button[normalize-space()='Download CSV']").click()
        rows = parse_csv(self.browser.wait_for_download())
        self.assertEqual(rows[0], ["article", "readers", "events", "completionRate", "meanDepth", "lastEventAt"])
        expected = self.service.articles("sort=article")
        self.assertEqual(len(rows) - 1, len(expected))
        for row, api in zip(rows[1:], expected):
            self.assertEqual(row[0].removeprefix("'") if api["article"][0] in "=+-@" else row[0], api["article"])
            self.assertEqual([int(row[1]), int(row[2]), float(row[3]), float(row[4]), row[5]],
                             [api["readers"], api["events"], api["completionRate"], api["meanDepth"],
                              api["lastEventAt"] or ""])


if __name__ == "__main__":
    unittest.main()
