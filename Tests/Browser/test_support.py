"""The harness itself: what the other browser tests rely on to fail when they should."""

import unittest

from support import LiveTestCase, StaticServer, event, wait_until


class HarnessTests(LiveTestCase):
    def test_console_errors_and_requests_to_other_origins_are_recorded(self):
        page = f"""<!doctype html><title>probe</title><script>
            console.error("recorded error");
            fetch("{self.service.url('/healthz')}").then(r => r.json()).then(j => document.title = j.status);
            setTimeout(() => {{ throw new Error("uncaught in a timer"); }}, 0);
            </script>"""
        with StaticServer({"/probe.html": ("text/html; charset=utf-8", page)}) as pages:
            self.browser.forget()
            self.browser.open(pages.url("/probe.html"))
            wait_until(lambda: self.browser.driver.title == "ok", message="the fetch to the service")
            errors = wait_until(
                lambda: [e["message"] for e in self.browser.console_errors()] if len(self.browser.console_errors()) >= 2 else None,
                message="two console errors")
            self.assertTrue(any("recorded error" in m for m in errors), errors)
            self.assertTrue(any("uncaught in a timer" in m for m in errors), errors)
            urls = [r["url"] for r in self.browser.requests()]
            self.assertIn(pages.url("/probe.html"), urls)
            self.assertIn(self.service.url("/healthz"), urls)
            self.assertEqual(pages.requests[0][1], "/probe.html")

    def test_beacons_are_recorded_with_what_they_sent(self):
        body = '{"article":"/beacon","reader":"b1","contentOffset":{"x":0,"y":0},' \
            '"contentSize":{"width":1,"height":1},"containerSize":{"width":1,"height":1}}'
        page = f"""<!doctype html><title>beacon</title><script>
            document.title = navigator.sendBeacon("{self.service.url('/v1/events')}", {body!r}) ? "sent" : "no";
            </script>"""
        with StaticServer({"/beacon.html": ("text/html", page)}, hostname="localhost") as pages:
            self.browser.open(pages.url("/beacon.html"))
            self.assertEqual(self.browser.driver.title, "sent")
            beacon = wait_until(
                lambda: next((r for r in self.browser.requests() if r["url"].endswith("/v1/events")), None),
                message="the beacon")
            self.assertEqual(beacon["method"], "POST")
            self.assertEqual(beacon["type"], "Ping")
            self.assertEqual(beacon["body"], body)
            wait_until(lambda: self.service.stats("/beacon")["readers"] == 1, message="the beacon's event counted")

    def test_events_posted_over_http_are_in_the_statistics(self):
        self.service.post_events([event("/harness", f"r{i}", progress=i / 4) for i in range(5)])
        stats = self.service.stats("/harness")
        self.assertEqual(stats["readers"], 5)
        self.assertEqual(stats["depth"]["median"], 0.5)
        self.assertIn("/harness", [row["article"] for row in self.service.articles()])

    def test_screenshots_and_viewports(self):
        with StaticServer({"/": ("text/html", "<!doctype html><meta name=viewport content=\"width=device-width\"><p>narrow</p>")}) as pages:
            self.browser.open(pages.url("/"))
            self.browser.viewport(390, 844, mobile=True)
            self.assertEqual(self.browser.run("return innerWidth"), 390)
            path = self.browser.screenshot("harness-phone")
            self.assertEqual(path.read_bytes()[:8], b"\x89PNG\r\n\x1a\n")
            path.unlink()
            self.browser.driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


if __name__ == "__main__":
    unittest.main()
