"""The listing's cost in the number of articles: the same page (50 rows) of a store holding a
few articles and of one holding many, in every sort; then with an event posted to some article
before every other page; then the same over the last 7, 30 and 90 days (the dashboard's
presets), each sort, and over 7 days with an event before every other page."""
import sys

from . import events
from .figures import INDENT, day, rate, ratio
from .service import post_batches

SORTS = ["sort=readers", "sort=completion", "sort=recent", "sort=article"]
RANGES = [7, 30, 90]
LABEL = 20


def loaded(bench, name, articles):
    service = bench.service(name, "memory:")
    post_batches(service.port, articles * events.ARTICLE_READERS, events.articles, threads=1)
    return service


def run(bench):
    few, many = bench.settings.list_small, bench.settings.list_big
    print(f"== listing: a page of 50 at {few} articles and at {many}", file=sys.stderr)
    small, big = loaded(bench, "list-small", few), loaded(bench, "list-big", many)
    report = "listing, a page of 50"

    def row(label, query, note, churn=False):
        small_rps = bench.rate("listing.lua", small, query, *(["churn", str(few)] if churn else []))
        big_rps = bench.rate("listing.lua", big, query, *(["churn", str(many)] if churn else []))
        return small_rps, big_rps, (
            f"\n{INDENT}{label:<{LABEL}} {rate(small_rps)} req/s at {few}, {rate(big_rps)} req/s at "
            f"{many}: cost ratio {ratio(small_rps, big_rps)} ({note})")

    for sort in SORTS:
        small_rps, big_rps, text = row(sort, sort + "&limit=50", "target ≤ 1.5")
        print(f"  {sort}: {rate(small_rps)} req/s at {few} articles, {rate(big_rps)} req/s at {many}",
              file=sys.stderr)
        report += text
    small_rps, big_rps, text = row("with events", "sort=readers&limit=50",
                                   "requests, half of them events", churn=True)
    print(f"  with an event before every other page: {rate(small_rps)} req/s, {rate(big_rps)} req/s",
          file=sys.stderr)
    report += text
    for days in RANGES:
        span = f"from={day(1 - days)}&to={day()}"
        for sort in SORTS:
            small_rps, big_rps, text = row(f"{days}d {sort}", f"{sort}&limit=50&{span}", "target ≤ 1.5")
            print(f"  last {days} days, {sort}: {rate(small_rps)} req/s, {rate(big_rps)} req/s", file=sys.stderr)
            report += text
    small_rps, big_rps, text = row("7d with events", f"sort=readers&limit=50&from={day(-6)}&to={day()}",
                                   "requests, half of them events", churn=True)
    print(f"  last 7 days with an event before every other page: {rate(small_rps)} req/s, {rate(big_rps)} req/s",
          file=sys.stderr)
    report += text
    small.stop()
    big.stop()
    return [report]
