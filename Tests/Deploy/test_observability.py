"""Debian's Prometheus scraping two real nodes (one on the embedded store, one on PostgreSQL)
with deploy/prometheus/alerts.yml loaded: the targets are up, the series operators expect
arrive, every query of deploy/grafana/reading-progress.json answers, and every alert evaluates."""

import json
import pathlib
import re
import shutil
import signal
import subprocess
import tempfile
import time
import unittest
import urllib.parse
import urllib.request

from deploy_support import (
    DEPLOY, Postgres, Service, event, executable, free_port, metric_names, request, wait_until)

TOKEN = "observability-token"
PROCESS_SERIES = [
    "process_cpu_seconds_total", "process_resident_memory_bytes", "process_virtual_memory_bytes",
    "process_start_time_seconds", "process_open_fds", "process_max_fds",
]


def setUpModule():
    global postgres
    postgres = Postgres()
    unittest.addModuleCleanup(postgres.stop)


class Prometheus:
    """`prometheus` in the foreground on a free port, scraping `targets` every second as the job
    `reading-progress` with the bearer token, its data in a temporary folder."""

    def __init__(self, targets):
        self.folder = pathlib.Path(tempfile.mkdtemp(prefix="reading-progress-prometheus."))
        (self.folder / "token").write_text(TOKEN)
        (self.folder / "prometheus.yml").write_text(json.dumps({
            "global": {"scrape_interval": "1s", "evaluation_interval": "1s"},
            "rule_files": [str(DEPLOY / "prometheus" / "alerts.yml")],
            "scrape_configs": [{
                "job_name": "reading-progress",
                "authorization": {"credentials_file": str(self.folder / "token")},
                "static_configs": [{"targets": targets}],
            }],
        }))
        self.port = free_port()
        self.log = open(self.folder / "prometheus.log", "wb")
        self.process = subprocess.Popen(
            ["prometheus", f"--config.file={self.folder / 'prometheus.yml'}",
             f"--storage.tsdb.path={self.folder / 'data'}", f"--web.listen-address=127.0.0.1:{self.port}",
             "--log.level=warn"],
            stdin=subprocess.DEVNULL, stdout=self.log, stderr=self.log)
        try:
            wait_until(self._ready, timeout=60, message=lambda: f"Prometheus ready: {self.read_log()}")
        except BaseException:
            self.stop()
            raise

    def _ready(self):
        if self.process.poll() is not None:
            raise AssertionError(f"prometheus exited with {self.process.returncode}: {self.read_log()}")
        return request(self.port, "GET", "/-/ready").status == 200

    def read_log(self):
        return (self.folder / "prometheus.log").read_text(errors="replace")[-3000:]

    def api(self, path, **parameters):
        url = f"http://127.0.0.1:{self.port}/api/v1/{path}?" + urllib.parse.urlencode(parameters)
        with urllib.request.urlopen(url, timeout=30) as answer:
            body = json.load(answer)
        if body["status"] != "success":
            raise AssertionError(f"{path} {parameters}: {body}")
        return body["data"]

    def query(self, expression):
        return self.api("query", query=expression)["result"]

    def stop(self):
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.log.close()
        shutil.rmtree(self.folder, ignore_errors=True)


