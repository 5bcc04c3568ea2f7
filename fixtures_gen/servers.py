"""A loopback HTTP server that serves fixed files slowly, so download progress meters get to redraw.

It binds 127.0.0.1 on a port the kernel picks, answers a bounded number of requests, and stops by
itself after ``lifetime`` seconds even if nobody calls :meth:`LoopbackServer.stop`.
"""

from __future__ import annotations

import posixpath
import threading
import time
from collections.abc import Mapping
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from types import TracebackType

MAX_REQUESTS = 50
LIFETIME = 180.0


class _Handler(BaseHTTPRequestHandler):
    server: _ThrottledServer

    def do_GET(self) -> None:  # noqa: N802 (the http.server API)
        if not self.server.take_request():
            self.send_error(503, "request budget spent")
            return
        # apt asks for "/./Packages.xz" in a flat repository: compare normalised paths.
        path = posixpath.normpath(self.path.split("?", 1)[0])
        body = self.server.files.get(path + "/" if self.path.endswith("/") and path != "/" else path)
        if body is None:
            self.send_error(404)
            return
        self.send_response(200)
        self.send_header("Content-Type", _content_type(self.path))
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self._send_throttled(body)

    def _send_throttled(self, body: bytes) -> None:
        chunk, delay = self.server.chunk_size, self.server.chunk_delay
        try:
            for start in range(0, len(body), chunk):
                self.wfile.write(body[start : start + chunk])
                self.wfile.flush()
                if delay and start + chunk < len(body):
                    time.sleep(delay)
        except (BrokenPipeError, ConnectionResetError):
            pass

    def log_message(self, format: str, *args: object) -> None:  # noqa: A002 (http.server API)
        pass


def _content_type(path: str) -> str:
    if path.endswith("/") or path.endswith(".html"):
        return "text/html"
    return "application/octet-stream"


class _ThrottledServer(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, files: Mapping[str, bytes], chunk_size: int, chunk_delay: float) -> None:
        super().__init__(("127.0.0.1", 0), _Handler)
        self.files = dict(files)
        self.chunk_size = chunk_size
        self.chunk_delay = chunk_delay
        self._budget = MAX_REQUESTS
        self._lock = threading.Lock()

    def take_request(self) -> bool:
        with self._lock:
            if self._budget <= 0:
                return False
            self._budget -= 1
            return True


class LoopbackServer:
    """Serves ``files`` (URL path -> bytes) on 127.0.0.1, ``chunk_size`` bytes every ``chunk_delay`` s.

    Use as a context manager; ``url`` is ``http://127.0.0.1:PORT``.
    """

    def __init__(
        self,
        files: Mapping[str, bytes],
        *,
        chunk_size: int = 16384,
        chunk_delay: float = 0.0,
        lifetime: float = LIFETIME,
    ) -> None:
        self._server = _ThrottledServer(files, chunk_size, chunk_delay)
        self._thread = threading.Thread(target=self._server.serve_forever, kwargs={"poll_interval": 0.1})
        self._thread.daemon = True
        self._watchdog = threading.Timer(lifetime, self.stop)
        self._watchdog.daemon = True
        self._stopped = False

    @property
    def url(self) -> str:
        host, port = self._server.server_address[:2]
        return f"http://{host}:{port}"

    def start(self) -> LoopbackServer:
        self._thread.start()
        self._watchdog.start()
        return self

    def stop(self) -> None:
        if self._stopped:
            return
        self._stopped = True
        self._watchdog.cancel()
        if self._thread.is_alive():  # shutdown() waits for serve_forever, which must be running
            self._server.shutdown()
        self._server.server_close()

    def __enter__(self) -> LoopbackServer:
        return self.start()

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.stop()
