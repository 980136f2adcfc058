"""The dashboard as a person meets it, on the `--demo` sample: screenshots at desktop and phone
widths (the list, an article, an article's segments compared) kept under .build/browser-artifacts/, nothing wider than a phone, every control labelled
and reachable from the keyboard, and text in colours that keep their contrast."""

import unittest
from datetime import datetime

from selenium.webdriver.common.keys import Keys

from dashboard_support import DashboardTestCase, dashboard_url, wait_for_view
from support import ARTIFACTS

ARTICLE = "/recipes/sourdough-bread"

# For every visible element with text of its own: its colour against the first opaque
# background behind it, as WCAG's contrast ratio; SVG text against the chart's white.
CONTRASTS = """
function rgb(text) { const m = text.match(/[\\d.]+/g).map(Number); return { r: m[0], g: m[1], b: m[2], a: m[3] ?? 1 }; }
function luminance({ r, g, b }) {
  const f = (c) => { c /= 255; return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4; };
  return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b);
}
function background(element) {
  for (let e = element; e; e = e.parentElement) {
    const color = rgb(getComputedStyle(e).backgroundColor);
    if (color.a > 0.5) return color;
  }
  return { r: 255, g: 255, b: 255 };
}
const results = [];
for (const element of document.querySelectorAll('body *')) {
  const own = [...element.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim());
  if (!own || element.closest('.visually-hidden, [hidden], .cursor, option')) continue;
  const style = getComputedStyle(element);
  const box = element.getBoundingClientRect();
  if (style.visibility === 'hidden' || box.width === 0) continue;
  const svg = element instanceof SVGElement;
  const color = rgb(svg ? style.fill : style.color);
  const back = svg ? { r: 255, g: 255, b: 255 } : background(element);
  const [hi, lo] = [luminance(color), luminance(back)].sort((a, b) => b - a);
  const disabled = element.closest('button:disabled');
  results.push([element.tagName, element.textContent.trim().slice(0, 40), (hi + 0.05) / (lo + 0.05), Boolean(disabled)]);
}
return results;
"""


