"""What every browser test needs: the real service on a free port, events posted over HTTP,
headless Chromium that records its console and its network requests, a static file server on
another origin for test pages, and a folder for screenshots. The service and the events
posted to it are live_service.py's, imported from here.

./scripts/test runs every Tests/Browser/test_*.py with the virtualenv it makes (selenium,
Debian's chromium and chromium-driver). One file alone:

    .build/browser-tests/bin/python -m unittest discover -s Tests/Browser -p test_dashboard_list.py -v
"""

import json
import os
import pathlib
import tempfile
import time
import unittest

# Part of what the tests import from here.
from live_service import ROOT, Response, Service, day_of, event, executable, now_ms  # noqa: F401
from static_server import StaticServer  # noqa: F401

ARTIFACTS = ROOT / ".build" / "browser-artifacts"

# Selenium must never fetch a driver or a browser, nor report usage: both are given explicitly.
os.environ["SE_OFFLINE"] = "true"
os.environ["SE_AVOID_STATS"] = "true"

CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"


def wait_until(condition, timeout=10.0, interval=0.05, message="condition"):
    """Polls `condition` until it returns something truthy, and returns that; fails the test
    with `message` (a string, or a function giving one) once `timeout` seconds have passed."""
    deadline = time.monotonic() + timeout
    last_error = None
    while True:
        try:
            value = condition()
            if value:
                return value
        except Exception as error:  # a page still rendering: stale elements and the like
            last_error = error
        if time.monotonic() > deadline:
            text = message() if callable(message) else message
            suffix = f" (last error: {last_error!r})" if last_error else ""
            raise AssertionError(f"timed out after {timeout} s waiting for {text}{suffix}")
        time.sleep(interval)


class Browser:
    """Headless Chromium driven by selenium, recording what the page logs to its console and
    every request it makes (Chrome's DevTools performance log). Downloads go to `downloads`."""

    def __init__(self, width=1280, height=900, downloads=None):
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service as DriverService

        options = webdriver.ChromeOptions()
        options.binary_location = CHROMIUM
        for argument in [
            "--headless=new", "--no-sandbox", "--disable-dev-shm-usage", f"--window-size={width},{height}",
            "--no-first-run", "--no-default-browser-check", "--disable-background-networking",
            "--disable-component-update", "--disable-sync", "--disable-default-apps", "--lang=en-US",
        ]:
            options.add_argument(argument)
        options.set_capability("goog:loggingPrefs", {"browser": "ALL", "performance": "ALL"})
        self.downloads = pathlib.Path(downloads or tempfile.mkdtemp(prefix="browser-downloads-"))
        options.add_experimental_option("prefs", {
            "download.default_directory": str(self.downloads),
            "download.prompt_for_download": False,
        })
        self.driver = webdriver.Chrome(options=options, service=DriverService(executable_path=CHROMEDRIVER))
        self.driver.set_script_timeout(30)
        self.driver.execute_cdp_cmd(
            "Browser.setDownloadBehavior", {"behavior": "allow", "downloadPath": str(self.downloads)})
        self._console = []
        self._requests = {}

    # -- what the page did --------------------------------------------------------------------

    def _drain(self):
        self._console += self.driver.get_log("browser")
        for entry in self.driver.get_log("performance"):
            message = json.loads(entry["message"])["message"]
            params = message.get("params", {})
            if message.get("method") == "Network.requestWillBeSent":
                request = params["request"]
                self._requests[params["requestId"]] = {
                    "url": request["url"], "method": request["method"], "type": params.get("type"),
                    "headers": request.get("headers", {}), "body": request.get("postData"), "status": None,
                }
            elif message.get("method") == "Network.responseReceived":
                seen = self._requests.get(params["requestId"])
                if seen is not None:
                    seen["status"] = params["response"]["status"]

    def console(self):
        """Every console entry so far: dicts with `level` (`SEVERE` for errors) and `message`."""
        self._drain()
        return list(self._console)

    def console_errors(self):
        """Console errors, uncaught exceptions, failed loads and policy violations so far."""
        return [entry for entry in self.console() if entry["level"] == "SEVERE"]

    def requests(self):
        """Every request the page made so far: dicts with `url`, `method`, `type` (`Fetch`, `Ping` for
        a beacon, …), `headers`, `body` (what was posted, when Chromium kept it) and `status`."""
        self._drain()
        return list(self._requests.values())

    def forget(self):
        """Starts the console and request records afresh."""
        self._drain()
        self._console = []
        self._requests = {}

    # -- driving it ---------------------------------------------------------------------------

    def open(self, url):
        self.driver.get(url)

    def run(self, script, *arguments):
        return self.driver.execute_script(script, *arguments)

    def viewport(self, width, height, mobile=False, scale=1):
        """Emulates a viewport of exactly `width` × `height` CSS pixels (headless Chromium's
        window size includes browser chrome it only pretends to have)."""
        self.driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
            "width": width, "height": height, "deviceScaleFactor": scale, "mobile": mobile})

    def screenshot(self, name, full_page=True):
        """Saves a PNG of the page under .build/browser-artifacts/ and returns its path."""
        import base64

        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        path = ARTIFACTS / f"{name}.png"
        shot = self.driver.execute_cdp_cmd(
            "Page.captureScreenshot", {"format": "png", "captureBeyondViewport": full_page})
        path.write_bytes(base64.b64decode(shot["data"]))
        return path

    def wait_for_download(self, suffix=".csv", timeout=15):
        """The path of the first finished download ending in `suffix`; removed from the folder's
        listing once read, so that the next download is told apart. Chromium reserves the
        final name with an empty file while it writes `*.crdownload`, and renames that over it
        when done: a download is finished when no `.crdownload` is left and the file has bytes."""
        def finished():
            entries = list(self.downloads.iterdir())
            if any(p.name.endswith(".crdownload") for p in entries):
                return None
            for path in entries:
                try:
                    if path.name.endswith(suffix) and path.stat().st_size > 0:
                        return path
                except FileNotFoundError:  # renamed between the listing and the look
                    pass
            return None
        path = wait_until(finished, timeout=timeout, message=f"a {suffix} download in {self.downloads}")
        data = path.read_bytes()
        path.unlink()
        return data

    def quit(self):
        self.driver.quit()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.quit()


class LiveTestCase(unittest.TestCase):
    """One service (`serve` with `service_arguments`, given the events of `events()`) and one
    browser for all the tests of a class, stopped when they are done; each test starts with
    fresh console and request records."""

    service_arguments = ()

    @classmethod
    def events(cls):
        return []

    @classmethod
    def setUpClass(cls):
        cls.service = Service(*cls.service_arguments)
        cls.addClassCleanup(cls.stop_service)
        events = cls.events()
        if events:
            cls.service.post_events(events)
        cls.browser = Browser()
        cls.addClassCleanup(cls.browser.quit)

    @classmethod
    def stop_service(cls):
        status = cls.service.stop()
        if status != 0:
            raise AssertionError(f"the service exited with status {status}; its log: {cls.service.log()}")

    def setUp(self):
        self.browser.forget()
