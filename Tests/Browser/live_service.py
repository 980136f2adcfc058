"""The real service for the browser tests (and Tests/Deploy, through support.py): the
`reading-progress serve` of this checkout on a free port, requests to it over HTTP, and the
events they post.

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
import urllib.error
import urllib.parse
import urllib.request

ROOT = pathlib.Path(__file__).resolve().parents[2]


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
