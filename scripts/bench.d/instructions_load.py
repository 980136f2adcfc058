#!/usr/bin/env python3
"""Posts COUNT requests of KIND to the service on PORT over one keep-alive connection, each
answered 202: `single` (one event), `bulk` (a JSON array of 1000, as bulk.lua sends) or `ids`
(the same, every event with an id never sent before). SEED varies the events."""
import http.client
import random
import sys

port, count, kind = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
random.seed(int(sys.argv[4]) if len(sys.argv) > 4 else 7)
EVENT = ('{"article":"/blog/article-%d","reader":"reader-%d","contentOffset":{"x":0,"y":%d},'
         '"contentSize":{"width":390,"height":%d},"containerSize":{"width":390,"height":844},'
         '"engagedMs":%d%s}')
connection = http.client.HTTPConnection("127.0.0.1", port)
serial = random.randrange(10**9)
for _ in range(count):
    events = []
    for _ in range(1 if kind == "single" else 1000):
        extra = ""
        if kind == "ids":
            serial += 1
            extra = ',"id":"evt-%d"' % serial
        events.append(EVENT % (random.randint(0, 99), random.randint(0, 199999), random.randint(0, 4000),
                               random.randint(3000, 9000), random.randint(0, 30000), extra))
    body = events[0] if kind == "single" else "[" + ",".join(events) + "]"
    connection.request("POST", "/v1/events", body=body, headers={"Content-Type": "application/json"})
    answer = connection.getresponse()
    answer.read()
    if answer.status != 202:
        sys.exit(f"answered {answer.status}")
