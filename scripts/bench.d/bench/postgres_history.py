"""History made in SQL, as years of traffic would leave it: reader-days over 1000 articles and
the 60 days before today; then a node started on it (how long until it answers, what it holds
after queries of old days) and stats over old days against the last week."""
import sys
import time

from .figures import day, line, rate, ratio
from .processes import rss_kb
from .service import wait_healthy

CHUNK = 5_000_000


def make(nodes, reader_days):
    today = int(time.time()) // 86400
    for first in range(0, reader_days, CHUNK):
        last = min(first + CHUNK, reader_days) - 1
        nodes.sql(f"""INSERT INTO rp_reader_days
             SELECT '/bench/history-' || (i % 1000), 'h-' || (i / 1000), {today} - ((i / 1000) % 60),
                    0.5, 0.6, true, 1, 1000, ({today} - ((i / 1000) % 60))::int8 * 86400000,
                    ({today} - ((i / 1000) % 60))::int8 * 86400000
             FROM generate_series({first}, {last}) AS i""")
    nodes.sql("""INSERT INTO rp_articles
         SELECT article, count(DISTINCT reader), 0, sum(events), sum(engaged_ms), min(first_ms),
                max(last_ms), 0, 0, decode(repeat('00', 4004), 'hex'), decode(repeat('00', 4004), 'hex')
         FROM rp_reader_days WHERE article LIKE '/bench/history-%' GROUP BY article""")
    nodes.sql("ANALYZE")


def run(bench, nodes):
    reader_days = bench.settings.pg_reader_days
    print(f"  making {reader_days} reader-days of history in SQL", file=sys.stderr)
    make(nodes, reader_days)
    rows = nodes.sql("SELECT count(*) FROM rp_reader_days")
    nodes.a.kill()
    nodes.a = bench.service("node-a2", nodes.uri)
    restart_seconds = wait_healthy(nodes.a)
    old = f"from={day(-50)}&to={day(-44)}"
    old_rps = bench.rate("stats.lua", nodes.a, "%2Fbench%2Fhistory-7", old)
    recent_rps = bench.rate("stats.lua", nodes.a, "%2Fbench%2Fhistory-7", f"from={day(-6)}")
    node_rss_kb = rss_kb(nodes.a.pid)
    database_bytes = nodes.sql("SELECT pg_database_size(current_database())")
    return [
        line("restart", f"{restart_seconds:.2f}s until /healthz answered after kill -9, with "
             f"{rows} reader-days in PostgreSQL ({database_bytes} bytes)"),
        line("memory", f"a node's RSS {node_rss_kb // 1024} MiB with {rows} reader-days in "
             "PostgreSQL, after queries of old days"),
        line("old days", f"stats of one article over 7 days 44–50 days ago: {rate(old_rps)} req/s; "
             f"over the last 7 days: {rate(recent_rps)} req/s; cost ratio "
             f"{ratio(recent_rps, old_rps)}"),
    ]
