"""scripts/bench's command line: the settings, the sections chosen, the programs, the report."""
import argparse
import os
import shutil
import signal
import subprocess
import sys
from dataclasses import dataclass, fields

from . import bulk, ids, listing, postgres, restart, sections, segments, single, stats, store
from .context import Bench
from .figures import header
from .processes import ROOT, BenchError, lib

# In the order they run; the first group makes up the report's first block.
SECTIONS = {
    "single": (single.run, "single events: the ceilings and the service, interleaved; CPU a request"),
    "budget": (single.budget, "the ceiling with busy work, answering like the service, the HTTP layer alone"),
    "bulk": (bulk.run, "1000 events a request as JSON and NDJSON, then each with a new id"),
    "ids": (ids.run, "resident memory a remembered id"),
    "stats": (stats.run, "stats of an article of 1k readers and a big one; memory a pair"),
    "restart": (restart.run, "the time until /healthz answers after kill -9 at 3 moments of a load, and after a clean stop"),
    "listing": (listing.run, "a page of the listing at few and at many articles"),
    "sections": (sections.run, "stats with a 64-section map against none; memory of 20-section maps"),
    "segments": (segments.run, "stats by device and the segments against unfiltered; source queries cold"),
    "store": (store.run, "store-bench: the store's parts in one process, without HTTP"),
    "postgres": (postgres.run, "two nodes on a throwaway PostgreSQL"),
}
FIRST_BLOCK = ["single", "budget", "bulk", "ids", "stats", "restart", "listing"]
CEILING_SECTIONS = {"single", "budget", "stats"}


MEANINGS = {
    "rounds": "rounds of each interleaved measurement",
    "seconds": "seconds of each wrk run",
    "connections": "connections of the single-event and stats runs",
    "big_readers": "readers of the big article (stats, postgres)",
    "restart_pairs": "reader-days of the load the restart section kills (nine in ten on one article)",
    "busy_ns": 'work budgets to show, "1000 2000" ("" for none)',
    "ids": "new ids sent in the ids section",
    "list_small": "articles of the small listing",
    "list_big": "articles of the big listing",
    "store_pairs": "pairs of store-bench all",
    "pg_reader_days": "reader-days of history made in PostgreSQL",
}


@dataclass
class Settings:
    rounds: int = 3
    seconds: int = 10
    connections: int = 64
    big_readers: int = 1_000_000
    restart_pairs: int = 10_000_000
    busy_ns: tuple = (1000, 2000, 4000)
    ids: int = 10_000_000
    list_small: int = 1000
    list_big: int = 200_000
    store_pairs: int = 1_000_000
    pg_reader_days: int = 50_000_000


QUICK = Settings(rounds=1, seconds=1, big_readers=5000, restart_pairs=20_000, busy_ns=(1000,), ids=50_000,
                 list_small=100, list_big=2000, store_pairs=10_000, pg_reader_days=60_000)
QUICK_FIELDS = {field.name for field in fields(Settings)
                if getattr(QUICK, field.name) != getattr(Settings(), field.name)}


def positive(text):
    value = int(text)
    if value <= 0:
        raise ValueError(f"{text} is not above 0")
    return value


def nanoseconds(text):
    """A list of work budgets: "1000 2000", "1000,2000", or "" for none."""
    return tuple(positive(item) for item in text.replace(",", " ").split())


def parser():
    sections = "\n".join(f"  {name:<10}{text}" for name, (_, text) in SECTIONS.items())
    result = argparse.ArgumentParser(
        prog="scripts/bench", formatter_class=argparse.RawDescriptionHelpFormatter,
        description="Benchmarks the service against a bare libmicrohttpd server answering 204 (the "
        "ceiling), on this machine. A benchmark, not a test: docs/performance.md says what each "
        "section measures. The report goes to standard output, progress to standard error.",
        epilog=f"sections, in the order they run (all when none is named; postgres not with "
        f"BENCH_POSTGRES=0):\n{sections}\n\nEach setting is taken from its option, else from "
        "--quick, else from its environment variable, else its default.")
    result.add_argument("sections", nargs="*", metavar="SECTION", help="sections to run")
    result.add_argument("--quick", action="store_true",
                        help="tiny sizes and durations, to check the program in a minute")
    result.add_argument("--bin", metavar="DIR",
                        help="use the programs built in DIR instead of building release")
    for field in fields(Settings):
        result.add_argument(
            "--" + field.name.replace("_", "-"), dest=field.name,
            metavar="LIST" if field.name == "busy_ns" else "N",
            type=nanoseconds if field.name == "busy_ns" else positive,
            help=f"{MEANINGS[field.name]} (BENCH_{field.name.upper()}; default "
            f"{describe(getattr(Settings(), field.name))}"
            + (f", quick {describe(getattr(QUICK, field.name))})" if field.name in QUICK_FIELDS else ")"))
    return result


