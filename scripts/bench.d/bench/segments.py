"""Segments (docs/api.md, "Segments"), on a fresh service of their own: an article of
--big-readers readers, each with a device class (from its width, a quarter of them named) and
one of 200 sources; GET …/stats unfiltered, filtered by device, and …/segments?by=device under
wrk (ratio targets ≤ 1.5 and ≤ 3), then a source filter and the segments by source, each asked
once on an answer not kept (cold), in milliseconds (target ≤ 250)."""
import http.client
import sys
import time

from . import events
from .figures import line, mean, ratio, whole
from .service import post_batches, wait_checkpointed

DATABASE = "segments.sqlite3"
ARTICLE = "/bench/segmented"
WIDTHS = (390, 820, 1280)
SOURCES = 200


def segmented(start, end):
    """Readers START..END of the article, with widths of three classes, a quarter naming their
    device, and sources of unequal popularity."""
    rows = []
    for i in range(start, end):
        width = WIDTHS[i % 3]
        named = ',"device":"tablet"' if i % 4 == 0 else ""
        source = ',"source":"site-%d.example"' % ((i * i) % SOURCES) if i % 5 else ""
        geometry = events.GEOMETRY.replace('"width":390,"height":844', '"width":%d,"height":844' % width)
        rows.append('{"article":"%s","reader":"s-%d",%s,"engagedMs":%d%s%s}\n'
                    % (ARTICLE, i, geometry % ((i * 37) % 4200, 5000), (i * 11) % 60000, named, source))
    return "".join(rows).encode()


def cold_ms(port, path):
    """Milliseconds of one GET of PATH; a fresh event first makes any kept answer stale."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    body = segmented(10**9, 10**9 + 1)
    connection.request("POST", "/v1/events", body, {"Content-Type": "application/x-ndjson"})
    connection.getresponse().read()
    started = time.monotonic()
    connection.request("GET", path)
    answer = connection.getresponse()
    answer.read()
    elapsed = (time.monotonic() - started) * 1000
    connection.close()
    if answer.status != 200:
        raise RuntimeError(f"GET {path} answered {answer.status}")
    return elapsed


def run(bench):
    settings = bench.settings
    big = settings.big_readers
    print(f"== segments: stats of {big} readers by device and by source", file=sys.stderr)
    service = bench.service("segments", "sqlite:" + bench.path(DATABASE))
    post_batches(service.port, big, segmented)
    wait_checkpointed(service.port)
    encoded = "%2Fbench%2Fsegmented"
    plain, phone, by_device = [], [], []
    for _ in range(settings.rounds):
        plain.append(bench.rate("stats.lua", service, encoded))
        phone.append(bench.rate("stats.lua", service, encoded, "device=phone"))
        by_device.append(bench.rate("segments.lua", service, encoded, "device"))
    path = "/v1/articles/" + encoded
    source = [cold_ms(service.port, path + "/stats?source=site-1.example") for _ in range(settings.rounds)]
    by_source = [cold_ms(service.port, path + "/segments?by=source") for _ in range(settings.rounds)]
    service.stop()
    print(f"  stats {whole(mean(plain))} req/s, device=phone {whole(mean(phone))}, "
          f"by device {whole(mean(by_device))}", file=sys.stderr)
    return [
        line(f"stats by device, {big} readers",
             f"{whole(mean(phone))} req/s filtered, {whole(mean(plain))} unfiltered: cost ratio "
             f"{ratio(mean(plain), mean(phone))} (target ≤ 1.5)"),
        line(f"segments by device, {big} readers",
             f"{whole(mean(by_device))} req/s: cost ratio {ratio(mean(plain), mean(by_device))} the "
             f"unfiltered stats (target ≤ 3)"),
        line(f"source queries, {big} readers, cold",
             f"stats?source= {max(source):.0f} ms, segments?by=source {max(by_source):.0f} ms, the "
             f"worst of {settings.rounds} (target ≤ 250; each: {' '.join('%.0f' % v for v in source)} "
             f"and {' '.join('%.0f' % v for v in by_source)})"),
    ]
