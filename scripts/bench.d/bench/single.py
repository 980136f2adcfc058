"""Single events: the ceilings and the service in turn, interleaved, several rounds; then what
a request may cost (the work budget), the service-shaped answer and the HTTP layer alone."""
import sys

from .figures import INDENT, line, mean, rate, ratio, whole


def ingest_service(bench):
    """The service on a file that single events and bulk share."""
    return bench.once("ingest", lambda: bench.service("service", "sqlite:" + bench.path("ingest.sqlite3")))


def run(bench):
    settings = bench.settings
    ceiling, default, service = bench.plain_ceiling(), bench.default_ceiling(), ingest_service(bench)
    print(f"== single events: {settings.connections} connections, keep-alive, "
          f"{settings.seconds}s × {settings.rounds} rounds, interleaved", file=sys.stderr)
    ceiling_meter, service_meter = bench.meter(ceiling), bench.meter(service)
    ceiling_runs, default_runs, service_runs = [], [], []
    for round in range(1, settings.rounds + 1):
        ceiling_runs.append(bench.metered(ceiling_meter, "single.lua"))
        default_runs.append(bench.rate("single.lua", default))
        service_runs.append(bench.metered(service_meter, "single.lua"))
        print(f"  round {round}: ceiling {rate(ceiling_runs[-1])} req/s "
              f"(32 KiB: {rate(default_runs[-1])}), service {rate(service_runs[-1])} req/s",
              file=sys.stderr)
    ceiling_rps, default_rps = mean(ceiling_runs), mean(default_runs)
    service_rps = bench.results["single service rps"] = mean(service_runs)
    return [
        line(f"single events ({settings.connections} conns)",
             f"ceiling {whole(ceiling_rps)} req/s   service {whole(service_rps)} req/s   "
             f"ratio {ratio(service_rps, ceiling_rps)} (target ≥ 0.80)"),
        INDENT + f"CPU a request: ceiling {ceiling_meter.micros_a_request()} µs, "
        f"service {service_meter.micros_a_request()} µs (user + system, /proc)",
        INDENT + "ceiling with libmicrohttpd's default 32 KiB a connection: "
        f"{whole(default_rps)} req/s, ratio {ratio(service_rps, default_rps)}",
    ]


def against_plain(bench, name, *arguments):
    """(plain, variant): a ceiling started with ARGUMENTS, run right after a plain ceiling run."""
    plain = bench.plain_ceiling()
    variant = bench.ceiling(name, *arguments)
    try:
        return bench.rate("single.lua", plain), bench.rate("single.lua", variant)
    finally:
        variant.kill()


def of_plain(bench, plain, variant):
    """A variant's rate against the plain ceiling, and the service's against it when measured."""
    text = f"{rate(variant)} req/s, ratio {ratio(variant, plain)} to the plain ceiling"
    service_rps = bench.results.get("single service rps")
    if service_rps is not None:
        text += f"; the service {ratio(service_rps, variant)} of it"
    return text


def budget(bench):
    # On a machine that the load generator shares, the ratio falls faster than the time added:
    # the slower the server, the more often each answer must wake a sleeping wrk thread.
    budget_report = ""
    if bench.settings.busy_ns:
        print("== work budget: the ceiling spending N ns on each request", file=sys.stderr)
    for busy in bench.settings.busy_ns:
        plain, variant = against_plain(bench, f"busy-{busy}", "--busy-ns", str(busy))
        print(f"  {busy} ns: {rate(variant)} req/s against {rate(plain)}", file=sys.stderr)
        budget_report += (f"\n{INDENT}{busy:>5} ns a request: {rate(variant)} req/s, "
                          f"ratio {ratio(variant, plain)}")
    # The ceiling answering each request as the service answers an event (202, a JSON body of
    # that size, the same header fields, a response built each time).
    plain, shaped = against_plain(bench, "shaped", "--answer", "service")
    print(f"  answering like the service: {rate(shaped)} req/s against {rate(plain)}", file=sys.stderr)
    shaped_report = of_plain(bench, plain, shaped)
    # The service's own HTTPServer, with the service's threads, answering as the service answers
    # an event without decoding, storing or logging: what is left between it and the ceiling is
    # all that the service's own work may cost.
    plain, layer = against_plain(bench, "layer", "--http-layer")
    print(f"  the service's HTTP layer alone: {rate(layer)} req/s against {rate(plain)}", file=sys.stderr)
    return [
        line("work budget", "the ceiling with busy work before each answer, against the plain "
             "ceiling:" + (budget_report or " (not run)")),
        line("service-shaped answer", "the ceiling answering 202 with the service's header "
             "fields and body size: " + shaped_report),
        line("HTTP layer alone", "the service's HTTPServer answering like the service, no "
             "decoding, store or log: " + of_plain(bench, plain, layer)),
    ]
