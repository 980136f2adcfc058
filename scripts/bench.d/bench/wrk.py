"""wrk, the load generator, running the Lua scripts beside this package."""
import os
import re
import subprocess

from .processes import BenchError, cpu_seconds

SCRIPTS = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
REQUESTS_PER_SECOND = re.compile(r"^Requests/sec:\s*([0-9.]+)\s*$", re.M)


def command(script, port, arguments, connections, seconds, threads=2):
    return ["wrk", f"-t{threads}", f"-c{connections}", f"-d{seconds}s",
            "-s", os.path.join(SCRIPTS, script), f"http://127.0.0.1:{port}", "--", *arguments]


def requests_per_second(output):
    """The rate in one wrk run's report."""
    match = REQUESTS_PER_SECOND.search(output)
    if not match:
        raise BenchError(f"wrk reported no rate:\n{output[-2000:]}")
    return float(match.group(1))


def run(script, port, arguments, connections, seconds, threads=2):
    """Requests a second of one wrk run of SCRIPT against 127.0.0.1:PORT."""
    done = subprocess.run(command(script, port, arguments, connections, seconds, threads),
                          stdin=subprocess.DEVNULL, capture_output=True, text=True)
    if done.returncode != 0:
        raise BenchError(f"wrk failed ({done.returncode}): {done.stderr.strip()}")
    return requests_per_second(done.stdout)


def run_together(runs, seconds):
    """Several wrk runs at once, each (script, port, arguments, connections, threads); their
    rates in that order."""
    started = [subprocess.Popen(command(script, port, arguments, connections, seconds, threads),
                                stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True)
               for script, port, arguments, connections, threads in runs]
    try:
        # Each report is a few hundred bytes, written at the end: reading one after the other
        # cannot leave another blocked on a full pipe.
        outputs = [process.communicate() for process in started]
    finally:
        for process in started:
            if process.poll() is None:
                process.kill()
                process.wait()
    for process, (_, errors) in zip(started, outputs):
        if process.returncode != 0:
            raise BenchError(f"wrk failed ({process.returncode}): {errors.strip()}")
    return [requests_per_second(output) for output, _ in outputs]


class Meter:
    """wrk runs against one server, noting the CPU that server spent meanwhile and the requests
    it answered: a cost a request that the machine's noise moves less than it moves the rate."""

    def __init__(self, server):
        self.server = server
        self.cpu = 0.0
        self.requests = 0.0

    def run(self, script, arguments, connections, seconds):
        before = cpu_seconds(self.server.pid)
        rate = run(script, self.server.port, arguments, connections, seconds)
        self.cpu += cpu_seconds(self.server.pid) - before
        self.requests += rate * seconds
        return rate

    def micros_a_request(self):
        """CPU µs a request over the runs (for bulk requests of 1000 events: ns an event)."""
        return "%.1f" % (self.cpu / self.requests * 1e6) if self.requests > 0 else ""
