"""The deployment files of deploy/ as their own tools check them: the systemd unit with
systemd-analyze (and its system-call filter against what the service calls, traced with strace),
the alerts and the scrape configuration with promtool, each alert with its unit test.
(nginx.conf is run by test_proxy.py, the Grafana dashboard's queries by test_observability.py.)"""

import os
import pathlib
import pwd
import re
import shutil
import signal
import subprocess
import tempfile
import unittest

from deploy_support import DEPLOY, ROOT, event, executable, request, stats_path

UNIT = DEPLOY / "reading-progress.service"
ALERTS = DEPLOY / "prometheus" / "alerts.yml"


def run(*command, cwd=None):
    return subprocess.run(command, capture_output=True, text=True, cwd=cwd, timeout=120)


class SystemdUnitTests(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        # A root for systemd-analyze in which the unit's ExecStart exists: the executable under
        # test, where the unit expects it, beside the system's own units, and the unit itself.
        cls.root = pathlib.Path(tempfile.mkdtemp(prefix="reading-progress-systemd."))
        cls.addClassCleanup(shutil.rmtree, cls.root, ignore_errors=True)
        (cls.root / "usr" / "local" / "bin").mkdir(parents=True)
        shutil.copy(executable(), cls.root / "usr" / "local" / "bin")
        (cls.root / "usr" / "lib").mkdir(exist_ok=True)
        os.symlink("/usr/lib/systemd", cls.root / "usr" / "lib" / "systemd")
        units = cls.root / "etc" / "systemd" / "system"
        units.mkdir(parents=True)
        os.symlink(UNIT, units / UNIT.name)

    def analyze(self, *arguments):
        result = run("systemd-analyze", *arguments, f"--root={self.root}", UNIT.name)
        # The system's units reached through the symlink make systemd warn about their own
        # links; what concerns this unit names it.
        about_unit = [line for line in result.stderr.splitlines() if UNIT.name in line]
        return result, about_unit

    def test_verify_finds_nothing_to_say(self):
        result, about_unit = self.analyze("verify")
        self.assertEqual(result.returncode, 0, result.stderr)
        # systemd-analyze verify exits 0 on an unknown key or a bad value, and says so.
        self.assertEqual(about_unit, [])

    def test_verify_notices_a_missing_executable(self):
        binary = self.root / "usr" / "local" / "bin" / "reading-progress"
        moved = binary.with_name("elsewhere")
        binary.rename(moved)
        try:
            result, about_unit = self.analyze("verify")
        finally:
            moved.rename(binary)
        self.assertNotEqual(result.returncode, 0)
        self.assertTrue(any("not executable" in line for line in about_unit), result.stderr)

    def test_the_usual_hardening(self):
        text = UNIT.read_text()
        for setting in [
            "DynamicUser=yes", "StateDirectory=reading-progress", "ProtectSystem=strict", "ProtectHome=yes",
            "PrivateTmp=yes", "PrivateDevices=yes", "NoNewPrivileges=yes", "CapabilityBoundingSet=\n",
            "RestrictAddressFamilies=AF_INET AF_INET6 AF_UNIX", "SystemCallFilter=@system-service",
            "READING_PROGRESS_STORE=sqlite:/var/lib/reading-progress/",
        ]:
            self.assertIn(setting, text)
        # systemd's own score of what the service could still reach: 0 is none, 10 everything.
        result, _ = self.analyze("security", "--offline=true", "--threshold=20")
        self.assertEqual(result.returncode, 0, result.stdout[-3000:])
        self.assertRegex(result.stdout, r"Overall exposure level for reading-progress.service: 1\.\d OK")


def syscall_groups():
    """systemd's system-call groups by name, each with its members (names and groups)."""
    groups, current = {}, None
    for line in run("systemd-analyze", "syscall-filter").stdout.splitlines():
        if line.startswith("@"):
            current = groups.setdefault(line.strip(), set())
        elif line.strip() and not line.strip().startswith("#") and current is not None:
            current.add(line.strip())
    return groups


def expand(names, groups):
    calls = set()
    for name in names:
        calls |= expand(groups[name], groups) if name.startswith("@") else {name}
    return calls


def nobody():
    entry = pwd.getpwnam("nobody")
    return entry.pw_uid, entry.pw_gid


def copy_for_nobody(program, folder):
    """A copy of `program` in `folder`, for nobody to run: the checkout, and the build in it, may
    lie where only root may go (a clone in /root). The executable is all the service needs: its
    web assets are compiled into it, and it must load no library from the build or the checkout."""
    places = [str(ROOT), str(pathlib.Path(program).resolve().parent)]
    loaded = run("ldd", program).stdout
    inside = [line.strip() for line in loaded.splitlines() if any(place in line for place in places)]
    if inside:
        raise AssertionError(f"{program} loads libraries from the checkout or its build: {inside}")
    copy = folder / "reading-progress"
    shutil.copy(program, copy)
    copy.chmod(0o755)
    return str(copy)


class SystemCallFilterTests(unittest.TestCase):
    def test_every_system_call_the_service_makes_passes_the_unit_s_filter(self):
        groups = syscall_groups()
        allowed, denied = set(), set()
        for line in UNIT.read_text().splitlines():
            if line.startswith("SystemCallFilter=~"):
                denied |= expand(line.split("=~", 1)[1].split(), groups)
            elif line.startswith("SystemCallFilter="):
                allowed |= expand(line.split("=", 1)[1].split(), groups)
        self.assertIn("setpriority", allowed - denied)
        folder = pathlib.Path(tempfile.mkdtemp(prefix="reading-progress-syscalls."))
        self.addCleanup(shutil.rmtree, folder, ignore_errors=True)
        trace = folder / "trace"
        store = folder / "store"
        store.mkdir()
        # As the unit runs it, with a user of its own: an unprivileged one (root, SQLite
        # hands the files it makes to the owner of the database, with fchown).
        user = []
        program = executable()
        if os.geteuid() == 0:
            folder.chmod(0o755)
            os.chown(store, *nobody())
            user = ["-u", "nobody"]
            program = copy_for_nobody(program, folder)
        # Everything the service does in a life: start, take events, answer every kind of
        # read, checkpoint and stop.
        process = subprocess.Popen(
            ["strace", "-f", "-qq", *user, "-o", str(trace), program, "serve", "--port", "0",
             "--store", f"sqlite:{store}/rp.sqlite3", "--log-requests", "false"],
            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        try:
            line = process.stdout.readline().decode()
            self.assertTrue(line.startswith("listening on http://"), line)
            port = int(line.rsplit(":", 1)[1])
            events = [event(f"/syscalls/{n % 3}", f"r{n}") for n in range(50)]
            self.assertEqual(request(port, "POST", "/v1/events", body=events).status, 202)
            for path in ["/v1/articles", stats_path("/syscalls/1"), "/metrics", "/healthz", "/tracker.js", "/"]:
                self.assertEqual(request(port, "GET", path, headers={"Accept-Encoding": "gzip"}).status, 200, path)
            self.assertEqual(request(port, "DELETE", "/v1/readers/r1").status, 403)
        finally:
            # SIGTERM to the service, strace's child: strace exits with its status.
            child = pathlib.Path(f"/proc/{process.pid}/task/{process.pid}/children").read_text().split()
            for pid in child:
                os.kill(int(pid), signal.SIGTERM)
            try:
                status = process.wait(timeout=60)
            except subprocess.TimeoutExpired:
                process.kill()
                status = process.wait()
            process.stdout.close()
        self.assertEqual(status, 0)
        calls = trace.read_text()
        made = set(re.findall(r"^\d+\s+(\w+)\(", calls, re.MULTILINE))
        self.assertIn("setpriority", made, "the checkpoint thread's")
        self.assertEqual(made - (allowed - denied), set())
        # MemoryDenyWriteExecute=yes refuses a mapping both writable and executable, and making
        # memory executable later.
        self.assertIn("MemoryDenyWriteExecute=yes", UNIT.read_text())
        for line in calls.splitlines():
            if re.search(r"\b(mmap|mprotect|pkey_mprotect)\(", line):
                self.assertFalse("PROT_WRITE" in line and "PROT_EXEC" in line, line)
                self.assertFalse("mprotect(" in line and "PROT_EXEC" in line, line)


class PrometheusFilesTests(unittest.TestCase):
    def test_rules_check(self):
        result = run("promtool", "check", "rules", str(ALERTS))
        self.assertEqual(result.returncode, 0, result.stdout + result.stderr)
        self.assertIn("SUCCESS: 6 rules found", result.stdout)

    def test_each_alert_has_a_unit_test_and_they_pass(self):
        tests = (DEPLOY / "prometheus" / "alerts.test.yml").read_text()
        alerts = [line.split(":", 1)[1].strip() for line in ALERTS.read_text().splitlines()
                  if line.strip().startswith("- alert:")]
        self.assertEqual(len(alerts), 6)
        for alert in alerts:
            self.assertIn(f"alertname: {alert}\n", tests, alert)
        result = run("promtool", "test", "rules", "alerts.test.yml", cwd=DEPLOY / "prometheus")
        self.assertEqual(result.returncode, 0, result.stdout + result.stderr)
        self.assertIn("SUCCESS", result.stdout)

    def test_scrape_configuration_check(self):
        result = run("promtool", "check", "config", "prometheus.yml", cwd=DEPLOY / "prometheus")
        self.assertEqual(result.returncode, 0, result.stdout + result.stderr)


if __name__ == "__main__":
    unittest.main()
