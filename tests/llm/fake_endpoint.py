"""A FAKE OpenAI-compatible endpoint on loopback, for fault tests of the openai engine.

It stands in for a model server only to produce the faults a real one shows (HTTP 500, hangs,
garbage bodies, refusals); the vLLM tests use a real server. It counts the requests it saw.
"""

from __future__ import annotations

import json
import socket
import threading
import time
from collections import Counter
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

#: A valid answer for any caption: one entity, no relation.
GOOD_ANSWER = '{"entities":[{"text":"dog","attributes":["brown"]}],"relations":[]}'
#: Well-formed JSON that breaks the graph rules: a self-loop and an index out of range.
BAD_GRAPH_ANSWER = (
    '{"entities":[{"text":"dog","attributes":[]}],"relations":[[0,"on",0],[0,"near",3]]}'
)

MODES = ("ok", "http500", "hang", "garbage", "http400", "bad_graph", "flaky")


def completion(content: str) -> bytes:
    return json.dumps(
        {
            "id": "fake",
            "object": "chat.completion",
            "choices": [
                {
                    "index": 0,
                    "finish_reason": "stop",
                    "message": {"role": "assistant", "content": content},
                }
            ],
        }
    ).encode()


class FakeEndpoint:
    """``with FakeEndpoint("http500") as ep: ep.url, ep.posts``; modes in :data:`MODES`.

    ``flaky`` fails every conversation's first request with HTTP 500, then answers well.
    ``hang`` sleeps ``hang_seconds`` before answering (well past a client's timeout).
    """

    def __init__(self, mode: str, hang_seconds: float = 1.5, model: str = "fake-model"):
        assert mode in MODES, mode
        self.mode, self.hang_seconds, self.model = mode, hang_seconds, model
        self.posts = 0
        self.seen: Counter[str] = Counter()  # request body (messages) -> times seen
        self.bodies: list[dict] = []  # every POSTed request body, in arrival order
        self.auth: set[str | None] = set()  # Authorization headers seen
        self.lock = threading.Lock()
        endpoint = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):  # keep pytest output clean
                pass

            def do_GET(self):
                if self.path.rstrip("/").endswith("/models"):
                    self._send(200, json.dumps({"data": [{"id": endpoint.model}]}).encode())
                else:
                    self._send(200, b'{"status":"ok"}')

            def do_POST(self):
                body = self.rfile.read(int(self.headers.get("content-length", 0)))
                self.body = json.loads(body)  # for an ``answer`` that depends on the request
                with endpoint.lock:
                    endpoint.posts += 1
                    endpoint.bodies.append(json.loads(body))
                    endpoint.auth.add(self.headers.get("authorization"))
                    key = json.dumps(json.loads(body)["messages"])
                    endpoint.seen[key] += 1
                    first = endpoint.seen[key] == 1
                try:
                    endpoint.answer(self, first)
                except (BrokenPipeError, ConnectionResetError):
                    pass  # the client gave up (timeout): expected in "hang"

            def _send(self, status: int, payload: bytes, ctype: str = "application/json"):
                self.send_response(status)
                self.send_header("content-type", ctype)
                self.send_header("content-length", str(len(payload)))
                self.end_headers()
                self.wfile.write(payload)

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/v1"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def answer(self, handler, first: bool) -> None:
        mode = self.mode
        if mode == "http500" or (mode == "flaky" and first):
            handler._send(500, b'{"error":"internal"}')
        elif mode == "http400":
            handler._send(400, b'{"error":"bad request"}')
        elif mode == "hang":
            time.sleep(self.hang_seconds)
            handler._send(200, completion(GOOD_ANSWER))
        elif mode == "garbage":
            handler._send(200, b"<html>upstream proxy error</html>", "text/html")
        elif mode == "bad_graph":
            handler._send(200, completion(BAD_GRAPH_ANSWER))
        else:
            handler._send(200, completion(GOOD_ANSWER))

    def __enter__(self) -> FakeEndpoint:
        self.thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.server.shutdown()
        self.server.server_close()


def closed_port_url() -> str:
    """The URL of a loopback port nobody listens on (connection refused)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    return f"http://127.0.0.1:{port}/v1"


class HostileServer:
    """A FAKE endpoint on loopback that misbehaves below HTTP: ``respond(sock, request)`` gets
    the raw socket once the request is read, and may trickle, stall or flood. ``GET`` requests
    (the model list) get a normal answer. ``sent`` counts the bytes ``respond`` wrote through
    :meth:`send`; ``hung_up`` is set when the client closed the connection first."""

    def __init__(self, respond, model: str = "fake-model"):
        import socketserver

        self.respond, self.model = respond, model
        self.sent = 0
        self.hung_up = threading.Event()
        self.closing = threading.Event()
        server = self

        class Handler(socketserver.BaseRequestHandler):
            def handle(self):
                request = _read_request(self.request)
                if request is None:
                    return
                if request.startswith(b"GET"):
                    payload = json.dumps({"data": [{"id": server.model}]}).encode()
                    self.request.sendall(
                        b"HTTP/1.1 200 OK\r\ncontent-type: application/json\r\n"
                        b"content-length: %d\r\n\r\n%s" % (len(payload), payload)
                    )
                    return
                try:
                    server.respond(server, self.request, request)
                except (BrokenPipeError, ConnectionResetError):
                    server.hung_up.set()

        self.server = socketserver.ThreadingTCPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/v1"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def send(self, sock, data: bytes) -> None:
        sock.sendall(data)
        self.sent += len(data)

    def __enter__(self) -> HostileServer:
        self.thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.closing.set()
        self.server.shutdown()
        self.server.server_close()


def _read_request(sock) -> bytes | None:
    """One HTTP/1.1 request (headers and a content-length body), or None when closed."""
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = sock.recv(65536)
        if not chunk:
            return None
        data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    length = 0
    for line in head.split(b"\r\n")[1:]:
        name, _, value = line.partition(b":")
        if name.strip().lower() == b"content-length":
            length = int(value)
    while len(body) < length:
        chunk = sock.recv(65536)
        if not chunk:
            return None
        body += chunk
    return head + b"\r\n\r\n" + body
