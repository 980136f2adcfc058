"""The processes a benchmark starts: servers that say where they listen, and what /proc says
of them. Every server is owned by the Bench that started it, which kills what is left."""
import os
import re
import signal
import subprocess
import threading
import time

LISTENING = re.compile(rb"listening on http://\S+:(\d+)\s*$")
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")
# The checkout, where scripts/lib.sh and `swift build` run.
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))


class BenchError(Exception):
    """A step that did not work: the benchmark stops, saying which."""


def lib(script, *arguments):
    """Standard output of bash SCRIPT (given ARGUMENTS as $1…) after sourcing scripts/lib.sh."""
    done = subprocess.run(["bash", "-c", "source scripts/lib.sh && " + script, "lib.sh", *arguments],
                          cwd=ROOT, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, text=True)
    if done.returncode != 0:
        raise BenchError(f"scripts/lib.sh: {script} failed with status {done.returncode}")
    return done.stdout


def wait_for(condition, seconds, what, interval=0.05):
    """Calls `condition` until it returns something true, for at most `seconds`; returns that."""
    deadline = time.monotonic() + seconds
    while True:
        value = condition()
        if value:
            return value
        if time.monotonic() > deadline:
            raise BenchError(f"{what}: not within {seconds:g} s")
        time.sleep(interval)


class Server:
    """A server started with `--port 0`, known to serve once it printed its listening line.

    Its standard output is read by one thread, which alone owns and closes the pipe and copies
    what it reads to FOLDER/NAME.out; its standard error goes to FOLDER/NAME.err."""

    def __init__(self, name, command, folder, start_seconds=120):
        self.name = name
        self.errors = os.path.join(folder, name + ".err")
        self.started = time.monotonic()
        self._port = None
        self._heard = threading.Event()
        with open(self.errors, "wb") as errors:
            self.process = subprocess.Popen(
                command, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=errors)
        self._reader = threading.Thread(
            target=self._read, args=(os.path.join(folder, name + ".out"),), daemon=True)
        self._reader.start()
        if not self._heard.wait(start_seconds) or self._port is None:
            self.kill()
            raise BenchError(f"{name} did not start:\n{self.error_text()}")

    @property
    def pid(self):
        return self.process.pid

    @property
    def port(self):
        return self._port

    def _read(self, path):
        with self.process.stdout as pipe, open(path, "wb") as copy:
            for line in pipe:
                copy.write(line)
                match = LISTENING.search(line)
                if match and self._port is None:
                    self._port = int(match.group(1))
                    self._heard.set()
        self._heard.set()

    def alive(self):
        return self.process.poll() is None

    def error_text(self, lines=20):
        with open(self.errors, errors="replace") as errors:
            return "".join(errors.readlines()[-lines:])

    def kill(self):
        """SIGKILL, as a crash would end it; returns once it has exited."""
        if self.alive():
            self.process.send_signal(signal.SIGKILL)
        self._finish(30)

    def stop(self, seconds=120):
        """SIGTERM, a clean stop; fails when the server does not exit, or exits with an error."""
        if self.alive():
            self.process.send_signal(signal.SIGTERM)
        try:
            code = self.process.wait(seconds)
        except subprocess.TimeoutExpired:
            self.kill()
            raise BenchError(f"{self.name} did not stop within {seconds} s of SIGTERM")
        self._finish(30)
        if code != 0:
            raise BenchError(f"{self.name} stopped with status {code}:\n{self.error_text()}")

    def _finish(self, seconds):
        self.process.wait(seconds)
        self._reader.join(seconds)


def cpu_seconds(pid):
    """User and system CPU seconds that process PID has spent (/proc/PID/stat)."""
    with open(f"/proc/{pid}/stat") as stat:
        # The command name, in parentheses, may hold spaces: count fields after it.
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / CLOCK_TICKS


def rss_kb(pid):
    """Resident memory of process PID in KiB (/proc/PID/status)."""
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    raise BenchError(f"no VmRSS for process {pid}")


def file_bytes(paths):
    """The sizes of the files PATHS summed (those that exist)."""
    return sum(os.path.getsize(path) for path in paths if os.path.isfile(path))