class ScreenTests(DashboardTestCase):
    service_arguments = ("--demo",)

    @classmethod
    def events(cls):
        return []

    def tearDown(self):
        super().tearDown()
        self.browser.driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})

    def views(self):
        return [
            ("list", dashboard_url(self.service), "table.articles"),
            ("article", dashboard_url(self.service, article=ARTICLE, range="7d", compare="1", metric="seenDepth"),
             "svg.reach-chart .reach-previous ~ .headings"),
            ("segments", dashboard_url(self.service, article=ARTICLE, device="phone", by="source"),
             "table.segment-figures"),
        ]

    def test_screenshots_at_desktop_and_phone_widths(self):
        for width, height, mobile, name in [(1280, 900, False, "desktop"), (390, 844, True, "phone")]:
            self.browser.viewport(width, height, mobile=mobile, scale=2 if mobile else 1)
            for view, url, ready in self.views():
                with self.subTest(view=view, width=width):
                    self.browser.open(url)
                    wait_for_view(self.browser, ready)
                    self.assertEqual(self.browser.run("return innerWidth"), width)
                    overflow = self.browser.run("return document.documentElement.scrollWidth - innerWidth")
                    self.assertLessEqual(overflow, 0, f"the {view} view is wider than {width} px")
                    path = self.browser.screenshot(f"dashboard-{view}-{name}")
                    self.assertGreater(path.stat().st_size, 10_000)
        self.assertTrue((ARTIFACTS / "dashboard-article-phone.png").exists())

    def test_every_control_is_labelled_and_reachable_by_keyboard(self):
        for view, url, ready in self.views():
            with self.subTest(view=view):
                self.browser.open(url)
                wait_for_view(self.browser, ready)
                unlabelled = self.browser.run("""
                    return [...document.querySelectorAll('input, select, textarea')]
                        .filter(e => e.labels.length === 0 && !e.getAttribute('aria-label')).map(e => e.outerHTML);""")
                self.assertEqual(unlabelled, [])
                nameless = self.browser.run("""
                    return [...document.querySelectorAll('button, a[href]')]
                        .filter(e => !e.textContent.trim() && !e.getAttribute('aria-label')).map(e => e.outerHTML);""")
                self.assertEqual(nameless, [])
                # Tab from the top visits every control (and the chart), each with a visible focus.
                controls = self.browser.run("""
                    return [...document.querySelectorAll('main button:not(:disabled), main input:not(:disabled), main select, main a[href], main [tabindex="0"]')]
                        .filter(e => e.getBoundingClientRect().width > 0).length;""")
                self.browser.run("document.activeElement.blur(); window.scrollTo(0, 0)")
                reached = set()
                body = self.browser.driver.find_element("tag name", "body")
                body.send_keys(Keys.TAB)
                for _ in range(controls + 12):
                    reached.add(self.browser.run("""const e = document.activeElement;
                        return e.closest('main') ? (e.id || e.dataset.range || e.dataset.sort || e.className.baseVal || e.className || e.textContent).toString() : null"""))
                    self.browser.driver.switch_to.active_element.send_keys(Keys.TAB)
                reached.discard(None)
                if view == "article":
                    self.assertIn("reach-chart", reached)
                    for control in ["metric", "threshold", "min-engaged", "compare", "7d", "article-from"]:
                        self.assertIn(control, reached)
                elif view == "segments":
                    for control in ["segment-device", "segment-source", "compare-by", "reach-chart"]:
                        self.assertIn(control, reached)
                else:
                    for control in ["prefix", "limit", "readers", "completion", "7d", "list-from"]:
                        self.assertIn(control, reached)
                outline = self.browser.run("""const e = document.querySelector('#metric, #prefix'); e.focus();
                    return getComputedStyle(e).outlineStyle""")
                self.assertNotEqual(outline, "none")

    def test_text_keeps_its_contrast(self):
        for view, url, ready in self.views():
            with self.subTest(view=view):
                self.browser.open(url)
                wait_for_view(self.browser, ready)
                results = self.browser.run(CONTRASTS)
                self.assertGreater(len(results), 50)
                low = [(tag, text, round(ratio, 2)) for tag, text, ratio, disabled in results
                       if ratio < 4.5 and not disabled]
                self.assertEqual(low, [])

    def test_the_demo_sample_fills_the_dashboard(self):
        rows = self.service.articles()
        self.assertGreaterEqual(len(rows), 6)
        self.assertTrue(all(row["readers"] > 50 for row in rows), rows)
        rates = sorted(row["completionRate"] for row in rows)
        self.assertLess(rates[0], 0.1)
        self.assertGreater(rates[-1], 0.5)
        stats = [self.service.stats(row["article"]) for row in rows]
        self.assertTrue(any(s["unscrollableReaders"] > 0 for s in stats))
        self.assertTrue(all(s["engagedSeconds"]["total"] > 0 for s in stats))
        first = min(datetime.fromisoformat(s["firstEventAt"]) for s in stats)
        last = max(datetime.fromisoformat(s["lastEventAt"]) for s in stats)
        self.assertGreaterEqual((last - first).days, 21, "a few weeks of readers")
        # Some articles have a map of sections and attention along the body; others have none.
        mapped = [s for s in stats if s["sections"]]
        self.assertGreaterEqual(len(mapped), 3)
        self.assertLess(len(mapped), len(stats))
        for s in mapped:
            self.assertGreater(min(s["attention"]), 0, s["article"])
            speeds = [section["wordsPerMinute"] for section in s["sections"]]
            self.assertGreater(max(speeds), 450, f"a section of {s['article']} is skimmed")
            self.assertLess(speeds[0], 450, f"the introduction of {s['article']} is read")


if __name__ == "__main__":
    unittest.main()
