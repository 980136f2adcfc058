"""Schemathesis hooks for ./scripts/test: how to put an NDJSON body on the wire.

Schemathesis has no serializer for application/x-ndjson, so without this it reports the ingest
route's NDJSON body as an error instead of testing it. openapi.yaml describes the body either as
an array whose items are the lines, or as one string holding them; both are handled.
"""

import json

import schemathesis


@schemathesis.serializer("application/x-ndjson", "application/jsonl", "application/jsonlines")
def ndjson(ctx, value):
    if isinstance(value, bytes):
        return {"data": value}
    if isinstance(value, str):
        return {"data": value.encode("utf-8")}
    lines = value if isinstance(value, list) else [value]
    text = "".join(json.dumps(line, allow_nan=False) + "\n" for line in lines)
    return {"data": text.encode("utf-8")}
