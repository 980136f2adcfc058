"""Talking to a running service over HTTP: its metrics, its health, and loads of events."""
import http.client
import threading
import time

from .processes import BenchError, wait_for


def get(port, path, timeout=10):
    """(status, body) of GET PATH on 127.0.0.1:PORT."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        connection.request("GET", path)
        response = connection.getresponse()
        return response.status, response.read()
    except OSError as error:
        raise BenchError(f"GET {path} on port {port}: {error}")
    finally:
        connection.close()


def metric(port, name):
    """The value of metric NAME in /metrics, as the service wrote it."""
    status, body = get(port, "/metrics")
    if status != 200:
        raise BenchError(f"/metrics answered {status}")
    for line in body.decode().splitlines():
        if line.startswith(name + " "):
            return line.split()[1]
    raise BenchError(f"/metrics has no {name}")


def healthy(port):
    """Whether /healthz answers 200; a refused connection is an answer not given yet."""
    try:
        return get(port, "/healthz", timeout=2)[0] == 200
    except BenchError:
        return False


def wait_healthy(server, seconds=600):
    """Seconds from the server's start until its /healthz answered 200."""
    wait_for(lambda: healthy(server.port) or not server.alive(), seconds,
             f"{server.name} answering /healthz", interval=0.005)
    if not server.alive():
        raise BenchError(f"{server.name} exited:\n{server.error_text()}")
    return time.monotonic() - server.started


def wait_checkpointed(port, seconds=300):
    """Until no journal entry is left unsaved by a checkpoint."""
    wait_for(lambda: float(metric(port, "reading_progress_store_journal_entries")) == 0,
             seconds, "the checkpoint catching up", interval=0.2)


def post_batches(port, count, body, threads=2, batch=1000, accepted=None):
    """Posts events 0..COUNT as NDJSON, BATCH a request, over THREADS keep-alive connections;
    `body(start, end)` makes a request's bytes. Each answer must be 202 (and, with `accepted`,
    pass it). Returns events a second."""
    starts = iter(range(0, count, batch))
    lock = threading.Lock()
    errors = []

    def send():
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
        try:
            while not errors:
                with lock:
                    start = next(starts, None)
                if start is None:
                    return
                connection.request("POST", "/v1/events", body(start, min(start + batch, count)),
                                   {"Content-Type": "application/x-ndjson"})
                response = connection.getresponse()
                answer = response.read()
                if response.status != 202 or (accepted and not accepted(answer)):
                    errors.append(f"{response.status} {answer[:200]!r}")
        except OSError as error:
            errors.append(str(error))
        finally:
            connection.close()

    started = time.monotonic()
    # Daemons, so that a benchmark stopped meanwhile does not wait for the load to end.
    pool = [threading.Thread(target=send, daemon=True) for _ in range(threads)]
    for thread in pool:
        thread.start()
    for thread in pool:
        thread.join()
    if errors:
        raise BenchError(f"sending events failed: {errors[0]}")
    return count / (time.monotonic() - started)
