"""Reading and memory, on a fresh service of their own (earlier loads would blur what one
article costs): an article of 1,000 readers and a big one; resident memory over the big one's
load; GET …/stats of each, against the ceilings answering the same GETs."""
import glob
import sys

from . import events
from .figures import INDENT, line, mean, per, rate, ratio, whole
from .processes import file_bytes, rss_kb
from .service import post_batches, wait_checkpointed

SMALL = 1000
DATABASE = "bench.sqlite3"


def load(bench, service):
    """Loads the small and the big article; returns (rss before, after, settled, events/s)."""
    post_batches(service.port, SMALL, lambda start, end: events.readers("/bench/small", start, end))
    before = rss_kb(service.pid)
    big = bench.settings.big_readers
    load_rate = post_batches(service.port, big,
                             lambda start, end: events.readers("/bench/big", start, end))
    after = rss_kb(service.pid)
    # Once the checkpoint after the load is done (it holds an encoded copy of what it saves while
    # it writes), resident memory is the index's own.
    wait_checkpointed(service.port)
    return before, after, rss_kb(service.pid), load_rate


def loaded_service(bench, name="reader"):
    """A fresh service on the stats database, loaded."""
    service = bench.service(name, "sqlite:" + bench.path(DATABASE))
    bench.results["stats loaded"] = load(bench, service)
    return service


def database_bytes(bench):
    return file_bytes(glob.glob(bench.path(DATABASE) + "*"))


def run(bench):
    settings = bench.settings
    big = settings.big_readers
    print(f"== reading: stats of an article with 1,000 readers and one with {big}", file=sys.stderr)
    service = loaded_service(bench)
    before, after, settled, load_rate = bench.results["stats loaded"]
    ceiling, default = bench.plain_ceiling(), bench.default_ceiling()
    small_runs, big_runs, get_runs, get_default_runs = [], [], [], []
    for round in range(1, settings.rounds + 1):
        # The ceilings get the same GETs: a request without a body costs them less than an event.
        get_runs.append(bench.rate("stats.lua", ceiling, "%2Fbench%2Fbig"))
        get_default_runs.append(bench.rate("stats.lua", default, "%2Fbench%2Fbig"))
        small_runs.append(bench.rate("stats.lua", service, "%2Fbench%2Fsmall"))
        big_runs.append(bench.rate("stats.lua", service, "%2Fbench%2Fbig"))
        print(f"  round {round}: ceiling {rate(get_runs[-1])} req/s (32 KiB: "
              f"{rate(get_default_runs[-1])}), 1k readers {rate(small_runs[-1])} req/s, "
              f"big {rate(big_runs[-1])} req/s", file=sys.stderr)
    service.stop()
    small_rps, big_rps = mean(small_runs), mean(big_runs)
    get_rps, get_default_rps = mean(get_runs), mean(get_default_runs)

    def memory():
        # The database after a clean stop, which checkpoints.
        size = database_bytes(bench)
        return line("memory", f"{per(before, after, big, 0)} bytes RSS per (article, reader) "
                    f"pair over {big} pairs right after loading, {per(before, settled, big, 0)} "
                    f"once checkpointed (target ≤ 64); database {size} bytes")

    return [
        line("bulk load (2 conns)", f"{whole(load_rate)} events/s"),
        line("stats, 1k readers", f"{whole(small_rps)} req/s"),
        f"stats, {big} readers   {whole(big_rps)} req/s   cost ratio {ratio(small_rps, big_rps)} "
        f"(target ≤ 1.2)   vs ceiling {ratio(big_rps, get_rps)} (target ≥ 0.5; ceiling "
        f"{whole(get_rps)} GET/s)",
        INDENT + f"vs the ceiling with 32 KiB a connection: {ratio(big_rps, get_default_rps)} "
        f"({whole(get_default_rps)} GET/s)",
        memory,
    ]
