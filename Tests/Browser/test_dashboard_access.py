"""The dashboard with --api-token: the page asks for the token on 401, says so when it is wrong,
keeps it for the tab only (sessionStorage) and sends it as the bearer token."""

import unittest

from dashboard_support import (
    LONG, console_errors_except, dashboard_url, figures, list_rows, same_origin_only, scenario, wait_for_view,
)
from support import Browser, Service

TOKEN = "s3cret-Token_42"


class TokenTests(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.service = Service("--api-token", TOKEN)
        cls.service.post_events(scenario())

    @classmethod
    def tearDownClass(cls):
        assert cls.service.stop() == 0

    def setUp(self):
        self.browser = Browser()

    def tearDown(self):
        # The only errors are Chromium's lines for the 401s the flow expects.
        self.assertEqual(console_errors_except(self.browser, 401), [])
        same_origin_only(self, self.browser, self.service.origin)
        self.browser.quit()

    def submit(self, token):
        field = self.browser.driver.find_element("id", "token")
        field.clear()
        field.send_keys(token)
        self.browser.driver.find_element("css selector", ".token-form button[type=submit]").click()

    def test_a_wrong_token_is_said_to_be_wrong_and_the_right_one_shows_the_figures(self):
        self.browser.open(dashboard_url(self.service))
        wait_for_view(self.browser, "#token")
        self.assertEqual(self.browser.run("return document.activeElement.id"), "token")
        self.assertEqual(self.browser.driver.find_element("id", "token").get_attribute("type"), "password")
        self.assertEqual(self.browser.driver.find_elements("id", "token-error"), [])

        self.submit("not-the-token")
        wait_for_view(self.browser, "#token-error")
        self.assertIn("not accepted", self.browser.driver.find_element("id", "token-error").text)
        self.assertIsNone(self.browser.run("return sessionStorage.getItem('reading-progress.api-token')"))

        self.submit(TOKEN)
        wait_for_view(self.browser, "table.articles")
        expected = self.service.get_json("/v1/articles?limit=50", token=TOKEN)["articles"]
        self.assertEqual([row["article"] for row in list_rows(self.browser)], [row["article"] for row in expected])
        self.assertEqual(self.browser.run("return sessionStorage.getItem('reading-progress.api-token')"), TOKEN)
        self.assertIn("Using an API token", self.browser.driver.find_element("id", "session").text)

        # Every API request after that carries the token as a bearer token.
        self.browser.driver.find_element("css selector", f"a[href*='{LONG.replace('/', '%2F')}']").click()
        wait_for_view(self.browser, "svg.reach-chart")
        stats = self.service.stats(LONG, token=TOKEN)
        self.assertEqual(figures(self.browser)["readers"][0], str(stats["readers"]))
        api = [r for r in self.browser.requests() if "/v1/" in r["url"]]
        self.assertTrue(api)
        answered = [r for r in api if r["status"] == 200]
        self.assertTrue(answered)
        for request in answered:
            self.assertEqual(request["headers"].get("Authorization"), f"Bearer {TOKEN}", request["url"])

    def test_the_token_lasts_for_the_tab_and_can_be_forgotten(self):
        self.browser.open(dashboard_url(self.service, article=LONG))
        wait_for_view(self.browser, "#token")
        self.submit(TOKEN)
        wait_for_view(self.browser, "svg.reach-chart")
        # A reload in the same tab keeps it; the view is the one asked for.
        self.browser.driver.refresh()
        wait_for_view(self.browser, "svg.reach-chart")
        self.assertEqual(self.browser.run("return document.querySelector('h1').textContent"), LONG)
        # Another browser (another tab's storage) is asked again.
        with Browser() as other:
            other.open(dashboard_url(self.service, article=LONG))
            wait_for_view(other, "#token")
        # Forgetting it asks again.
        self.browser.driver.find_element("xpath", "//button[normalize-space()='Forget it']").click()
        wait_for_view(self.browser, "#token")
        self.assertIsNone(self.browser.run("return sessionStorage.getItem('reading-progress.api-token')"))
        self.assertEqual(self.browser.driver.find_elements("id", "token-error"), [])

    def test_a_token_that_stopped_working_is_asked_for_again(self):
        self.browser.open(dashboard_url(self.service))
        wait_for_view(self.browser, "#token")
        # A token kept from before that the service no longer takes (it restarted with another).
        self.browser.run("sessionStorage.setItem('reading-progress.api-token', 'an-old-token')")
        self.browser.driver.refresh()
        wait_for_view(self.browser, "#token-error")
        self.submit(TOKEN)
        wait_for_view(self.browser, "table.articles")


if __name__ == "__main__":
    unittest.main()
