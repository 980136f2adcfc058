#!/usr/bin/env python3
"""Posts COUNT requests of KIND to the service on PORT over one keep-alive connection, each
answered 202: `single` (one event), `attention` (one event with the twenty bands of attention),
`bulk` (a JSON array of 1000, as bulk.lua sends) or `ids` (the same, every event with an id never
sent before). SEED varies the events.

    instructions_load.py PORT COUNT single|attention|bulk|ids [SEED]"""
import http.client
import os
import random
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench.events import random_event  # noqa: E402

port, count, kind = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
rng = random.Random(int(sys.argv[4]) if len(sys.argv) > 4 else 7)
connection = http.client.HTTPConnection("127.0.0.1", port)
serial = rng.randrange(10**9)
for _ in range(count):
    events = []
    for _ in range(1 if kind in ("single", "attention") else 1000):
        extra = ""
        if kind == "ids":
            serial += 1
            extra = ',"id":"evt-%d"' % serial
        event = random_event(rng, extra)
        if kind == "attention":
            # Twenty bands as a tracker sends them: those in view share the engaged time.
            engaged = int(re.search(r'"engagedMs":(\d+)', event).group(1))
            first = rng.randint(0, 14)
            bands = [engaged if first <= band < first + 6 else 0 for band in range(20)]
            event = event[:-1] + ',"attention":[%s]}' % ",".join(map(str, bands))
        events.append(event)
    body = events[0] if kind in ("single", "attention") else "[" + ",".join(events) + "]"
    connection.request("POST", "/v1/events", body=body, headers={"Content-Type": "application/json"})
    answer = connection.getresponse()
    answer.read()
    if answer.status != 202:
        sys.exit(f"answered {answer.status}")
