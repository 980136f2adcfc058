"""Sections and attention (docs/api.md, "Sections and attention"), on a fresh service of their
own: GET …/stats of an article of --big-readers readers before and after one event gives it a
64-section map (the answer's 64 sections against none: ratio target ≤ 1.2; the same again
accepting gzip as browsers do), then resident
memory of --list-big articles (200,000 by default) of one reader each, without a map and with
a 20-section map."""
import sys

from . import events
from .figures import line, mean, per, rate, ratio, whole
from .processes import rss_kb
from .service import post_batches, wait_checkpointed

DATABASE = "sections.sqlite3"


def section_map(count):
    """COUNT sections as the tracker sends them: titles of some 30 bytes, starts off the grid."""
    return ",".join('{"title":"Section %d of the article body","start":%.6f,"words":%d}'
                    % (k, k / count + 0.000123 * (k > 0), 100 + k) for k in range(count))


ATTENTION = '"attention":[%s]' % ",".join(["500"] * 20)


def mapped_articles(start, end, prefix, sections):
    """Articles START..END, each read once; with SECTIONS > 0, each event carries a map of that
    many sections and attention."""
    extra = (',"sections":[%s],%s' % (section_map(sections), ATTENTION)) if sections else ""
    return "".join(
        '{"article":"/%s/%d","reader":"r",%s,"engagedMs":1000%s}\n'
        % (prefix, i, events.GEOMETRY % ((i * 131) % 4200, 5000), extra)
        for i in range(start, end)).encode()


def run(bench):
    settings = bench.settings
    big, count = settings.big_readers, settings.list_big
    print(f"== sections: stats of {big} readers with a 64-section map; memory of {count} maps",
          file=sys.stderr)
    service = bench.service("sections", "sqlite:" + bench.path(DATABASE))
    post_batches(service.port, big, lambda start, end: events.readers("/bench/mapped", start, end))
    wait_checkpointed(service.port)
    def rounds(*arguments):
        return [bench.rate("stats.lua", service, "%2Fbench%2Fmapped", *arguments)
                for _ in range(settings.rounds)]

    plain_runs, plain_gzip = rounds(), rounds("", "gzip")
    mapped_event = ('{"article":"/bench/mapped","reader":"mapper",%s,"engagedMs":1000,'
                    '"sections":[%s],%s}\n' % (events.GEOMETRY % (2000, 5000), section_map(64), ATTENTION))
    post_batches(service.port, 1, lambda start, end: mapped_event.encode())
    mapped_runs, mapped_gzip = rounds(), rounds("", "gzip")
    print(f"  without sections {rate(mean(plain_runs))} req/s, with 64 {rate(mean(mapped_runs))}; "
          f"gzipped {rate(mean(plain_gzip))} and {rate(mean(mapped_gzip))}", file=sys.stderr)

    start = rss_kb(service.pid)
    post_batches(service.port, count, lambda s, e: mapped_articles(s, e, "plain", 0))
    wait_checkpointed(service.port)
    plain = rss_kb(service.pid)
    # A 20-section map makes an event some 1.5 KB: batches of 100 stay within the body limit.
    post_batches(service.port, count, lambda s, e: mapped_articles(s, e, "mapped", 20), batch=100)
    wait_checkpointed(service.port)
    mapped = rss_kb(service.pid)
    service.stop()
    plain_rps, mapped_rps = mean(plain_runs), mean(mapped_runs)
    plain_zipped, mapped_zipped = mean(plain_gzip), mean(mapped_gzip)
    return [
        line(f"stats, {big} readers", f"{whole(mapped_rps)} req/s with a 64-section map, "
             f"{whole(plain_rps)} without: cost ratio {ratio(plain_rps, mapped_rps)} (target ≤ 1.2)"),
        line(f"stats, {big} readers, gzip", f"{whole(mapped_zipped)} req/s with a 64-section map, "
             f"{whole(plain_zipped)} without: cost ratio {ratio(plain_zipped, mapped_zipped)}"),
        line("memory, section maps", f"{per(plain, mapped, count, 0)} bytes RSS an article with a "
             f"20-section map and attention, {per(start, plain, count, 0)} without, over {count} "
             f"articles of one reader (checkpointed)"),
    ]
