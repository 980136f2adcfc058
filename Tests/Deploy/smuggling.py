"""Requests whose framing two HTTP implementations could read differently (docs/proxies.md), as
raw bytes for nginx: the attempts of Tests/EndToEndTests/SmugglingTests.swift and a few more of
Tests/HTTPServerTests/FramingCases.swift, each carrying an event and, hidden in its body, a
second request with an event of its own."""

import dataclasses
import http.client
import io
import json
import socket
import uuid

from deploy_support import event


@dataclasses.dataclass
class Attempt:
    name: str
    head: bytes
    body: bytes
    # The articles of the visible event and of the hidden one.
    articles: list
    # "refused": nginx or the node refuses it (400, 501 or 505); "either": nginx may also read it
    # one way (RFC 9112 §2.2 lets it take a bare LF for a line end) and forward what it read;
    # "counted": well-formed, or made so by nginx, and its one event counts.
    expect: str = "refused"
    version: str = "HTTP/1.1"


def chunked(data):
    return b"%x\r\n" % len(data) + data + b"\r\n0\r\n\r\n"


def attempts():
    """Every attempt, with articles of their own on each call."""
    cases = [
        ("Content-Length and Transfer-Encoding: chunked",
         lambda e, s: [f"Content-Length: {len(e)}", "Transfer-Encoding: chunked"], lambda e, s: chunked(e) + s),
        ("two different Content-Length values",
         lambda e, s: [f"Content-Length: {len(e)}", f"Content-Length: {len(e) + len(s)}"], lambda e, s: e + s),
        ("whitespace before the colon of Content-Length",
         lambda e, s: [f"Content-Length : {len(e)}"], lambda e, s: e + s),
        ("Content-Length folded onto a continuation line",
         lambda e, s: [f"Content-Length: {len(e)}", " 0"], lambda e, s: e + s),
        ("a header folded onto a continuation line",
         lambda e, s: ["X-Folded: a", "\tb", f"Content-Length: {len(e)}"], lambda e, s: e),
        ("a bare CR hiding Content-Length",
         lambda e, s: [f"X-Note: a\rContent-Length: {len(e)}"], lambda e, s: e + s),
        ("a NUL inside Content-Length",
         lambda e, s: [f"Content-Length: {len(e)}\0{len(s)}"], lambda e, s: e + s),
        ("a NUL in another field", lambda e, s: ["X-Note: a\0b", f"Content-Length: {len(e)}"], lambda e, s: e),
        ("Transfer-Encoding: chunked, identity",
         lambda e, s: ["Transfer-Encoding: chunked, identity"], lambda e, s: chunked(e) + s),
        ("Transfer-Encoding: gzip, chunked",
         lambda e, s: ["Transfer-Encoding: gzip, chunked"], lambda e, s: chunked(e) + s),
        ("Transfer-Encoding: chunked twice",
         lambda e, s: ["Transfer-Encoding: chunked", "Transfer-Encoding: chunked"], lambda e, s: chunked(e) + s),
        ("two Host fields",
         lambda e, s: ["Host: admin.example", f"Content-Length: {len(e)}"], lambda e, s: e + s),
        ("a Host with a space", lambda e, s: [f"Content-Length: {len(e)}"], lambda e, s: e + s),
        ("a field name with a space", lambda e, s: [f"Content Length: {len(e)}"], lambda e, s: e + s),
        ("a Content-Length with a sign", lambda e, s: [f"Content-Length: +{len(e)}"], lambda e, s: e + s),
    ]
    result = []
    for name, fields, body in cases:
        result.append(_attempt(name, fields, body))
    result.append(_attempt(
        "an HTTP version other than 1.x", lambda e, s: [f"Content-Length: {len(e)}"], lambda e, s: e + s,
        version="HTTP/3.1"))
    result.append(_attempt(
        "HTTP/1.1 without Host", lambda e, s: [f"Content-Length: {len(e)}"], lambda e, s: e + s, host=None))
    result.append(_attempt(
        "Transfer-Encoding on HTTP/1.0", lambda e, s: ["Transfer-Encoding: chunked"],
        lambda e, s: chunked(e) + s, version="HTTP/1.0"))
    result.append(_attempt(
        "a bare LF ending a header line", lambda e, s: [f"X-Note: a\nContent-Length: {len(e)}"],
        lambda e, s: e + s, expect="either"))
    # nginx passes these on as they are; the node refuses them itself.
    for name, character in [("a control character in a field value", "\x01"), ("DEL in a field value", "\x7f")]:
        result.append(_attempt(
            name, lambda e, s, c=character: [f"X-Note: a{c}b", f"Content-Length: {len(e)}"], lambda e, s: e))
    # Their neighbours, which nginx reads one way and forwards in its own framing: each counts once.
    result += [
        _attempt("chunked with bare LFs", lambda e, s: ["Transfer-Encoding: chunked"],
                 lambda e, s: chunked(e).replace(b"\r\n", b"\n"), expect="counted"),
        _attempt("a chunk extension and a trailer field", lambda e, s: ["Transfer-Encoding: chunked"],
                 lambda e, s: b"%x;x=1\r\n" % len(e) + e + b"\r\n0\r\nX-T: 1\r\n\r\n", expect="counted"),
        _attempt("HTTP/1.0 without Host", lambda e, s: [f"Content-Length: {len(e)}"], lambda e, s: e,
                 host=None, version="HTTP/1.0", expect="counted"),
        _attempt("Expect: 100-continue", lambda e, s: ["Expect: 100-continue", f"Content-Length: {len(e)}"],
                 lambda e, s: e, expect="counted"),
    ]
    return result


