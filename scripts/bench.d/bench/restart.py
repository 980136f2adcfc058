"""Restart with the stats database stored: after kill -9, then after a clean stop, the time until
/healthz answers."""
import glob
import sys

from .figures import line
from .processes import file_bytes
from .service import wait_healthy
from .stats import DATABASE, SMALL, database_bytes, loaded_service


def run(bench):
    big = bench.settings.big_readers
    service = bench.shared.get("reader")
    if service is None or not service.alive():
        print(f"== loading {big} + {SMALL} pairs to restart with", file=sys.stderr)
        service = loaded_service(bench)
    print(f"== restart with {big} + {SMALL} pairs stored: after kill -9, then after a clean stop",
          file=sys.stderr)
    service.kill()
    journal_bytes = file_bytes(glob.glob(bench.path(DATABASE) + "-journal.*"))
    store = "sqlite:" + bench.path(DATABASE)
    crashed = bench.service("service2", store)
    crash_seconds = wait_healthy(crashed)
    crashed.stop()
    stopped = bench.service("service3", store)
    clean_seconds = wait_healthy(stopped)
    bench.results["stats database bytes"] = database_bytes(bench)
    stopped.stop()
    return [
        line("restart after kill -9", f"{crash_seconds:.2f}s until /healthz answered, {big} pairs "
             f"stored, journal files {journal_bytes} bytes (with up to 1 MiB allocated ahead) "
             "(target ≤ 5 s at 10M)"),
        line("restart after clean stop", f"{clean_seconds:.2f}s until /healthz answered (the stop "
             "checkpoints, so nothing is replayed)"),
    ]
