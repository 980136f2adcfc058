"""What every browser test needs: the real service on a free port, events posted over HTTP,
headless Chromium that records its console and its network requests, a static file server on
another origin for test pages, and a folder for screenshots.

./scripts/test runs every Tests/Browser/test_*.py with the virtualenv it makes (selenium,
Debian's chromium and chromium-driver). One file alone:

    .build/browser-tests/bin/python -m unittest discover -s Tests/Browser -p test_dashboard_list.py -v

The service is the executable in READING_PROGRESS_BIN, or the debug build of this checkout.
"""

import contextlib
import json
import os
import pathlib
import select
import signal
import subprocess
import tempfile
import time
import unittest
import urllib.error
import urllib.parse
import urllib.request

from static_server import StaticServer  # noqa: F401 (part of what the tests import from here)

ROOT = pathlib.Path(__file__).resolve().parents[2]
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


def now_ms():
    return int(time.time() * 1000)


def day_of(ms):
    """The UTC day `YYYY-MM-DD` of a time in epoch milliseconds."""
    return time.strftime("%Y-%m-%d", time.gmtime(ms / 1000))


class Response:
    def __init__(self, status, headers, body):
        self.status = status
        self.headers = headers
        self.body = body

    def header(self, name):
        return self.headers.get(name)

    @property
    def text(self):
        return self.body.decode("utf-8")

    def json(self):
        return json.loads(self.body)


class Service:
    """The real `reading-progress serve` on a free port of 127.0.0.1, with `arguments` after the
    ones every test gives (`--port 0`, `--store`, no request log). Stop it with `stop()`, or use
    it as a context manager."""

    def __init__(self, *arguments, store="memory:", env=None, timeout=30):
        self.log_file = tempfile.NamedTemporaryFile(prefix="reading-progress-", suffix=".log", delete=False)
        self.final_log = None
        environment = dict(os.environ)
        environment.update(env or {})
        self.process = subprocess.Popen(
            [executable(), "serve", "--port", "0", "--store", store, "--log-requests", "false", *arguments],
            stdout=subprocess.PIPE, stderr=self.log_file, env=environment)
        line = self._read_line(timeout)
        prefix = "listening on http://"
        if not line.startswith(prefix):
            self.stop()
            raise AssertionError(f"the service did not start: {line!r}; its log: {self.log()}")
        self.port = int(line.rsplit(":", 1)[1])
        self.origin = f"http://127.0.0.1:{self.port}"

    def _read_line(self, timeout):
        deadline = time.monotonic() + timeout
        data = b""
        while b"\n" not in data and time.monotonic() < deadline:
            ready, _, _ = select.select([self.process.stdout], [], [], 0.1)
            if ready:
                chunk = os.read(self.process.stdout.fileno(), 4096)
                if not chunk:
                    break
                data += chunk
            elif self.process.poll() is not None:
                break
        return data.decode("utf-8", "replace").split("\n", 1)[0]

    def url(self, path="/"):
        return self.origin + path

    def request(self, method, path, body=None, headers=None, token=None):
        """One HTTP request to the service; any status comes back as a Response."""
        headers = dict(headers or {})
        if token is not None:
            headers["Authorization"] = f"Bearer {token}"
        if isinstance(body, (dict, list)):
            body = json.dumps(body).encode("utf-8")
            headers.setdefault("Content-Type", "application/json")
        request = urllib.request.Request(self.url(path), data=body, method=method, headers=headers)
        try:
            with urllib.request.urlopen(request, timeout=30) as answer:
                return Response(answer.status, answer.headers, answer.read())
        except urllib.error.HTTPError as error:
            return Response(error.code, error.headers, error.read())

    def get_json(self, path, token=None):
        response = self.request("GET", path, token=token)
        if response.status != 200:
            raise AssertionError(f"GET {path}: {response.status} {response.body[:300]!r}")
        return response.json()

    def post_events(self, events):
        """Posts `events` (any number: in batches of 1000) and checks every one was taken."""
        for start in range(0, len(events), 1000):
            batch = events[start:start + 1000]
            response = self.request("POST", "/v1/events", body=batch)
            answer = response.json() if response.body else {}
            if response.status != 202 or answer.get("accepted") != len(batch):
                raise AssertionError(f"POST /v1/events: {response.status} {response.body[:500]!r}")

    def stats(self, article, query="", token=None):
        """`GET /v1/articles/{article}/stats?query` as JSON."""
        segment = urllib.parse.quote(article, safe="")
        return self.get_json(f"/v1/articles/{segment}/stats" + (f"?{query}" if query else ""), token=token)

    def articles(self, query="", token=None):
        """Every row of `GET /v1/articles?query`, following `next`."""
        rows, cursor = [], None
        while True:
            parameters = urllib.parse.parse_qsl(query) + [("limit", "1000")]
            if cursor:
                parameters.append(("cursor", cursor))
            page = self.get_json("/v1/articles?" + urllib.parse.urlencode(parameters), token=token)
            rows += page["articles"]
            cursor = page["next"]
            if not cursor:
                return rows

    def log(self):
        """What the service wrote to standard error (its lifecycle lines), also once stopped."""
        if self.final_log is not None:
            return self.final_log
        return pathlib.Path(self.log_file.name).read_text(errors="replace")

    def stop(self):
        """SIGTERM, then the exit status (the service must stop cleanly within 30 s)."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.process.stdout.close()
        self.log_file.close()
        if self.final_log is None:
            self.final_log = self.log()
            with contextlib.suppress(OSError):
                os.unlink(self.log_file.name)
        return self.process.returncode

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.stop()


def executable():
    return os.environ.get("READING_PROGRESS_BIN") or str(ROOT / ".build" / "debug" / "reading-progress")


def event(article, reader, progress=0.5, scrollable=True, time_ms=None, engaged_ms=0, event_id=None):
    """An event of a reader at `progress` of a window-scrolled page 10 000 px long in a 1 000 px
    viewport (so `seenDepth` is 0.1 + 0.9 × progress); an unscrollable one is a page shorter than
    its viewport (progress 0, seenDepth 1)."""
    content = 10_000 if scrollable else 800
    scroll = progress * (content - 1_000) if scrollable else 0
    body = {
        "article": article, "reader": reader,
        "contentOffset": {"x": 0, "y": scroll},
        "contentSize": {"width": 800, "height": content},
        "containerSize": {"width": 800, "height": 1_000},
        "engagedMs": engaged_ms,
        "time": time_ms if time_ms is not None else now_ms(),
    }
    if event_id is not None:
        body["id"] = event_id
    return body


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