def describe(value):
    return '"' + " ".join(map(str, value)) + '"' if isinstance(value, tuple) else f"{value:,}"


def settings_from(options, environment):
    chosen = Settings()
    for field in fields(Settings):
        name = "BENCH_" + field.name.upper()
        kind = nanoseconds if field.name == "busy_ns" else positive
        value = getattr(options, field.name)
        if value is None and options.quick and field.name in QUICK_FIELDS:
            value = getattr(QUICK, field.name)
        if value is None and name in environment:
            try:
                value = kind(environment[name])
            except ValueError as error:
                raise BenchError(f"{name}: {error}")
        if value is not None:
            setattr(chosen, field.name, value)
    return chosen


def sections_from(names, environment):
    unknown = [name for name in names if name not in SECTIONS]
    if unknown:
        raise BenchError(f"no section {', '.join(unknown)}; the sections: {', '.join(SECTIONS)}")
    if not names:
        return [name for name in SECTIONS
                if name != "postgres" or environment.get("BENCH_POSTGRES", "1") != "0"]
    return [name for name in SECTIONS if name in names]


def programs(sections):
    needed = [] if sections == ["store"] else ["reading-progress"]
    if CEILING_SECTIONS & set(sections):
        needed.append("bench-ceiling")
    if "store" in sections:
        needed.append("store-bench")
    return needed


def prepare(sections, bin_dir):
    """The folder of the programs SECTIONS need, built in release mode unless BIN_DIR is given;
    wrk installed when missing."""
    needs_wrk = sections != ["store"] and shutil.which("wrk") is None
    if bin_dir is None:
        lib('ensure_packages "${BUILD_PACKAGES[@]}" "$@"', *(["wrk"] if needs_wrk else []))
        print("== build (release)", file=sys.stderr)
        for program in programs(sections):
            subprocess.run(["swift", "build", "-c", "release", "--product", program], cwd=ROOT,
                           stdin=subprocess.DEVNULL, stdout=sys.stderr, check=True)
        bin_dir = subprocess.run(["swift", "build", "-c", "release", "--show-bin-path"], cwd=ROOT,
                                 stdout=subprocess.PIPE, text=True, check=True).stdout.strip()
    elif needs_wrk:
        lib('ensure_packages "$@"', "wrk")
    missing = [program for program in programs(sections)
               if not os.access(os.path.join(bin_dir, program), os.X_OK)]
    if missing:
        raise BenchError(f"{bin_dir} has no {', '.join(missing)}")
    return bin_dir


def show(lines):
    print("\n" + "\n".join(line() if callable(line) else line for line in lines), flush=True)


def run(sections, bench):
    """Runs SECTIONS in order, printing each block of the report once its sections are done."""
    block = []
    for name in sections:
        if block and name not in FIRST_BLOCK:
            show(block)
            block = []
        if name in FIRST_BLOCK and not block:
            block = [header(bench.settings)]
        lines = SECTIONS[name][0](bench)
        if name in FIRST_BLOCK:
            block += lines
        else:
            show(lines)
    if block:
        show(block)


def stop_on_signal(number, frame):
    raise SystemExit(128 + number)


def main(argv=None, environment=os.environ):
    options = parser().parse_args(argv)
    try:
        settings = settings_from(options, environment)
        sections = sections_from(options.sections, environment)
        bench = Bench(settings, prepare(sections, options.bin), sections)
    except (BenchError, subprocess.CalledProcessError) as error:
        print(f"bench: {error}", file=sys.stderr)
        return 2
    signal.signal(signal.SIGTERM, stop_on_signal)
    try:
        run(sections, bench)
    except (BenchError, subprocess.CalledProcessError) as error:
        print(f"bench: {error}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("bench: interrupted", file=sys.stderr)
        return 130
    finally:
        bench.close()
    return 0
