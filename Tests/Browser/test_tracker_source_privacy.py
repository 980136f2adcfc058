"""A source is a host, never a URL (docs/privacy.md): a reader arrives at a tracked page from
another site whose address carries a path and a query, the tracker's events are counted under
that site's host, and neither the path nor the query is in any file of the store (a SQLite store
of its own, read while the service runs and after its clean stop) or in the service's log."""

import pathlib
import shutil
import tempfile
import unittest
import urllib.parse

from support import Browser, Service
from tracker_support import StaticServer, TrackerTestCase, news, wait_until

ARTICLE = "/source/private.html"
SECRETS = ["secret", "secret-path", "q=secret"]


class SourcePrivacyTests(TrackerTestCase):
    @classmethod
    def setUpClass(cls):
        cls.folder = pathlib.Path(tempfile.mkdtemp(prefix="source-privacy-"))
        cls.addClassCleanup(shutil.rmtree, cls.folder, True)
        cls.pages = StaticServer()
        cls.addClassCleanup(cls.pages.stop)
        # Another site: `localhost` is another host than 127.0.0.1.
        cls.other = StaticServer(hostname="localhost")
        cls.addClassCleanup(cls.other.stop)
        cls.service = Service("--allowed-origins", cls.pages.origin, "--log-requests", "true",
                              store=f"sqlite:{cls.folder / 'data.sqlite3'}")
        cls.addClassCleanup(cls.stop_service)
        cls.browser = Browser()
        cls.addClassCleanup(cls.browser.quit)
        cls.driver = cls.browser.driver

    def scan(self, what):
        """Asserts that no file under the store's folder and not the log holds a secret, while the
        store does hold the source's host (so the scan reads what the store keeps)."""
        files = [path for path in self.folder.rglob("*") if path.is_file()]
        self.assertTrue(any(b"localhost" in path.read_bytes() for path in files), f"{what}: the host is kept")
        for path in files:
            data = path.read_bytes()
            for secret in SECRETS:
                for spelling in (secret.encode("utf-8"), secret.encode("utf-16-le"), secret.encode("utf-16-be")):
                    self.assertNotIn(spelling, data, f"{what}: {path} holds {secret!r}")
        log = self.service.log()
        self.assertIn("/v1/events", log, f"{what}: the log has the requests")
        for secret in SECRETS:
            self.assertNotIn(secret, log, f"{what}: the log holds {secret!r}")

    def test_a_referrer_with_a_path_and_a_query_leaves_only_its_host(self):
        self.serve(ARTICLE, news(self.service, reader=None))
        self.other.pages["/secret-path"] = ("text/html; charset=utf-8", f"""<!doctype html>
            <meta name="referrer" content="unsafe-url"><a id="go" href="{self.pages.url(ARTICLE)}">the story</a>""")
        self.browser.open(self.other.url("/secret-path?q=secret"))
        self.driver.find_element("id", "go").click()
        wait_until(lambda: self.browser.run("return location.pathname") == ARTICLE, message="the article open")
        wait_until(lambda: self.browser.run("return document.readyState") == "complete", message="loaded")
        self.assertIn("/secret-path?q=secret", self.browser.run("return document.referrer"))
        self.hide()
        segment = urllib.parse.quote(ARTICLE, safe="")
        split = wait_until(lambda: (lambda answer: answer if answer.status == 200 and answer.json()["segments"] else None)(
            self.service.request("GET", f"/v1/articles/{segment}/segments?by=source")), message="the event counted")
        self.assertEqual([g["segment"] for g in split.json()["segments"]], ["localhost"])
        self.assertEqual(self.service.stats(ARTICLE, "source=localhost")["readers"], 1)
        wait_until(lambda: "/v1/articles/{article}/segments 200" in self.service.log(), message="the request logged")
        self.scan("while the service runs")
        self.assertEqual(self.service.stop(), 0)
        self.scan("after a clean stop")


if __name__ == "__main__":
    unittest.main()
