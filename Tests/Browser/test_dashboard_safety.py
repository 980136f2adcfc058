"""Hostile data in the dashboard: article ids anyone can post are shown as the characters they
are and run nothing, CSV downloads neutralise cells a spreadsheet would run as formulas, the page
allows no inline script and no framing, and it asks nothing of any origin but its own."""

import re
import unittest
import urllib.parse

from dashboard_support import (
    FORMULAS, HOSTILE, DashboardTestCase, dashboard_url, list_rows, parse_csv, same_origin_only, wait_for_view,
)
from support import StaticServer, wait_until

# What a page that ran any of the hostile ids would leave behind.
RAN_SOMETHING = """return window.__hostile ?? null"""


class SafetyTests(DashboardTestCase):
    def assert_nothing_ran(self):
        self.assertIsNone(self.browser.run(RAN_SOMETHING))
        # Markup in an id would have made elements: an <img> asking for /x, a second <script>.
        self.assertEqual(self.browser.run("return document.querySelectorAll('img, iframe, object, embed').length"), 0)
        self.assertEqual(self.browser.run("return document.scripts.length"), 1)
        paths = [urllib.parse.urlsplit(r["url"]).path for r in self.browser.requests()]
        self.assertNotIn("/x", paths)
        self.assertEqual(self.browser.console_errors(), [])
        same_origin_only(self, self.browser, self.service.origin)

    def test_hostile_ids_show_as_text_in_the_list(self):
        self.browser.open(dashboard_url(self.service, sort="article"))
        wait_for_view(self.browser, "table.articles")
        shown = [row["article"] for row in list_rows(self.browser)]
        for article in HOSTILE + FORMULAS:
            self.assertIn(article, shown)
        # Each link goes to that article's view, never to what the id says.
        for row in list_rows(self.browser):
            self.assertTrue(row["href"].startswith("?article="), row["href"])
            self.assertEqual(urllib.parse.parse_qs(row["href"][1:])["article"], [row["article"]])
        self.assert_nothing_ran()

    def test_hostile_ids_show_as_text_in_their_own_view(self):
        for article in HOSTILE:
            with self.subTest(article=article):
                self.browser.forget()
                self.browser.open(dashboard_url(self.service, article=article))
                wait_for_view(self.browser, "svg.reach-chart")
                heading = self.browser.run("return document.querySelector('h1').textContent")
                self.assertEqual(heading, article)
                self.assertEqual(self.browser.driver.title, f"{article} — Reading progress")
                self.assert_nothing_ran()
        # Through the list too: clicking the link of the id that is a javascript: URL.
        self.browser.open(dashboard_url(self.service, sort="article"))
        wait_for_view(self.browser, "table.articles")
        link = self.browser.driver.find_element(
            "xpath", "//a[bdi[starts-with(normalize-space(), 'javascript:')]]")
        link.click()
        wait_for_view(self.browser, "svg.reach-chart")
        self.assertEqual(self.browser.run("return document.querySelector('h1').textContent"), HOSTILE[2])
        self.assert_nothing_ran()

    def test_the_csv_downloads_neutralise_formulas(self):
        self.browser.open(dashboard_url(self.service, sort="article"))
        wait_for_view(self.browser, "table.articles")
        self.browser.driver.find_element("xpath", "//button[normalize-space()='Download CSV']").click()
        rows = parse_csv(self.browser.wait_for_download())
        cells = {row[0] for row in rows[1:]}
        for formula in FORMULAS:
            self.assertIn("'" + formula, cells)
            self.assertNotIn(formula, cells)
        for article in HOSTILE:
            self.assertIn(article, cells, "other ids are written as they are")
        for row in rows[1:]:
            self.assertFalse(row[0][0] in "=+-@\t\r", row[0])

        for formula in FORMULAS:
            self.browser.open(dashboard_url(self.service, article=formula))
            wait_for_view(self.browser, "svg.reach-chart")
            self.browser.driver.find_element("xpath", "//button[contains(., 'Download the curve')]").click()
            rows = parse_csv(self.browser.wait_for_download())
            self.assertEqual({row[0] for row in rows[1:]}, {"'" + formula})
        self.assert_nothing_ran()

    def test_the_neutralising_rule_covers_tab_and_carriage_return(self):
        # Ids cannot hold control characters, so the rule's other two cases are checked on the
        # module itself, as the page loads it.
        self.browser.open(dashboard_url(self.service))
        wait_for_view(self.browser, "table.articles")
        cells = self.browser.driver.execute_async_script("""
            const done = arguments[arguments.length - 1];
            import('./dashboard/csv.js').then(csv => done(
              ['=1', '+1', '-1', '@a', '\\tx', '\\rx', 'plain', 'a=b', ' =1', 'say "hi", then'].map(csv.field)));""")
        self.assertEqual(cells, ["'=1", "'+1", "'-1", "'@a", "'\tx", "\"'\rx\"", "plain", "a=b", " =1",
                                 "\"say \"\"hi\"\", then\""])

    def test_the_policy_allows_no_inline_script_and_no_framing(self):
        page = self.service.request("GET", "/")
        policy = page.header("Content-Security-Policy")
        self.assertTrue(policy.startswith("default-src 'self'"))
        self.assertNotIn("unsafe-inline", policy)
        self.assertNotIn("unsafe-eval", policy)
        self.assertNotIn(b"<script>", page.body)
        self.assertNotIn(b" style=", page.body)
        self.assertIsNone(re.search(rb"\son[a-z]+\s*=", page.body), "no inline event handler")

        # The policy is enforced: an inline script put into the running page is refused.
        self.browser.open(dashboard_url(self.service))
        wait_for_view(self.browser, "table.articles")
        self.browser.run("""const s = document.createElement('script');
            s.textContent = "window.__hostile = 'inline'"; document.body.append(s);""")
        self.assertIsNone(self.browser.run(RAN_SOMETHING))
        errors = wait_until(lambda: self.browser.console_errors(), message="the refusal in the console")
        self.assertTrue(any("Content Security Policy" in e["message"] for e in errors), errors)

        # Another site cannot frame the dashboard (clickjacking).
        frame = f"<!doctype html><iframe id=f src='{self.service.url('/')}'></iframe>"
        with StaticServer({"/frame.html": ("text/html", frame)}) as pages:
            self.browser.forget()
            self.browser.open(pages.url("/frame.html"))
            errors = wait_until(lambda: [e for e in self.browser.console_errors() if "frame-ancestors" in e["message"]],
                                message="the framing refused")
            self.assertTrue(errors)
        # The refusals above are the test's own doing.
        self.browser.forget()

    def test_no_module_writes_markup_from_strings(self):
        # Every module the page loads, found by loading it (an article view loads them all).
        self.browser.open(dashboard_url(self.service, article=HOSTILE[0]))
        wait_for_view(self.browser, "svg.reach-chart")
        modules = {r["url"] for r in self.browser.requests() if r["type"] == "Script"}
        self.assertGreaterEqual(len(modules), 10)
        for url in modules:
            text = self.service.request("GET", urllib.parse.urlsplit(url).path).text
            for sink in ["innerHTML", "outerHTML", "insertAdjacentHTML", "document.write", "eval(", "new Function"]:
                self.assertNotIn(sink, text, f"{url} uses {sink}")


if __name__ == "__main__":
    unittest.main()
