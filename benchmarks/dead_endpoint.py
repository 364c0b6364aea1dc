"""A dead LLM endpoint must cost no more than the fallback itself: 1,000 captions through
``--parser llama3 --engine openai`` against a closed loopback port (connection refused), with
the default settings (32 requests in flight, 3 retries with back-off, breaker after 32
consecutive connection failures) and fallback ``spacy``, vs the ``spacy`` rule parser alone on
the same captions, in the same process. Goal: ratio (llm / spacy) <= 2.

    python benchmarks/dead_endpoint.py [--n 1000] [--repeats 3]
        [--mode refused|silent|busy|trickle] [--timeout S]

``--mode`` picks how the endpoint is dead: ``refused`` (a closed port), ``silent`` (it accepts
connections and never answers), ``busy`` (HTTP 429 with ``Retry-After: 999999`` to every
request), ``trickle`` (a good answer, one byte a second). All but ``refused`` answer the model
list, as a live but broken server does.

Each parser is set up first (model load and the engine's start-up check not timed), then both
are timed ``--repeats`` times, alternating; the best run counts. Every LLM run uses a fresh
parser, so each one pays for opening the breaker. Captions: the FACTUAL test set.
"""

from __future__ import annotations

import argparse
import json
import logging
import socket
import sys
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from a checkout
from benchmarks.parser_throughput import FACTUAL_CSV, load_captions  # noqa: E402

BATCH = 256  # what the parse stage hands a parser at a time


def closed_port_url() -> str:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    return f"http://127.0.0.1:{port}/v1"


_ANSWER = (
    b'{"choices":[{"message":{"content":"{\\"entities\\":[{\\"text\\":\\"dog\\",'
    b'\\"attributes\\":[]}],\\"relations\\":[]}"}}]}'
)


def broken_server(mode: str) -> tuple[str, threading.Event]:
    """A loopback endpoint that misbehaves as ``mode`` says; set the event to stop it."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(256)
    stop = threading.Event()

    def serve(conn: socket.socket) -> None:
        with conn:
            data = b""
            while b"\r\n\r\n" not in data:
                chunk = conn.recv(65536)
                if not chunk:
                    return
                data += chunk
            try:
                if data.startswith(b"GET"):
                    body = b'{"data":[{"id":"any"}]}'
                    conn.sendall(
                        b"HTTP/1.1 200 OK\r\ncontent-length: %d\r\n"
                        b"connection: close\r\n\r\n%s" % (len(body), body)
                    )
                elif mode == "busy":
                    conn.sendall(
                        b"HTTP/1.1 429 Too Many Requests\r\nretry-after: 999999\r\n"
                        b"content-length: 0\r\nconnection: close\r\n\r\n"
                    )
                elif mode == "trickle":
                    conn.sendall(b"HTTP/1.1 200 OK\r\ncontent-length: %d\r\n\r\n" % len(_ANSWER))
                    for byte in _ANSWER:
                        if stop.wait(1.0):
                            return
                        conn.sendall(bytes([byte]))
                else:  # silent
                    stop.wait()
            except OSError:
                pass

    def accept() -> None:
        listener.settimeout(0.2)
        while not stop.is_set():
            try:
                conn, _ = listener.accept()
            except OSError:
                continue
            threading.Thread(target=serve, args=(conn,), daemon=True).start()
        listener.close()

    threading.Thread(target=accept, daemon=True).start()
    return f"http://127.0.0.1:{listener.getsockname()[1]}/v1", stop


def timed(parser, captions: list[str]) -> float:
    start = time.perf_counter()
    for i in range(0, len(captions), BATCH):
        parser.parse_batch(captions[i : i + BATCH])
    return time.perf_counter() - start


def main() -> None:
    from sgprep.parse.base import ParserSettings, make_parser

    args = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    args.add_argument("--csv", default=str(FACTUAL_CSV))
    args.add_argument("--n", type=int, default=1000)
    args.add_argument("--repeats", type=int, default=3)
    args.add_argument("--mode", choices=["refused", "silent", "busy", "trickle"], default="refused")
    args.add_argument("--timeout", type=float, default=60.0, help="--timeout of the parser")
    opts = args.parse_args()
    logging.basicConfig(level=logging.ERROR)  # the breaker's warning once per run is expected
    captions = load_captions(opts.csv, opts.n)
    rules = make_parser("spacy", ParserSettings())
    rules.setup()
    rules.parse_batch(captions[:64])  # warm-up
    spacy_s, llm_s, counters = [], [], {}
    for _ in range(opts.repeats):
        spacy_s.append(timed(rules, captions))
        url, stop = (
            (closed_port_url(), threading.Event())
            if opts.mode == "refused"
            else broken_server(opts.mode)
        )
        llm = make_parser(
            "llama3",
            ParserSettings(
                engine="openai", endpoint=url, model="any", fallback="spacy", timeout=opts.timeout
            ),
        )
        llm.setup()
        llm_s.append(timed(llm, captions))
        counters = llm.stats()
        stop.set()
        llm.teardown()
    result = {
        "mode": opts.mode,
        "timeout": opts.timeout,
        "captions": opts.n,
        "spacy_s": round(min(spacy_s), 3),
        "llm_dead_endpoint_s": round(min(llm_s), 3),
        "ratio": round(min(llm_s) / min(spacy_s), 2),
        "goal": "<= 2",
        "llm_counters": {k: v for k, v in counters.items() if v},
    }
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
