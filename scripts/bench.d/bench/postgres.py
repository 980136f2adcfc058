"""PostgreSQL: two nodes on one throwaway database. Bulk and single events through both nodes
at once; PostgreSQL taking the same bytes with a bare batched INSERT (pgbench); stats at 1k and
many readers on each node; then, with history made in SQL, a node's restart, memory and stats
over old days (postgres_history)."""
import os
import random
import subprocess
import sys
import tempfile
import time

from . import events, postgres_history, wrk
from .database import PostgreSQL
from .figures import line, mean, rate, ratio, whole
from .processes import BenchError, wait_for
from .service import post_batches


class Nodes:
    """Two nodes on one database, and what the section measures through them."""

    def __init__(self, bench, uri):
        self.bench, self.uri = bench, uri
        self.a = bench.service("node-a", uri)
        self.b = bench.service("node-b", uri)

    def sql(self, statement):
        return PostgreSQL.sql(self.uri, statement)

    def both(self, script, connections, *arguments):
        """One wrk on each node at once; the two rates summed, to a whole number."""
        rates = wrk.run_together([(script, node.port, arguments, connections, 1)
                                  for node in (self.a, self.b)], self.bench.settings.seconds)
        return float(whole(sum(rates)))

    def wait_folded(self):
        """Until the log holds nothing to fold (at most 10 minutes)."""
        wait_for(lambda: self.sql("SELECT count(*) FROM rp_log") == "0", 600,
                 "the nodes folding their log", interval=0.1)


def bare_body():
    """A request body as bulk.lua sends (1000 events, their size varying only with their digits)."""
    rng = random.Random(7)
    return ("[" + ",".join(events.random_event(rng) for _ in range(1000)) + "]").encode()


def bare_insert(bench, database, uri):
    """(body bytes, rows a second): the same bytes a row a request, by pgbench, 4 connections."""
    PostgreSQL.sql(uri, "CREATE TABLE bare (seq bigserial PRIMARY KEY, committed_ms bigint NOT NULL,"
                   " payload bytea NOT NULL)")
    body = bare_body()
    script = bench.path("bare.sql")
    with open(script, "w") as sql:
        sql.write("INSERT INTO bare (committed_ms, payload) VALUES (1, '\\x" + body.hex() + "');\n")
    done = subprocess.run([os.path.join(database.bin, "pgbench"), "-n", "-f", script, "-c", "4",
                           "-j", "2", "-T", str(bench.settings.seconds), uri],
                          stdin=subprocess.DEVNULL, capture_output=True, text=True)
    tps = [text.split()[2] for text in done.stdout.splitlines() if text.startswith("tps")]
    if done.returncode != 0 or not tps:
        raise BenchError(f"pgbench failed: {done.stderr.strip()}")
    return len(body), float(whole(float(tps[0])))


def run(bench):
    print("== PostgreSQL: two nodes on one database", file=sys.stderr)
    database = PostgreSQL(tempfile.mkdtemp(prefix="reading-progress-bench-postgres."))
    try:
        nodes = Nodes(bench, database.database("rpbench"))
        try:
            lines = measure(bench, database, nodes)
            for node in (nodes.a, nodes.b):
                node.stop()
        finally:
            for node in (nodes.a, nodes.b):
                node.kill()
        return [f"PostgreSQL, two nodes on one database (PostgreSQL {database.version()}, "
                "synchronous_commit on)"] + lines
    finally:
        database.stop()


def measure(bench, database, nodes):
    bare_uri = database.database("rpbare")
    settings = bench.settings
    bulk_runs, single_runs, payload = [], [], None
    for round in range(1, settings.rounds + 1):
        bulk_runs.append(nodes.both("bulk.lua", 2, "json"))
        stored = int(nodes.sql("SELECT coalesce(avg(length(payload))::int, 0) FROM rp_log "
                               "WHERE payload IS NOT NULL"))
        payload = stored if stored > 0 else payload
        single_runs.append(nodes.both("single.lua", 32))
        print(f"  round {round}: bulk {whole(bulk_runs[-1])} req/s of 1000 events, single "
              f"{whole(single_runs[-1])} req/s", file=sys.stderr)
    fold_started = time.monotonic()
    fold_backlog = nodes.sql("SELECT count(*) FROM rp_log")
    nodes.wait_folded()
    fold_seconds = time.monotonic() - fold_started

    body_bytes, bare_tps = bare_insert(bench, database, bare_uri)
    stored_text = str(payload) if payload else "?"
    print(f"  bare INSERT of {body_bytes}-byte rows: {whole(bare_tps)} rows/s (the nodes store "
          f"{stored_text} bytes a request)", file=sys.stderr)

    big = settings.big_readers
    post_batches(nodes.a.port, 1000, lambda start, end: events.readers("/bench/small", start, end))
    load_rate = post_batches(nodes.a.port, big,
                             lambda start, end: events.readers("/bench/big", start, end))
    nodes.wait_folded()
    small_rps, big_rps = [], []
    for node in (nodes.a, nodes.b):
        small_rps.append(bench.rate("stats.lua", node, "%2Fbench%2Fsmall"))
        big_rps.append(bench.rate("stats.lua", node, "%2Fbench%2Fbig"))
    print(f"  stats: node A {rate(small_rps[0])} / {rate(big_rps[0])} req/s, node B "
          f"{rate(small_rps[1])} / {rate(big_rps[1])} req/s (1k / big)", file=sys.stderr)
    history = postgres_history.run(bench, nodes)

    bulk, single = mean(bulk_runs), mean(single_runs)
    return [
        line("bulk JSON arrays", f"{int(bulk) * 1000} events/s through both nodes (target ≥ "
             f"250,000; rounds: {' '.join(whole(run) for run in bulk_runs)} req/s); the same "
             "bytes by a bare batched INSERT (pgbench, 4 connections, a "
             f"{body_bytes}-byte body a row): {int(bare_tps) * 1000} events/s, ratio "
             f"{ratio(bulk, bare_tps)}; the nodes store {stored_text} bytes a request"),
        line("single events", f"{whole(single)} req/s through both nodes, each acknowledged once "
             f"committed (target ≥ 15,000; rounds: {' '.join(whole(run) for run in single_runs)})"),
        line("folding", f"{fold_backlog} commits left to fold after the rounds, folded in "
             f"{fold_seconds:.1f}s"),
        f"stats, {big} readers   node A cost ratio {ratio(small_rps[0], big_rps[0])}, node B "
        f"{ratio(small_rps[1], big_rps[1])} against 1k readers (target ≤ 1.2); "
        f"{rate(small_rps[0])} and {rate(big_rps[0])} req/s on A (load through A: "
        f"{whole(load_rate)} events/s)",
    ] + history
