"""A static file server on loopback for the benchmark: the built site, plus the naive page."""

from __future__ import annotations

import functools
import http.server
import socket
import threading
from pathlib import Path


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class _Handler(http.server.SimpleHTTPRequestHandler):
    extra: dict[str, bytes] = {}

    def do_GET(self) -> None:  # noqa: N802 (http.server's naming)
        body = self.extra.get(self.path.split("?")[0])
        if body is None:
            return super().do_GET()
        self.send_response(200)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args: object) -> None:
        pass


class _Server(http.server.ThreadingHTTPServer):
    def handle_error(self, request: object, client_address: object) -> None:
        """A browser context closed mid-download (the benchmark does that on purpose): not news."""


def serve(root: Path, port: int, extra: dict[str, bytes]) -> http.server.ThreadingHTTPServer:
    """Serve `root` on 127.0.0.1:`port` in a daemon thread; `extra` maps paths to HTML bodies."""
    handler = type("Handler", (_Handler,), {"extra": extra})
    server = _Server(("127.0.0.1", port), functools.partial(handler, directory=str(root)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server
