"""Bulk: 1000 events a request over 4 connections, as JSON arrays and as NDJSON; then JSON arrays
whose every event carries an id never sent before."""
import sys

from .figures import events, line, mean_fine, rate
from .processes import rss_kb
from .single import ingest_service

CONNECTIONS = 4


def rounds_text(runs):
    return ", ".join(str(events(run)) for run in runs)


def run(bench):
    settings = bench.settings
    service = ingest_service(bench)
    print(f"== bulk: 1000 events a request, {CONNECTIONS} connections, "
          f"{settings.seconds}s × {settings.rounds} rounds", file=sys.stderr)
    json_meter, ndjson_meter, ids_meter = bench.meter(service), bench.meter(service), bench.meter(service)
    json_runs, ndjson_runs, ids_runs = [], [], []
    for round in range(1, settings.rounds + 1):
        json_runs.append(bench.metered(json_meter, "bulk.lua", "json", connections=CONNECTIONS))
        ndjson_runs.append(bench.metered(ndjson_meter, "bulk.lua", "ndjson", connections=CONNECTIONS))
        print(f"  round {round}: JSON {rate(json_runs[-1])} req/s, NDJSON {rate(ndjson_runs[-1])} "
              "req/s (1000 events each)", file=sys.stderr)
    # Every id is looked up and remembered for 24 hours: after the rounds above, since the ids
    # (and the checkpoints saving them) would weigh on theirs.
    for round in range(1, settings.rounds + 1):
        ids_runs.append(bench.metered(ids_meter, "bulk-ids.lua", connections=CONNECTIONS))
        print(f"  round {round}: JSON with new ids {rate(ids_runs[-1])} req/s (1000 events each)",
              file=sys.stderr)
    service_rss_kb = rss_kb(service.pid)
    # Killed now, so that its checkpoints weigh on no later section.
    service.kill()
    return [
        line("bulk JSON arrays", f"{events(mean_fine(json_runs))} events/s (target ≥ 1,000,000; "
             f"rounds: {rounds_text(json_runs)})"),
        line("bulk NDJSON", f"{events(mean_fine(ndjson_runs))} events/s (target ≥ 1,000,000; "
             f"rounds: {rounds_text(ndjson_runs)})"),
        line("bulk CPU", f"JSON {json_meter.micros_a_request()} ns an event, NDJSON "
             f"{ndjson_meter.micros_a_request()} ns (a million a second on two cores leaves "
             "2,000 ns an event to the service and wrk together)"),
        line("bulk JSON with new ids", f"{events(mean_fine(ids_runs))} events/s, "
             f"{ids_meter.micros_a_request()} ns of CPU an event, each with an id never sent "
             f"before (rounds: {rounds_text(ids_runs)}); the service's RSS after them "
             f"{service_rss_kb // 1024} MiB"),
    ]
