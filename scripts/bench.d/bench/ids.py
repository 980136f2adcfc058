"""What a remembered id costs: a fresh service gets 20,000 pairs, then many events on them each
with a new id; resident memory is read once the checkpoints have saved what each load left (the
keys waiting for one are transient), before and after the ids."""
import sys

from . import events
from .figures import line, per, whole
from .processes import rss_kb
from .service import metric, post_batches, wait_checkpointed


def without_duplicates(answer):
    return b'"duplicates":0' in answer


def run(bench):
    count = bench.settings.ids
    print(f"== memory of ids: {count} new ids on {events.PAIRS:,} pairs", file=sys.stderr)
    service = bench.service("ids", "sqlite:" + bench.path("ids.sqlite3"))
    heads = events.pair_heads()
    post_batches(service.port, events.PAIRS, events.on_pairs(heads, with_ids=False),
                 accepted=without_duplicates)
    wait_checkpointed(service.port)
    before = rss_kb(service.pid)
    load_rate = post_batches(service.port, count, events.on_pairs(heads, with_ids=True),
                             accepted=without_duplicates)
    loaded = rss_kb(service.pid)
    wait_checkpointed(service.port)
    saved = rss_kb(service.pid)
    held = metric(service.port, "reading_progress_store_recent_ids")
    service.kill()
    report = (f"{per(before, saved, count, 1)} bytes RSS an id over {count} ids once "
              f"checkpointed (target ≤ 16), {per(before, loaded, count, 1)} right after loading "
              f"({whole(load_rate)} events/s); {held} ids held")
    print("  " + report, file=sys.stderr)
    return [line("ids in memory", report)]
