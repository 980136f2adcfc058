"""The store's parts and the ingest path on their own, in one process (store-bench): decoding,
the index at a number of pairs, checkpoint encoding and restore."""
import os
import subprocess
import sys

from .processes import BenchError


def run(bench):
    pairs = bench.settings.store_pairs
    print(f"== store-bench: decoding, and the index at {pairs} pairs", file=sys.stderr)
    done = subprocess.run([os.path.join(bench.bin, "store-bench"), "all", str(pairs)],
                          stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, text=True)
    if done.returncode != 0:
        raise BenchError(f"store-bench failed with status {done.returncode}")
    return [f"store parts (store-bench all {pairs})"] + [
        "  " + text for text in done.stdout.splitlines()]
