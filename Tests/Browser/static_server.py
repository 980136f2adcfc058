"""Test pages on another origin than the service, for the browser tests (see support.py)."""

import http.server
import threading
import urllib.parse


class StaticServer:
    """Test pages on another origin than the service (another port of 127.0.0.1, or `localhost`
    for another site): `pages` maps a path to `(content type, text or bytes)`; every request is
    recorded in `requests` as `(method, path, headers)`."""

    def __init__(self, pages=None, hostname="127.0.0.1"):
        self.pages = dict(pages or {})
        self.requests = []
        owner = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self):
                owner.requests.append(("GET", self.path, dict(self.headers)))
                page = owner.pages.get(urllib.parse.urlsplit(self.path).path)
                if page is None:
                    self.send_error(404)
                    return
                content_type, body = page
                body = body.encode("utf-8") if isinstance(body, str) else body
                self.send_response(200)
                self.send_header("Content-Type", content_type)
                self.send_header("Content-Length", str(len(body)))
                self.send_header("Cache-Control", "no-store")
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *arguments):
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.port = self.server.server_address[1]
        self.origin = f"http://{hostname}:{self.port}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def url(self, path="/"):
        return self.origin + path

    def stop(self):
        self.server.shutdown()
        self.server.server_close()
        self.thread.join()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.stop()