def _attempt(name, fields, body, host="127.0.0.1", version="HTTP/1.1", expect="refused"):
    visible, hidden = (f"/smuggling/{kind}/{uuid.uuid4().hex[:10]}" for kind in ("visible", "hidden"))
    seen = json.dumps(event(visible, "smuggler")).encode()
    unseen = json.dumps(event(hidden, "smuggler")).encode()
    smuggled = (b"POST /v1/events HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                b"Content-Length: %d\r\n\r\n" % len(unseen)) + unseen
    if name == "a Host with a space":
        host = "127.0.0.1 evil.example"
    lines = ([f"Host: {host}"] if host else []) + ["Content-Type: application/json"] + fields(seen, smuggled)
    head = f"POST /v1/events {version}\r\n" + "".join(line + "\r\n" for line in lines) + "\r\n"
    return Attempt(name, head.encode("latin-1"), body(seen, smuggled), [visible, hidden], expect, version)


# Sent after every attempt on the same connection: its answer shows nginx read the attempt whole,
# and it closes the connection, so that reading ends at the end of the answers and not at a timeout.
LAST = b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"


class _Unclosable(io.BytesIO):
    """What http.client reads several answers from one after the other: it closes its file after
    each, and the next one is in the same bytes."""

    def close(self):
        pass

    def makefile(self, mode):
        return self


def exchange(port, attempt):
    """Sends `attempt` and then LAST on one connection to `port`, reads until the server closes
    it (at most 15 s), and returns the answers as (status, body) pairs and whether it closed."""
    received = b""
    closed = False
    with socket.create_connection(("127.0.0.1", port), timeout=15) as connection:
        connection.sendall(attempt.head + attempt.body + LAST)
        try:
            while chunk := connection.recv(65536):
                received += chunk
            closed = True
        except (socket.timeout, ConnectionResetError):
            closed = False
    stream = _Unclosable(received)
    answers = []
    while stream.tell() < len(received):
        answer = http.client.HTTPResponse(stream)
        answer.begin()
        answers.append(Answer(answer.status, answer.read()))
    return answers, closed


@dataclasses.dataclass
class Answer:
    status: int
    body: bytes
