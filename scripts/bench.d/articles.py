#!/usr/bin/env python3
"""Loads ARTICLES articles into a running service, each with a few readers, as NDJSON batches
of 1000 over one keep-alive connection. Prints the number of events sent."""
import http.client
import sys

port, articles = int(sys.argv[1]), int(sys.argv[2])
READERS = 3
lines = []
for a in range(articles):
    for r in range(READERS):
        y = (a * 131 + r * 977) % 4200
        lines.append(
            '{"article":"/bench/article-%d","reader":"r-%d","contentOffset":{"x":0,"y":%d},'
            '"contentSize":{"width":390,"height":5000},"containerSize":{"width":390,"height":844}}\n'
            % (a, r, y)
        )
connection = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
for start in range(0, len(lines), 1000):
    connection.request(
        "POST", "/v1/events", "".join(lines[start : start + 1000]).encode(),
        {"Content-Type": "application/x-ndjson"},
    )
    response = connection.getresponse()
    response.read()
    if response.status != 202:
        sys.exit("load failed with status %d" % response.status)
print(len(lines))
