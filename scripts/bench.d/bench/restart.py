"""Restart during a load: a fresh service loaded with --restart-pairs reader-days, one very large
article among many small ones (restart-load.lua), is killed (kill -9) early in the load, in its
middle and right after its end; each time a new service on the same files is timed until
/healthz answers, and the load goes on into it. Then a clean stop and a start once more. The
last service must hold every pair acknowledged."""
import glob
import os
import re
import signal
import subprocess
import sys

from .figures import line
from .processes import BenchError, cpu_seconds, file_bytes, wait_for
from .service import metric, wait_healthy
from .wrk import SCRIPTS

DATABASE = "restart.sqlite3"
# Where the kills land: the fraction of the load's events acknowledged.
MOMENTS = (("early", 0.2), ("middle", 0.5), ("after the load", 1.0))
THREADS = 2


def load(bench, port, start, end):
    """Events START..END as restart-load.lua makes them, each answered 202."""
    mark = bench.path("restart-load-%d" % start)
    wrk = subprocess.Popen(
        ["wrk", f"-t{THREADS}", f"-c{THREADS}", "-d3600s", "-s",
         os.path.join(SCRIPTS, "restart-load.lua"), f"http://127.0.0.1:{port}", "--",
         str(start), str(end), str(THREADS), mark],
        stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        wait_for(lambda: wrk.poll() is not None
                 or all(os.path.exists(f"{mark}.{thread}") for thread in range(THREADS)),
                 3600, "the load", interval=0.01)
        wrk.send_signal(signal.SIGINT)
        output, errors = wrk.communicate(timeout=60)
    finally:
        if wrk.poll() is None:
            wrk.kill()
            wrk.wait()
    failed = re.search(r"^failed (\d+)$", output, re.M)
    if not failed:
        raise BenchError(f"wrk failed ({wrk.returncode}): {errors.strip()}{output[-500:]}")
    if failed.group(1) != "0":
        raise BenchError(f"{failed.group(1)} requests of the load were not answered 202")


def run(bench):
    pairs = bench.settings.restart_pairs
    store = "sqlite:" + bench.path(DATABASE)
    print(f"== restart: kill -9 at {len(MOMENTS)} moments of a load of {pairs} reader-days, 90% "
          "of them on one article", file=sys.stderr)
    service = bench.service("restart0", store)
    sent, times, lines = 0, [], []
    for number, (moment, fraction) in enumerate(MOMENTS, start=1):
        target = int(pairs * fraction)
        load(bench, service.port, sent, target)
        sent = target
        unsaved = int(float(metric(service.port, "reading_progress_store_journal_entries")))
        service.kill()
        journal_bytes = file_bytes(glob.glob(bench.path(DATABASE) + "-journal.*"))
        service = bench.service(f"restart{number}", store)
        seconds = wait_healthy(service)
        # On a shared machine the wait moves with the other work; the CPU spent moves less.
        cpu = cpu_seconds(service.pid)
        times.append(seconds)
        print(f"  kill -9 {moment}: {seconds:.2f}s until /healthz ({cpu:.2f}s CPU), journal "
              f"{journal_bytes} bytes", file=sys.stderr)
        lines.append(line(f"  kill -9 {moment}",
                          f"{seconds:.2f}s ({cpu:.2f}s CPU), {sent} pairs acknowledged, {unsaved} "
                          f"journal entries unsaved, journal files {journal_bytes} bytes"))
    held = int(float(metric(service.port, "reading_progress_store_pairs")))
    if held != pairs:
        raise BenchError(f"the service restarted after kill -9 holds {held} pairs of {pairs}")
    service.stop()
    clean = bench.service("restart-clean", store)
    clean_seconds = wait_healthy(clean)
    clean_cpu = cpu_seconds(clean.pid)
    clean.stop()
    return [
        line("restart after kill -9", f"worst {max(times):.2f}s until /healthz answered, of "
             f"{len(times)} kills in a load of {pairs} pairs (target ≤ 5 s at 10M)"),
        *lines,
        line("restart after clean stop", f"{clean_seconds:.2f}s ({clean_cpu:.2f}s CPU) until /healthz answered (the stop "
             "checkpoints, so nothing is replayed)"),
    ]