class ObservabilityTests(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.started = time.time()
        cls.store = tempfile.mkdtemp(prefix="reading-progress-observed.")
        cls.addClassCleanup(shutil.rmtree, cls.store, ignore_errors=True)
        arguments = ["--api-token", TOKEN]
        cls.nodes = []
        for store in [f"sqlite:{cls.store}/rp.sqlite3", postgres.uri]:
            cls.nodes.append(Service(*arguments, store=store))
            cls.addClassCleanup(cls.nodes[-1].stop)
        for node in cls.nodes:
            # Something for every panel to show: commits, and an erasure.
            node.post_events([event(f"/observed/{node.port}", f"r{n}") for n in range(3)])
            erased = node.request("DELETE", "/v1/readers/r0", token=TOKEN)
            assert erased.status == 200, erased.body
        cls.targets = [f"127.0.0.1:{node.port}" for node in cls.nodes]
        cls.prometheus = Prometheus(cls.targets)
        cls.addClassCleanup(cls.prometheus.stop)
        wait_until(cls.targets_up, timeout=30, message=lambda: f"both targets up: {cls.prometheus.api('targets')}")

    @classmethod
    def targets_up(cls):
        active = cls.prometheus.api("targets")["activeTargets"]
        return sorted(t["labels"]["instance"] for t in active if t["health"] == "up") == sorted(cls.targets)

    def by_instance(self, expression):
        return {sample["metric"]["instance"]: sample for sample in self.prometheus.query(expression)}

    def test_up_and_build_info(self):
        up = self.by_instance('up{job="reading-progress"}')
        self.assertEqual({instance: sample["value"][1] for instance, sample in up.items()},
                         {target: "1" for target in self.targets})
        release = subprocess.run([executable(), "--version"], capture_output=True, text=True).stdout.split()[-1]
        info = self.by_instance("reading_progress_build_info")
        self.assertEqual({instance: (sample["metric"]["version"], sample["value"][1]) for instance, sample in info.items()},
                         {target: (release, "1") for target in self.targets})

    def test_process_series_of_each_node(self):
        for name in PROCESS_SERIES:
            self.assertEqual(sorted(self.by_instance(name)), sorted(self.targets), name)
        for instance, sample in self.by_instance("process_start_time_seconds").items():
            self.assertGreater(float(sample["value"][1]), self.started - 2, instance)
            self.assertLess(float(sample["value"][1]), time.time(), instance)
        ratio = self.by_instance("process_open_fds / process_max_fds")
        for instance, sample in ratio.items():
            self.assertTrue(0 < float(sample["value"][1]) < 1, (instance, sample))

    def test_room_under_the_store_only_for_the_embedded_store(self):
        free = self.by_instance("reading_progress_store_filesystem_free_bytes")
        self.assertEqual(list(free), [self.targets[0]])
        fraction = self.prometheus.query(
            "reading_progress_store_filesystem_free_bytes / reading_progress_store_filesystem_size_bytes")
        usage = shutil.disk_usage(self.store)
        self.assertAlmostEqual(float(fraction[0]["value"][1]), usage.free / usage.total, delta=0.02)

    def test_every_dashboard_query_names_exported_metrics_and_answers(self):
        exported = {"up"}
        for node in self.nodes:
            exported |= metric_names(node.request("GET", "/metrics", token=TOKEN).text)
        dashboard = json.loads((DEPLOY / "grafana" / "reading-progress.json").read_text())
        queries = [target["expr"] for panel in dashboard["panels"] for target in panel["targets"]]
        queries.append(dashboard["templating"]["list"][1]["definition"])
        self.assertGreaterEqual(len(queries), 20)
        for query in queries:
            with self.subTest(query):
                named = set(re.findall(r"\b(?:reading_progress_\w+|process_\w+|up)\b(?=\s*[{\[)])", query))
                self.assertTrue(named, "the query names a metric")
                self.assertEqual(named - exported, set(), "every metric it names is exported")
        # Grafana's variables as Grafana fills them: every node, and a window of several scrapes.
        expressions = [query.replace("$instance", ".+").replace("$__rate_interval", "10s") for query in queries
                       if not query.startswith("label_values")]

        def unanswered():
            return [expression for expression in expressions if not self.prometheus.query(expression)]
        wait_until(lambda: not unanswered(), timeout=30, message=lambda: f"answers to {unanswered()}")

    def test_every_alert_evaluates_and_none_fires(self):
        def rules():
            groups = self.prometheus.api("rules")["groups"]
            return [rule for group in groups for rule in group["rules"]]

        def evaluated():
            found = rules()
            return len(found) == 6 and all(rule["lastEvaluation"] > "2000" for rule in found)
        wait_until(evaluated, timeout=30, message=lambda: f"every rule evaluated: {rules()}")
        for rule in rules():
            self.assertEqual(rule["health"], "ok", rule)
            self.assertNotEqual(rule["state"], "firing", rule)
