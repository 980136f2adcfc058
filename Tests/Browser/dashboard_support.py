"""The dashboard tests' scenario and their ways of reading the page.

The scenario is posted over HTTP to a fresh in-memory service: articles with readers today, two
days ago (inside a 7-day range), nine days ago (the 7 days before it) and twenty days ago, some
that cannot scroll, and ids that anyone posting an event could choose: markup, script, formulas.
Expected figures always come from the API itself; the scenario only makes them worth comparing.
"""

import csv
import io
import re
import urllib.parse

from support import LiveTestCase, event, now_ms, wait_until

DAY_MS = 86_400_000

LONG = "/guide/long-read"
SHORT = "/news/short"
OLD = "/archive/old-only"
HOSTILE = [
    "<img src=x onerror=\"window.__hostile='img'\">",
    "\"><script>window.__hostile='script'</script>",
    "javascript:window.__hostile='href'",
    "\u202eevil.exe\u202c and text",
]
FORMULAS = [
    "=HYPERLINK(\"http://evil.example/\",\"click\")",
    "+1+2",
    "-3+4",
    "@SUM(A1:A2)",
]


def days_ago(days, hour=10):
    """A time `days` UTC days before today at `hour`:00 UTC, never later than a minute ago."""
    today = now_ms() // DAY_MS * DAY_MS
    return min(today - days * DAY_MS + hour * 3_600_000, now_ms() - 60_000)


def scenario():
    """The events of the known scenario."""
    events = []
    # The long read: 40 readers two days ago at spread depths, each with a few events and
    # engaged time; 3 who could not scroll; 25 the week before; 10 twenty days ago.
    for i in range(40):
        depth = ((i * 37) % 40 + 0.5) / 40
        for step in range(1, 4):
            events.append(event(LONG, f"long-{i}", progress=depth * step / 3, time_ms=days_ago(2) + i * 1000 + step,
                                engaged_ms=2_000 * step + 100 * i, event_id=f"long-{i}-{step}"))
    for i in range(3):
        events.append(event(LONG, f"flat-{i}", scrollable=False, time_ms=days_ago(2, hour=12), engaged_ms=4_000))
    for i in range(25):
        events.append(event(LONG, f"before-{i}", progress=(i % 10) / 10 + 0.05, time_ms=days_ago(9), engaged_ms=3_000))
    for i in range(10):
        events.append(event(LONG, f"older-{i}", progress=0.97, time_ms=days_ago(20), engaged_ms=60_000))
    # A short article most readers finish, today.
    for i in range(12):
        events.append(event(SHORT, f"short-{i}", progress=1 if i < 9 else 0.4, time_ms=days_ago(0, hour=0) + i,
                            engaged_ms=15_000))
    # An article whose readers are all twenty days back: none in the last 7 or 14 days.
    for i in range(4):
        events.append(event(OLD, f"old-{i}", progress=0.5, time_ms=days_ago(20)))
    for index, article in enumerate(HOSTILE + FORMULAS):
        for reader in range(index + 1):
            events.append(event(article, f"h-{reader}", progress=0.3 * reader % 1, time_ms=days_ago(1)))
    return events


def dashboard_url(service, **query):
    """The dashboard's URL for a view: `dashboard_url(service, article=LONG, range="7d")`."""
    return service.url("/") + ("?" + urllib.parse.urlencode(query) if query else "")


def wait_for_view(browser, selector, timeout=15):
    """Waits until the view has finished loading and shows `selector`."""
    return wait_until(lambda: browser.run(
        "const body = document.querySelector('.view-body, .token-view');"
        "return body && body.getAttribute('aria-busy') !== 'true' && document.querySelector(arguments[0]) !== null",
        selector), timeout=timeout, message=f"the view to show {selector}")


def figures(browser):
    """The article view's figures: key → (data-value, shown text, previous data-value or None)."""
    rows = browser.run("""
        return [...document.querySelectorAll('[data-figure]')].map(f => {
            const value = f.querySelector('dd[data-value]');
            const previous = f.querySelector('dd[data-previous]');
            return [f.dataset.figure, value.dataset.value, value.textContent,
                    previous ? previous.dataset.previous : null];
        });""")
    return {key: (value, text, previous) for key, value, text, previous in rows}


def list_rows(browser):
    """The list's rows: dicts of the article id as shown, and per column its data-value and text."""
    return browser.run("""
        return [...document.querySelectorAll('table.articles tbody tr')].map(tr => {
            const row = { article: tr.querySelector('.article-cell').textContent,
                          href: tr.querySelector('.article-cell a').getAttribute('href') };
            for (const td of tr.querySelectorAll('td[data-column]')) {
                row[td.dataset.column] = [td.dataset.value, td.textContent];
            }
            return row;
        });""")


def chart_points(browser):
    """The chart's points as (depth, reach) from its circles, and the line's vertex count."""
    return browser.run("""
        const points = [...document.querySelectorAll('svg.reach-chart circle.point')]
            .map(c => [Number(c.dataset.depth), Number(c.dataset.reach)]);
        const line = document.querySelector('svg.reach-chart polyline.reach-line');
        const previous = document.querySelector('svg.reach-chart polyline.reach-previous');
        return { points, vertices: line.getAttribute('points').trim().split(/\\s+/).length,
                 previous: previous ? previous.getAttribute('points').trim().split(/\\s+/).length : 0 };""")


def percent_of(text):
    """The number in a shown percentage: "34.2%" → 34.2."""
    match = re.search(r"(-?[\d.,]+)\s*%", text)
    assert match, f"no percentage in {text!r}"
    return float(match.group(1).replace(",", ""))


def count_of(text):
    return int(text.replace(",", "").strip())


def assert_percent(test, text, share, what):
    """`text` shows `share` (0…1) as a percentage to one decimal."""
    test.assertAlmostEqual(percent_of(text), share * 100, delta=0.05 + 1e-9, msg=f"{what}: {text!r} vs {share}")


def parse_csv(data):
    """A downloaded CSV: its rows, after checking the byte-order mark."""
    text = data.decode("utf-8")
    assert text.startswith("\ufeff"), "the CSV starts with a byte-order mark"
    return list(csv.reader(io.StringIO(text[1:], newline="")))


def same_origin_only(test, browser, origin):
    """Every request the page made went to `origin` (blob: downloads are the page's own)."""
    for request in browser.requests():
        url = request["url"]
        if url.startswith("blob:" + origin + "/") or url.startswith("data:"):
            continue
        test.assertTrue(url.startswith(origin + "/"), f"a request left the service's origin: {url}")


def console_errors_except(browser, *statuses):
    """Console errors, leaving out the network lines Chromium logs for answers of `statuses`
    (a 401 the token flow expects, say)."""
    allowed = [f"status of {status}" for status in statuses]
    return [entry for entry in browser.console_errors()
            if not (entry.get("source") == "network" and any(a in entry["message"] for a in allowed))]


class DashboardTestCase(LiveTestCase):
    """A service with the known scenario; every test ends with no console error (but the network
    lines for answers of `expected_statuses`) and no request off the service's origin."""

    expected_statuses = ()

    @classmethod
    def events(cls):
        return scenario()

    def tearDown(self):
        self.assertEqual(console_errors_except(self.browser, *self.expected_statuses), [])
        same_origin_only(self, self.browser, self.service.origin)
