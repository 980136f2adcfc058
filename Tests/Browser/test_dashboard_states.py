"""What the dashboard says when there is nothing to show or something is wrong: no articles yet
(with the tracker snippet), an article nobody sent, a store that cannot write (a real full
disk), a service that stopped answering."""

import os
import pathlib
import subprocess
import tempfile
import unittest

from dashboard_support import (
    LONG, console_errors_except, dashboard_url, figures, list_rows, same_origin_only, wait_for_view,
)
from support import Browser, Service, event, wait_until


class EmptyAndMissingTests(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.browser = Browser()

    @classmethod
    def tearDownClass(cls):
        cls.browser.quit()

    def setUp(self):
        self.browser.forget()

    def test_no_articles_yet_shows_how_to_start_with_the_tracker(self):
        with Service() as service:
            self.browser.open(dashboard_url(service))
            wait_for_view(self.browser, ".notice.empty")
            notice = self.browser.driver.find_element("css selector", ".notice.empty")
            self.assertIn("No articles yet", notice.text)
            snippet = notice.find_element("css selector", ".snippet").text
            self.assertEqual(
                snippet, f'<script defer src="{service.origin}/tracker.js" data-article="/blog/how-to-read"></script>')
            self.assertEqual(self.browser.driver.find_elements("css selector", "table.articles"), [])
            self.assertEqual(self.browser.console_errors(), [])
            same_origin_only(self, self.browser, service.origin)
            # The first event makes the list appear.
            service.post_events([event("/first", "r1", progress=0.5)])
            self.browser.driver.find_element("css selector", ".segment[data-range='7d']").click()
            wait_for_view(self.browser, "table.articles")
            self.assertEqual([row["article"] for row in list_rows(self.browser)], ["/first"])

    def test_an_article_nobody_sent_is_not_found(self):
        with Service() as service:
            service.post_events([event(LONG, "r1")])
            self.browser.open(dashboard_url(service, article="/never/sent"))
            wait_for_view(self.browser, ".notice.empty[role=alert]")
            text = self.browser.driver.find_element("css selector", ".notice.empty").text
            self.assertIn("No such article", text)
            self.assertIn("/never/sent", text)
            self.assertEqual(console_errors_except(self.browser, 404), [])

    def test_a_service_that_stopped_answering_says_so_and_recovers(self):
        service = Service()
        service.post_events([event(LONG, "r1", progress=0.4)])
        self.browser.open(dashboard_url(service, article=LONG))
        wait_for_view(self.browser, "svg.reach-chart")
        port = service.port
        self.assertEqual(service.stop(), 0)
        self.browser.driver.find_element("css selector", ".segment[data-range='30d']").click()
        wait_for_view(self.browser, ".notice.error")
        panel = self.browser.driver.find_element("css selector", ".notice.error")
        self.assertEqual(panel.get_attribute("data-status"), "0")
        self.assertIn("cannot be reached", panel.text)
        # Back on the same port (a restart), "Try again" shows the figures.
        with Service("--port", str(port)) as again:
            again.post_events([event(LONG, "r2", progress=0.8)])
            panel.find_element("tag name", "button").click()
            wait_until(lambda: figures(self.browser)["readers"][0] == "1", message="the figures after the restart")
        self.assertTrue(all("ERR_CONNECTION_REFUSED" in e["message"] or "Failed to fetch" in e["message"]
                            for e in self.browser.console_errors()), self.browser.console_errors())


@unittest.skipUnless(os.geteuid() == 0, "mounting a tmpfs needs root")
class FullDiskTests(unittest.TestCase):
    """A store on a tmpfs that is then filled: the service refuses writes with 503 and
    /healthz says so; the dashboard says so above the figures it still reads."""

    def setUp(self):
        self.folder = tempfile.mkdtemp(prefix="dashboard-full-disk-")
        self.mount = pathlib.Path(self.folder) / "fs"
        self.mount.mkdir()
        subprocess.run(["mount", "-t", "tmpfs", "-o", "size=8m", "tmpfs", str(self.mount)], check=True)
        self.addCleanup(subprocess.run, ["umount", "-l", str(self.mount)], check=False)
        self.browser = Browser()
        self.addCleanup(self.browser.quit)

    def test_a_full_disk_shows_the_store_as_unavailable(self):
        service = Service(store=f"sqlite:{self.mount}/progress.sqlite3")
        self.addCleanup(service.stop)
        service.post_events([event(LONG, f"r{i}", progress=i / 20) for i in range(20)])
        before = service.stats(LONG)
        junk = self.mount / "junk"
        fill(junk)
        # Big batches use up what SQLite and the journal had allocated ahead, until a 503.
        refused = None
        for round_ in range(20):
            batch = [event("/full", "reader-" * 17 + f"{round_}-{i}", progress=0.5, event_id="id-" * 19 + f"{round_}-{i}")
                     for i in range(1000)]
            answer = service.request("POST", "/v1/events", body=batch)
            if answer.status != 202:
                refused = answer
                break
        self.assertIsNotNone(refused, "the store kept taking writes on a full disk")
        self.assertEqual(refused.status, 503)
        self.assertEqual(service.request("GET", "/healthz").status, 503)

        self.browser.open(dashboard_url(service, article=LONG))
        wait_for_view(self.browser, "svg.reach-chart")
        banner = wait_until(lambda: self.browser.driver.find_element("css selector", "#banner [data-status='503']"),
                            message="the store banner")
        self.assertIn("The store is not accepting new events", banner.text)
        self.assertIn("the store cannot be written", banner.text)
        self.assertTrue(self.browser.driver.find_element("id", "banner").is_displayed())
        # The figures it already had are still read, and still the API's.
        self.assertEqual(figures(self.browser)["readers"][0], str(before["readers"]))
        self.assertEqual(console_errors_except(self.browser, 503), [])

        # Room again: the next look at the service clears the banner.
        junk.unlink()
        self.assertEqual(service.request("GET", "/healthz").status, 200)
        self.browser.driver.find_element("css selector", ".back").click()
        wait_for_view(self.browser, "table.articles")
        wait_until(lambda: not self.browser.driver.find_element("id", "banner").is_displayed(),
                   message="the banner gone", timeout=15)
        self.assertEqual(service.stop(), 0)


def fill(path):
    """Writes junk to `path` until the file system has not one byte left."""
    chunk = b"\xa5" * 65536
    size = len(chunk)
    with open(path, "wb", buffering=0) as file:
        while size > 0:
            try:
                file.write(chunk[:size])
            except OSError:
                size //= 2


if __name__ == "__main__":
    unittest.main()
