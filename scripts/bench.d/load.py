#!/usr/bin/env python3
"""Loads READERS distinct readers of one article into a running service, as NDJSON batches of
1000 over keep-alive connections (one per thread). Prints events/s on standard output."""
import http.client
import sys
import threading
import time

port, article, readers = int(sys.argv[1]), sys.argv[2], int(sys.argv[3])
threads = int(sys.argv[4]) if len(sys.argv) > 4 else 2
prefix = sys.argv[5] if len(sys.argv) > 5 else "reader"
BATCH = 1000
errors = []


def body(start, end):
    return "".join(
        '{"article":"%s","reader":"%s-%d","contentOffset":{"x":0,"y":%d},'
        '"contentSize":{"width":390,"height":5000},"containerSize":{"width":390,"height":844},'
        '"engagedMs":%d}\n' % (article, prefix, i, (i * 37) % 4200, (i * 11) % 60000)
        for i in range(start, end)
    ).encode()


def worker(index):
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
    for start in range(index * BATCH, readers, threads * BATCH):
        payload = body(start, min(start + BATCH, readers))
        connection.request("POST", "/v1/events", payload, {"Content-Type": "application/x-ndjson"})
        response = connection.getresponse()
        response.read()
        if response.status != 202:
            errors.append(response.status)
            return


started = time.time()
pool = [threading.Thread(target=worker, args=(i,)) for i in range(threads)]
for thread in pool:
    thread.start()
for thread in pool:
    thread.join()
elapsed = time.time() - started
if errors:
    sys.exit("load failed with status %s" % errors[0])
print("%.0f" % (readers / elapsed))
