"""scripts/bench holds together: every module compiles, the command line and the arithmetic say
what they should, and (given BENCH_TEST_BIN, a folder with a built reading-progress) a quick run
of the listing section reports every row and leaves no server running.

    BENCH_TEST_BIN=.build/debug python3 -m unittest discover -s scripts/bench.d -p 'test_*.py'
"""
import glob
import os
import py_compile
import subprocess
import tempfile
import unittest
import uuid

from bench import cli, figures, wrk
from bench.processes import BenchError

HERE = os.path.dirname(os.path.abspath(__file__))
BENCH = os.path.join(os.path.dirname(HERE), "bench")


def options(*arguments):
    return cli.parser().parse_args(list(arguments))


class Program(unittest.TestCase):
    def test_every_module_compiles(self):
        sources = [BENCH] + glob.glob(os.path.join(HERE, "*.py")) + glob.glob(os.path.join(HERE, "bench", "*.py"))
        self.assertGreater(len(sources), 10)
        with tempfile.TemporaryDirectory() as folder:
            for source in sources:
                py_compile.compile(source, cfile=os.path.join(folder, "compiled.pyc"), doraise=True)

    def test_help_names_every_section_and_setting(self):
        done = subprocess.run([BENCH, "--help"], capture_output=True, text=True)
        self.assertEqual(done.returncode, 0, done.stderr)
        for name in cli.SECTIONS:
            self.assertRegex(done.stdout, rf"(?m)^  {name} ")
        for variable in ("BENCH_ROUNDS", "BENCH_BUSY_NS", "BENCH_PG_READER_DAYS", "BENCH_POSTGRES"):
            self.assertIn(variable, done.stdout)

    def test_an_unknown_section_is_refused_before_anything_starts(self):
        done = subprocess.run([BENCH, "--bin", "/nonexistent", "lsiting"], capture_output=True, text=True)
        self.assertEqual(done.returncode, 2)
        self.assertIn("no section lsiting", done.stderr)


class Settings(unittest.TestCase):
    def test_an_option_wins_over_quick_which_wins_over_the_environment(self):
        environment = {"BENCH_ROUNDS": "5", "BENCH_CONNECTIONS": "16", "BENCH_BIG_READERS": "7"}
        chosen = cli.settings_from(options("--quick", "--seconds", "3"), environment)
        self.assertEqual((chosen.rounds, chosen.seconds, chosen.connections, chosen.big_readers),
                         (1, 3, 16, 5000))
        self.assertEqual(cli.settings_from(options(), environment).rounds, 5)
        self.assertEqual(cli.settings_from(options(), {}).big_readers, 1_000_000)

    def test_work_budgets_may_be_none(self):
        self.assertEqual(cli.settings_from(options(), {"BENCH_BUSY_NS": ""}).busy_ns, ())
        self.assertEqual(cli.settings_from(options("--busy-ns", "500,700"), {}).busy_ns, (500, 700))

    def test_a_malformed_variable_is_refused(self):
        with self.assertRaisesRegex(BenchError, "BENCH_ROUNDS"):
            cli.settings_from(options(), {"BENCH_ROUNDS": "three"})
        with self.assertRaises(SystemExit), open(os.devnull, "w") as quiet:
            parser = cli.parser()
            parser._print_message = lambda message, file=None: quiet.write(message)
            parser.parse_args(["--rounds", "0"])

    def test_sections_run_in_their_order_and_postgres_can_be_left_out(self):
        self.assertEqual(cli.sections_from(["listing", "stats"], {}), ["stats", "listing"])
        self.assertEqual(cli.sections_from([], {})[-1], "postgres")
        self.assertNotIn("postgres", cli.sections_from([], {"BENCH_POSTGRES": "0"}))
        self.assertEqual(cli.programs(["store"]), ["store-bench"])
        self.assertEqual(cli.programs(["listing"]), ["reading-progress"])


class Arithmetic(unittest.TestCase):
    def test_means_ratios_and_memory_as_the_report_prints_them(self):
        self.assertEqual(figures.mean([100.4, 101.0]), 101.0)
        self.assertEqual(figures.mean_fine([1467.354, 1423.52]), 1445.44)
        self.assertEqual(figures.events(1445.44), 1445440)
        self.assertEqual(figures.ratio(52784, 82949), "0.64")
        self.assertEqual(figures.ratio(1, 0), "n/a")
        self.assertEqual(figures.per(1000, 1500, 10_000, 1), "51.2")
        self.assertEqual(figures.line("bulk CPU", "x"), "bulk CPU" + " " * 19 + "x")

    def test_a_wrk_report_gives_its_rate_and_a_broken_one_an_error(self):
        report = "Running 1s test\n  2 threads and 64 connections\nRequests/sec:  52784.12\nTransfer/sec: 9MB\n"
        self.assertEqual(wrk.requests_per_second(report), 52784.12)
        with self.assertRaises(BenchError):
            wrk.requests_per_second("unable to connect to 127.0.0.1:1 Connection refused\n")


@unittest.skipUnless(os.environ.get("BENCH_TEST_BIN"), "BENCH_TEST_BIN names no built reading-progress")
class QuickRun(unittest.TestCase):
    def test_the_listing_section_reports_every_row_and_leaves_no_server(self):
        marker = uuid.uuid4().hex
        environment = dict(os.environ, BENCH_TEST_MARKER=marker)
        done = subprocess.run([BENCH, "--quick", "--bin", os.environ["BENCH_TEST_BIN"], "listing"],
                              env=environment, capture_output=True, text=True, timeout=300)
        self.assertEqual(done.returncode, 0, done.stderr[-3000:])
        lines = done.stdout.strip().splitlines()
        self.assertRegex(lines[0], r"^ReadingProgress benchmark — \d{4}-\d\d-\d\dT\d\d:\d\dZ, \d+ cores, rounds 1 × 1s$")
        self.assertEqual(lines[1], "listing, a page of 50")
        sorts = [r"sort=readers", r"sort=completion", r"sort=recent", r"sort=article"]
        rows = sorts + [r"with events"] + [rf"{days}d {sort}" for days in (7, 30, 90) for sort in sorts] + [r"7d with events"]
        self.assertEqual(len(lines), 2 + len(rows), done.stdout)
        for row, text in zip(rows, lines[2:]):
            self.assertRegex(text, rf"^ {{27}}{row} +\d+\.\d\d req/s at 100, \d+\.\d\d req/s at 2000: cost ratio \d+\.\d\d \(")
        self.assertEqual(processes_marked(marker), [])


def processes_marked(marker):
    """Processes whose environment holds BENCH_TEST_MARKER=MARKER: the run's, if any is left."""
    found = []
    for environ in glob.glob("/proc/[0-9]*/environ"):
        try:
            with open(environ, "rb") as variables:
                if f"BENCH_TEST_MARKER={marker}".encode() in variables.read().split(b"\0"):
                    found.append(environ.split("/")[2])
        except OSError:
            continue  # a process that has exited meanwhile, or one of another user's
    return found


if __name__ == "__main__":
    unittest.main()
