"""Where the reader came from (`source`, docs/tracker.md "Source"), in headless Chromium against
the live service: a link from another site (its host only, never the path or query of its
address), a campaign link, a link within the site (also from another port of its host), and no
referrer at all."""

import unittest

from tracker_support import StaticServer, TrackerTestCase, news, page, wait_until


class SourceTests(TrackerTestCase):
    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        # Another site (`localhost` is another host than 127.0.0.1), and another origin of the
        # tracked site's own host.
        cls.other = StaticServer(hostname="localhost")
        cls.addClassCleanup(cls.other.stop)
        cls.sibling = StaticServer()
        cls.addClassCleanup(cls.sibling.stop)

    def arrive(self, article, via=None, query="", policy="unsafe-url"):
        """Opens `article` by clicking a link on `via` (a page server), or directly; returns the
        events its view sent once the page is hidden, and the page's `document.referrer`."""
        self.serve(article, news(self.service, reader=None))
        target = self.pages.url(article) + query
        if via is None:
            self.open(article + query)
        else:
            # The linking page gives away its whole address unless its policy says otherwise: the
            # tracker must still send the host alone.
            via.pages["/from/front-page.html"] = ("text/html; charset=utf-8", f"""<!doctype html>
                <meta name="referrer" content="{policy}"><a id="go" href="{target}">the story</a>""")
            self.browser.open(via.url("/from/front-page.html?session=secret-token#top"))
            self.driver.find_element("id", "go").click()
            wait_until(lambda: self.browser.run("return location.pathname") == article, message=f"{article} open")
        wait_until(lambda: self.browser.run("return document.readyState") == "complete", message="loaded")
        referrer = self.browser.run("return document.referrer")
        self.hide()
        sent = wait_until(lambda: (lambda s: s if s and all(e["_request"]["status"] for e in s) else None)(
            [e for e in self.events_sent() if e["article"] == article]), message="the answers to the events")
        for event in sent:
            self.assertEqual(event["_request"]["status"], 202, event)
            self.assertNotIn("secret", event["_request"]["body"])
            self.assertNotIn("front-page", event["_request"]["body"])
        return sent, referrer

    def test_a_link_from_another_site_sends_its_host_only(self):
        sent, referrer = self.arrive("/source/linked.html", via=self.other)
        self.assertIn("front-page.html?session=secret-token", referrer)
        self.assertEqual({e.get("source") for e in sent}, {"localhost"})

    def test_a_campaign_link_sends_its_utm_source(self):
        sent, _ = self.arrive("/source/campaign.html", via=self.other, query="?utm_source=Weekly%20Letter&utm_medium=email")
        self.assertEqual({e.get("source") for e in sent}, {"Weekly Letter"})

    def test_a_link_within_the_site_sends_none(self):
        for via in (self.pages, self.sibling):
            with self.subTest(via.origin):
                self.browser.forget()
                sent, referrer = self.arrive(f"/source/inside-{via.port}.html", via=via)
                self.assertTrue(referrer.startswith(via.origin), referrer)
                self.assertEqual([e for e in sent if "source" in e], [])

    def test_no_referrer_sends_none(self):
        sent, referrer = self.arrive("/source/typed.html")
        self.assertEqual((referrer, [e for e in sent if "source" in e]), ("", []))
        self.browser.forget()
        sent, referrer = self.arrive("/source/hidden.html", via=self.other, policy="no-referrer")
        self.assertEqual(referrer, "")
        self.assertEqual([e for e in sent if "source" in e], [])


if __name__ == "__main__":
    unittest.main()
