#!/usr/bin/env python3
"""Sends EVENTS events to a running service, spread over the same 20,000 (article, reader) pairs
(200 articles, 100 readers each), as NDJSON batches of 1000 over keep-alive connections (one per
thread). With "ids" every event carries an id never sent before; with "plain" none does (to
make the pairs first, so that what the ids add can be told apart). Prints events/s.

    ids.py PORT EVENTS ids|plain [THREADS]"""
import http.client
import sys
import threading
import time

port, events, mode = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
threads = int(sys.argv[4]) if len(sys.argv) > 4 else 2
ARTICLES, READERS, BATCH = 200, 100, 1000
PAIRS = ARTICLES * READERS
errors = []

heads = [
    '{"article":"/ids/article-%d","reader":"reader-%d","contentOffset":{"x":0,"y":%d},'
    '"contentSize":{"width":390,"height":5000},"containerSize":{"width":390,"height":844},'
    '"engagedMs":1000' % (pair % ARTICLES, pair // ARTICLES, (pair * 37) % 4200)
    for pair in range(PAIRS)
]
if mode == "ids":
    heads = [head + ',"id":"' for head in heads]
elif mode != "plain":
    sys.exit("the mode is ids or plain, not %r" % mode)


def body(start, end):
    if mode == "ids":
        return "".join(heads[i % PAIRS] + 'e%d"}\n' % i for i in range(start, end)).encode()
    return "".join(heads[i % PAIRS] + "}\n" for i in range(start, end)).encode()


def worker(index):
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
    for start in range(index * BATCH, events, threads * BATCH):
        payload = body(start, min(start + BATCH, events))
        connection.request("POST", "/v1/events", payload, {"Content-Type": "application/x-ndjson"})
        response = connection.getresponse()
        answer = response.read()
        if response.status != 202 or b'"duplicates":0' not in answer:
            errors.append((response.status, answer[:200]))
            return


started = time.time()
pool = [threading.Thread(target=worker, args=(i,)) for i in range(threads)]
for thread in pool:
    thread.start()
for thread in pool:
    thread.join()
elapsed = time.time() - started
if errors:
    sys.exit("sending failed: %s %s" % errors[0])
print("%.0f" % (events / elapsed))
