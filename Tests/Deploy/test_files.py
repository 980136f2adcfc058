"""The deployment files of deploy/ as their own tools check them: the systemd unit with
systemd-analyze, the alerts and the scrape configuration with promtool, each alert with its unit
test. (nginx.conf is run by test_proxy.py, the Grafana dashboard's queries by
test_observability.py.)"""

import os
import pathlib
import shutil
import subprocess
import tempfile
import unittest

from deploy_support import DEPLOY, executable

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
