"""A static file server on loopback for the benchmark: the built site, plus the naive page.

`server.gzip = True` makes it answer like GitHub Pages and most CDNs: a client that accepts gzip
gets the file gzip-compressed (`Content-Encoding: gzip`, compressed once per file and kept).
"""

from __future__ import annotations

import functools
import gzip
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
    state: dict[str, object] = {}  # {"gzip": bool, "cache": {path: bytes}}: shared by all threads

    def do_GET(self) -> None:  # noqa: N802 (http.server's naming)
        body = self.extra.get(self.path.split("?")[0])
        if body is not None:
            return self._send(body, "text/html; charset=utf-8")
        if self.state.get("gzip") and "gzip" in self.headers.get("Accept-Encoding", ""):
            path = Path(self.translate_path(self.path))
            if path.is_dir():
                path = path / "index.html"
            if path.is_file():
                return self._send(path.read_bytes(), self.guess_type(str(path)), key=str(path))
        return super().do_GET()

    def _send(self, body: bytes, content_type: str, key: str | None = None) -> None:
        encoding = None
        if key is not None:
            cache = self.state.setdefault("cache", {})
            if key not in cache:
                cache[key] = gzip.compress(body, compresslevel=6, mtime=0)
            body, encoding = cache[key], "gzip"
        self.send_response(200)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        if encoding:
            self.send_header("Content-Encoding", encoding)
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args: object) -> None:
        pass


class _Server(http.server.ThreadingHTTPServer):
    def handle_error(self, request: object, client_address: object) -> None:
        """A browser context closed mid-download (the benchmark does that on purpose): not news."""


def serve(root: Path, port: int, extra: dict[str, bytes]) -> http.server.ThreadingHTTPServer:
    """Serve `root` on 127.0.0.1:`port` in a daemon thread; `extra` maps paths to HTML bodies.
    The returned server's `.state["gzip"]` switches compression on and off."""
    state: dict[str, object] = {"gzip": False}
    handler = type("Handler", (_Handler,), {"extra": extra, "state": state})
    server = _Server(("127.0.0.1", port), functools.partial(handler, directory=str(root)))
    server.state = state  # type: ignore[attr-defined]
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server
