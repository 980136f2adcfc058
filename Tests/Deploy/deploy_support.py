"""What the deployment tests need: a throwaway PostgreSQL (scripts/lib.sh), Debian's nginx running
deploy/nginx.conf, Debian's Prometheus, raw HTTP from a chosen source address, and /metrics read
as samples. The service itself is Tests/Browser's `Service` (the real executable on a free port).

./scripts/test runs every Tests/Deploy/test_*.py (the `deploy` stage); one file alone, as root:

    python3 -m unittest discover -s Tests/Deploy -p test_proxy.py -v

The service is the executable in READING_PROGRESS_BIN, or the debug build of this checkout.
"""

import contextlib
import http.client
import json
import os
import pathlib
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import urllib.parse

ROOT = pathlib.Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy"
sys.path.insert(0, str(ROOT / "Tests" / "Browser"))

import support as browser_support  # noqa: E402 (the path above makes it importable)

Service = browser_support.Service
Response = browser_support.Response
wait_until = browser_support.wait_until
event = browser_support.event
now_ms = browser_support.now_ms
executable = browser_support.executable


def free_port(host="127.0.0.1"):
    """A port nobody listens on now, for a program that cannot be told to pick one itself."""
    with socket.socket() as probe:
        probe.bind((host, 0))
        return probe.getsockname()[1]


def request(port, method, path, body=None, headers=None, source="127.0.0.1", host="127.0.0.1"):
    """One HTTP/1.1 request to `host:port` from the local address `source` (any address of the
    loopback range is this machine's); any status comes back as a Response."""
    headers = dict(headers or {})
    if isinstance(body, (dict, list)):
        body = json.dumps(body).encode("utf-8")
        headers.setdefault("Content-Type", "application/json")
    connection = http.client.HTTPConnection(host, port, timeout=30, source_address=(source, 0))
    try:
        connection.request(method, path, body=body, headers=headers)
        answer = connection.getresponse()
        return Response(answer.status, answer.headers, answer.read())
    finally:
        connection.close()


def stats_path(article):
    return "/v1/articles/" + urllib.parse.quote(article, safe="") + "/stats"


def samples(text):
    """The samples of a Prometheus text exposition, by series (`name{labels}` as written)."""
    values = {}
    for line in text.splitlines():
        if line and not line.startswith("#"):
            series, value = line.rsplit(" ", 1)
            values[series] = float(value)
    return values


def metric_names(text):
    """Every metric name an exposition declares with `# TYPE`, and the names of the series a
    histogram's or a summary's samples take."""
    names = set()
    for line in text.splitlines():
        match = re.match(r"# TYPE (\S+) (\S+)", line)
        if match:
            name, kind = match.groups()
            names.add(name)
            if kind == "histogram":
                names.update({name + "_bucket", name + "_sum", name + "_count"})
    return names


class Postgres:
    """A throwaway PostgreSQL in a temporary folder, started and stopped by scripts/lib.sh."""

    def __init__(self):
        self.folder = tempfile.mkdtemp(prefix="reading-progress-deploy-postgres.")
        script = f'source scripts/lib.sh; start_postgres "$1" >&2; echo "$POSTGRES_URI"; echo "$POSTGRES_BIN"'
        out = subprocess.run(
            ["bash", "-c", script, "start", self.folder], cwd=ROOT, check=True, capture_output=True,
            text=True, timeout=120)
        self.uri, self.bin = out.stdout.split()

    def stop(self):
        script = 'source scripts/lib.sh; POSTGRES_BIN="$2"; stop_postgres "$1"'
        subprocess.run(["bash", "-c", script, "stop", self.folder, self.bin], cwd=ROOT, check=False, timeout=120)
        shutil.rmtree(self.folder, ignore_errors=True)


# The placeholders of deploy/nginx.conf, and the templating step that docs/operations.md shows.
NGINX_PLACEHOLDERS = "${LISTEN} ${NODE_1} ${NODE_2} ${LOGS}"


class Nginx:
    """Debian's nginx in the foreground, with deploy/nginx.conf (rendered by envsubst, as
    docs/operations.md shows) as its only site, everything it writes in a temporary folder."""

    def __init__(self, nodes):
        self.folder = pathlib.Path(tempfile.mkdtemp(prefix="reading-progress-nginx."))
        # Its workers run as nobody (nginx's default user when started by root) and create
        # temporary files here.
        self.folder.chmod(0o755)
        self.port = free_port()
        values = {"LISTEN": f"127.0.0.1:{self.port}", "LOGS": str(self.folder)}
        values.update({f"NODE_{index + 1}": f"127.0.0.1:{node.port}" for index, node in enumerate(nodes)})
        site = subprocess.run(
            ["envsubst", NGINX_PLACEHOLDERS], input=(DEPLOY / "nginx.conf").read_text(),
            capture_output=True, text=True, check=True, env={**os.environ, **values}).stdout
        (self.folder / "reading-progress.conf").write_text(site)
        temp = {name: self.folder / name for name in ["body", "proxy", "fastcgi", "uwsgi", "scgi"]}
        (self.folder / "nginx.conf").write_text(f"""
daemon off;
worker_processes 1;
pid {self.folder}/nginx.pid;
error_log {self.folder}/error.log crit;
events {{ worker_connections 512; }}
http {{
    client_body_temp_path {temp["body"]};
    proxy_temp_path {temp["proxy"]};
    fastcgi_temp_path {temp["fastcgi"]};
    uwsgi_temp_path {temp["uwsgi"]};
    scgi_temp_path {temp["scgi"]};
    include {self.folder}/reading-progress.conf;
}}
""")
        command = ["nginx", "-p", str(self.folder), "-e", str(self.folder / "error.log"),
                   "-c", str(self.folder / "nginx.conf")]
        check = subprocess.run(command + ["-t", "-q"], capture_output=True, text=True)
        if check.returncode != 0:
            shutil.rmtree(self.folder, ignore_errors=True)
            raise AssertionError(f"nginx -t refused the configuration: {check.stderr}")
        self.process = subprocess.Popen(command, stdin=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            wait_until(self._answers, timeout=20, message=lambda: f"nginx answering on {self.port}: {self.log()}")
        except BaseException:
            self.stop()
            raise

    def _answers(self):
        if self.process.poll() is not None:
            raise AssertionError(f"nginx exited with {self.process.returncode}: {self.log()}")
        with contextlib.suppress(OSError):
            with socket.create_connection(("127.0.0.1", self.port), timeout=1):
                return True
        return False

    def log(self):
        path = self.folder / "error.log"
        return path.read_text(errors="replace") if path.exists() else ""

    def stop(self):
        if self.process.poll() is None:
            # SIGQUIT: nginx's graceful stop, which waits for requests in flight.
            self.process.send_signal(signal.SIGQUIT)
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        shutil.rmtree(self.folder, ignore_errors=True)
        return self.process.returncode


def connections_to(port):
    """The local ports of the TCP connections open now to `port` of 127.0.0.1 (/proc/net/tcp)."""
    ports = set()
    for line in pathlib.Path("/proc/net/tcp").read_text().splitlines()[1:]:
        local, remote, state = line.split()[1:4]
        if state == "01" and remote == f"0100007F:{port:04X}":
            ports.add(int(local.rsplit(":", 1)[1], 16))
    return ports
