"""Any OpenAI-compatible chat endpoint (a vLLM server, TGI, SGLang, a hosted API) over httpx.

Requests run in a thread pool of ``settings.max_concurrency``. Each request is retried on
faults that a retry can cure (connection refused or reset, timeout, HTTP 408/429/5xx, a body
that is not the expected JSON) with exponential backoff, ``settings.max_retries`` times; then
that conversation gets ``None`` and the parser falls back for it. A dying server costs time and
retries, never samples. Other HTTP errors (400, 401, 404) are not retried: the request itself is
wrong and would fail again.

``settings.timeout`` bounds a request as a whole (connect, send, wait, read): every socket
operation waits at most what is left of it, so a server that trickles a byte a second cannot hold
a request longer. An answer's body is read up to ``settings.max_response_bytes``, counted both as
sent and inflated (gzip, deflate; a compression bomb stops at the cap): a body over the cap is a
``too_large`` fault, not retried (the parser then treats it as an invalid answer).

A dead endpoint must not turn into a slow rule parse: a circuit breaker counts consecutive
failures (connections refused, unreachable or reset, timeouts, HTTP 429 and 5xx) over all
requests; a server that accepts connections and never answers, or answers 429 forever, is as
dead as one that refuses them. A ``Retry-After`` above ``max_backoff`` is capped. At
``settings.breaker_failures`` it opens, a warning names the endpoint and the error, and for
``settings.breaker_cooldown`` seconds no request is sent: conversations get ``None`` at once
(counted as ``skipped_breaker_open``) and retries waiting in back-off give up. After the
cooldown one request probes the endpoint; an answer closes the breaker, a failure opens it for
another cooldown. :meth:`OpenAIEngine.unreachable` tells the parser while it is open.
"""

from __future__ import annotations

import json
import logging
import os
import random
import threading
import time
import zlib
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import httpcore
import httpx

from sgprep.parse.base import ParserSettings
from sgprep.parse.engines import Conversation, Engine, model_name

log = logging.getLogger(__name__)

_RETRY_STATUS = {408, 409, 425, 429}
#: Faults that count toward the circuit breaker: the endpoint cannot serve, whoever is at fault.
_BREAKER_FAULTS = {"connection", "timeout", "http_retryable"}
#: Body encodings read here, each inflated under the size cap.
_ACCEPT_ENCODING = "gzip, deflate"


class OpenAIEngine(Engine):
    """``POST {endpoint}/chat/completions`` with a JSON-Schema ``response_format``.

    Options: ``backoff`` (first retry delay, s; doubles each retry), ``max_backoff`` (cap, s),
    ``check_model`` (ask ``GET /models`` at start that the model is served).
    """

    def __init__(
        self,
        settings: ParserSettings,
        *,
        backoff: float = 1.0,
        max_backoff: float = 30.0,
        check_model: bool = True,
    ):
        super().__init__(settings, backoff=backoff, max_backoff=max_backoff)
        if not settings.endpoint:
            raise ValueError(
                "the openai engine needs an endpoint: --endpoint http://HOST:PORT/v1 "
                "(any OpenAI-compatible server, e.g. "
                "`python -m vllm.entrypoints.openai.api_server`)"
            )
        self.model = model_name(settings)
        self.backoff = backoff
        self.max_backoff = max_backoff
        self.counters: Counter[str] = Counter()
        self._lock = threading.Lock()
        key = os.environ.get("SGPREP_API_KEY") or os.environ.get("OPENAI_API_KEY")
        concurrency = max(1, settings.max_concurrency)
        self.client = httpx.Client(
            base_url=settings.endpoint.rstrip("/") + "/",
            headers={
                "Accept-Encoding": _ACCEPT_ENCODING,
                **({"Authorization": f"Bearer {key}"} if key else {}),
            },
            timeout=httpx.Timeout(settings.timeout, connect=min(settings.timeout, 10.0)),
            transport=_deadline_transport(
                httpx.Limits(max_connections=concurrency, max_keepalive_connections=concurrency)
            ),
        )
        self.pool = ThreadPoolExecutor(max_workers=concurrency, thread_name_prefix="sgprep-openai")
        self.breaker = CircuitBreaker(settings.breaker_failures, settings.breaker_cooldown)
        #: Why each conversation of the last ``generate`` got no answer: (fault, detail) or None.
        self.last_faults: list[tuple[str, str] | None] = []
        #: The endpoint answered at least once in this run (so an outage is worth waiting out).
        self.answered_once = False
        if check_model:
            self._check_model()

    def generate(
        self,
        conversations: list[Conversation],
        json_schema: dict[str, Any],
        *,
        max_tokens: int,
        temperature: float = 0.0,
        seed: int | None = None,
    ) -> list[str | None]:
        body: dict[str, Any] = {
            "model": self.model,
            "temperature": temperature,
            "max_tokens": max_tokens,
            "response_format": {
                "type": "json_schema",
                "json_schema": {"name": "scene_graph", "schema": json_schema, "strict": True},
            },
        }
        if seed is not None:
            body["seed"] = seed
        results = list(
            self.pool.map(
                lambda messages: self._complete({**body, "messages": messages}), conversations
            )
        )
        self.last_faults = [fault for _, fault in results]
        return [text for text, _ in results]

    def unreachable(self) -> str | None:
        """While the breaker is open: why the endpoint is not called (for messages)."""
        if not self.breaker.is_open:
            return None
        return (
            f"{self.settings.endpoint} is unreachable ({self.breaker.last_error}); circuit "
            f"breaker open after {self.settings.breaker_failures} consecutive failures"
        )

    def probe(self) -> str | None:
        """One ``GET models``, bounded like a request: None when the endpoint answers (any
        HTTP status), else what went wrong."""
        try:
            self._fetch("GET", "models", min(self.settings.timeout, 10.0))
        except httpx.TransportError as exc:
            return f"{type(exc).__name__}: {exc}"
        except _BodyRefused:
            pass  # it answered
        return None

    def wait_until_reachable(self, seconds: float) -> bool:
        """While the breaker is open: probe the endpoint (``GET models``) each time its cooldown
        ends, until it answers (True: the breaker is closed) or ``seconds`` pass (False). An
        endpoint that never answered in this run is not waited for."""
        if not self.breaker.is_open:
            return True
        if not self.answered_once or seconds <= 0:
            return False
        deadline = time.monotonic() + seconds
        log.warning(
            "LLM endpoint %s is down; waiting up to %.0f s for it to come back "
            "(--endpoint-wait), probing every %.0f s",
            self.settings.endpoint,
            seconds,
            self.settings.breaker_cooldown,
        )
        self._count("endpoint_waits")
        while time.monotonic() < deadline:
            if self.breaker.allow() == "probe":
                self._count("breaker_probe")
                error = self.probe()
                if error is not None:
                    self.breaker.failed(error, probe=True)
                else:  # any HTTP answer: it is back
                    self.breaker.answered(probe=True)
                    log.warning(
                        "LLM endpoint %s answers again: circuit breaker closed",
                        self.settings.endpoint,
                    )
                    return True
            time.sleep(max(0.05, min(self.breaker.until_probe(), deadline - time.monotonic())))
        return False

    def stats(self) -> dict[str, int]:
        """Request counters: requests, retries, failed (conversations given up), by fault."""
        with self._lock:
            return dict(self.counters)

    def close(self) -> None:
        self.pool.shutdown(wait=True, cancel_futures=True)
        self.client.close()

    def _count(self, key: str) -> None:
        with self._lock:
            self.counters[key] += 1

    def _complete(self, body: dict[str, Any]) -> tuple[str | None, tuple[str, str] | None]:
        """One conversation: (answer, None), or (None, (fault, detail)) once given up."""
        attempts = 1 + max(0, self.settings.max_retries)
        fault, detail = "breaker_open", ""
        for attempt in range(attempts):
            mode = self.breaker.allow()
            if mode == "skip":
                if attempt == 0:  # never sent: the endpoint is known to be down
                    self._count("skipped_breaker_open")
                    return None, ("breaker_open", self.unreachable() or "breaker open")
                break  # the breaker opened while this conversation waited to retry
            probe = mode == "probe"
            if probe:
                self._count("breaker_probe")
            if attempt:
                self._count("retries")
            self._count("requests")
            answer, retry_after, detail = self._post(body)
            self._tell_breaker(answer, detail, probe)
            if isinstance(answer, _Answer):
                return answer.text, None
            fault = answer
            self._count(f"fault_{fault}")
            if fault in ("client_error", "too_large") or attempt + 1 == attempts:
                break
            # back off; a breaker opening meanwhile wakes this thread, which then gives up
            self.breaker.opened.wait(self._delay(attempt, retry_after))
        self._count("failed")
        if fault == "connection":
            detail = f"{self.settings.endpoint} unreachable ({detail})"
        return None, (fault, detail)

    def _tell_breaker(self, answer: _Answer | str, detail: str, probe: bool) -> None:
        if answer in _BREAKER_FAULTS:
            if self.breaker.failed(detail, probe):
                self._count("breaker_open")
                then = (
                    f"captions go straight to the fallback parser "
                    f"{self.settings.fallback!r} for {self.settings.breaker_cooldown:.0f} s, "
                    f"then one request probes the endpoint again"
                    if self.settings.fallback
                    else "there is no fallback parser: the run stops"
                )
                log.warning(
                    "LLM endpoint %s fails (%s): %d consecutive failures (refused or "
                    "dropped connections, timeouts, HTTP 429/5xx); %s",
                    self.settings.endpoint,
                    detail,
                    self.settings.breaker_failures,
                    then,
                )
            elif probe:
                log.warning(
                    "LLM endpoint %s still fails (%s); next probe in %.0f s",
                    self.settings.endpoint,
                    detail,
                    self.settings.breaker_cooldown,
                )
        elif self._answered(probe):  # it answers: an answer, or a request it refused
            log.warning(
                "LLM endpoint %s answers again: circuit breaker closed", self.settings.endpoint
            )

    def _answered(self, probe: bool) -> bool:
        self.answered_once = True
        return self.breaker.answered(probe)

    def _post(self, body: dict[str, Any]) -> tuple[_Answer | str, float | None, str]:
        """One request: the answer, or the name of the fault, a Retry-After hint and what
        went wrong."""
        try:
            response, payload = self._fetch(
                "POST", "chat/completions", self.settings.timeout, json=body
            )
        except httpx.ConnectTimeout as exc:  # nothing answers at that address
            log.debug("endpoint connect timeout: %s", exc)
            return "connection", None, f"connect timeout: {exc}"
        except httpx.TimeoutException as exc:
            log.debug("endpoint timeout: %s", exc)
            return (
                "timeout",
                None,
                f"no complete answer within --timeout {self.settings.timeout:g} s",
            )
        except httpx.TransportError as exc:  # refused, reset, closed mid-answer
            log.debug("endpoint connection error: %s", exc)
            return "connection", None, f"{type(exc).__name__}: {exc}"
        except _BodyRefused as exc:
            log.debug("endpoint body refused: %s", exc)
            return exc.fault, None, str(exc)
        status = response.status_code
        if status >= 500 or status in _RETRY_STATUS:
            return "http_retryable", self._retry_after(response), f"HTTP {status}"
        if status >= 400:
            log.warning("endpoint HTTP %d (not retried)", status)
            return "client_error", None, f"HTTP {status}"
        try:
            choice = json.loads(payload)["choices"][0]
            text = choice["message"]["content"]
        except (ValueError, KeyError, IndexError, TypeError):
            log.debug("endpoint answered a body that is not a chat completion: %.200r", payload)
            return "bad_body", None, "not a chat completion"
        if not isinstance(text, str):
            return "bad_body", None, "not a chat completion"
        return _Answer(text), None, ""

    def _fetch(
        self, method: str, path: str, timeout: float, **kwargs: Any
    ) -> tuple[httpx.Response, bytes]:
        """One request, bounded as a whole by ``timeout`` seconds; the body of a 2xx answer
        read under the size cap (others are not read). Raises httpx's errors (a passed
        deadline is a timeout) and :class:`_BodyRefused`."""
        _DEADLINE.at = time.monotonic() + timeout
        try:
            with self.client.stream(method, path, **kwargs) as response:
                if response.status_code >= 300:
                    return response, b""
                return response, _read_capped(response, self.settings.max_response_bytes)
        finally:
            _DEADLINE.at = None

    def _retry_after(self, response: httpx.Response) -> float | None:
        """The server's Retry-After in seconds, capped at ``max_backoff`` (a server asking
        for 999999 s must not park a request for days)."""
        try:
            seconds = float(response.headers["retry-after"])
        except (KeyError, ValueError):
            return None
        if seconds > self.max_backoff:
            self._count("retry_after_capped")
            seconds = self.max_backoff
        return max(0.0, seconds)

    def _delay(self, attempt: int, retry_after: float | None) -> float:
        delay = self.backoff * (2**attempt) * random.uniform(0.75, 1.25)  # jitter spreads clients
        if retry_after is not None:
            delay = max(delay, retry_after)
        return min(delay, self.max_backoff)

    def _check_model(self) -> None:
        """Fail early when the server answers and does not serve the model; warn when it is down."""
        try:
            response, payload = self._fetch("GET", "models", min(self.settings.timeout, 10.0))
            served = [m["id"] for m in json.loads(payload)["data"]]
        except Exception as exc:  # noqa: BLE001 - a down server must not stop the run
            log.warning(
                "could not list the models at %s (%s); going on", self.settings.endpoint, exc
            )
            return
        self.answered_once = True
        if served and self.model not in served:
            raise ValueError(
                f"the endpoint {self.settings.endpoint} does not serve model {self.model!r}; "
                f"it serves {served}. Pass one of them with --model."
            )


class CircuitBreaker:
    """Closed: requests go. Open (after ``failures`` consecutive connection failures): none go
    for ``cooldown`` seconds, then one probe. Thread-safe; ``opened`` is set while open."""

    def __init__(self, failures: int, cooldown: float):
        self.failures, self.cooldown = failures, cooldown
        self.opened = threading.Event()
        self.last_error = ""
        self._lock = threading.Lock()
        self._consecutive = 0
        self._opened_at: float | None = None
        self._probing = False

    @property
    def is_open(self) -> bool:
        return self._opened_at is not None

    def allow(self) -> str:
        """'send'; 'probe' (the one request after a cooldown); or 'skip'."""
        with self._lock:
            if self._opened_at is None:
                return "send"
            if self._probing or time.monotonic() - self._opened_at < self.cooldown:
                return "skip"
            self._probing = True
            return "probe"

    def until_probe(self) -> float:
        """Seconds until the next probe may go (0 when closed or due)."""
        with self._lock:
            if self._opened_at is None:
                return 0.0
            return max(0.0, self.cooldown - (time.monotonic() - self._opened_at))

    def failed(self, error: str, probe: bool) -> bool:
        """A connection failure; True when it opened the breaker."""
        with self._lock:
            self._consecutive += 1
            self.last_error = error
            if probe:  # still down: another cooldown
                self._probing = False
                self._opened_at = time.monotonic()
            elif self._opened_at is None and self._consecutive >= self.failures:
                self._opened_at = time.monotonic()
                self.opened.set()
                return True
            return False

    def answered(self, probe: bool) -> bool:
        """The endpoint answered (any HTTP status); True when that closed the breaker."""
        with self._lock:
            self._consecutive = 0
            if probe:
                self._probing = False
            if self._opened_at is None:
                return False
            self._opened_at, self._probing = None, False
            self.opened.clear()
            return True


class _Answer:
    __slots__ = ("text",)

    def __init__(self, text: str):
        self.text = text


class _BodyRefused(Exception):
    """A body that is not read to its end: over the size cap, or in an encoding not accepted."""

    def __init__(self, fault: str, message: str):
        super().__init__(message)
        self.fault = fault


def _read_capped(response: httpx.Response, cap: int) -> bytes:
    """The body, inflated, refused (:class:`_BodyRefused` ``too_large``) as soon as it passes
    ``cap`` bytes as sent or as inflated: memory stays under ``cap`` plus one chunk."""
    declared = response.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > cap:
        raise _BodyRefused(
            "too_large",
            f"a body of {int(declared):,} bytes, over the {cap:,}-byte cap (--max-response-bytes)",
        )
    encoding = response.headers.get("content-encoding", "identity").strip().lower()
    if encoding in ("gzip", "x-gzip"):
        inflate = zlib.decompressobj(16 + zlib.MAX_WBITS)
    elif encoding == "deflate":
        inflate = zlib.decompressobj()
    elif encoding in ("", "identity"):
        inflate = None
    else:
        raise _BodyRefused(
            "bad_body",
            f"a body in the encoding {encoding!r}, which was not asked for ({_ACCEPT_ENCODING})",
        )
    body, sent = bytearray(), 0
    try:
        for chunk in response.iter_raw(65536):
            _time_left(httpcore.ReadTimeout)  # a trickle that keeps every read alive
            sent += len(chunk)
            if sent > cap:
                raise _BodyRefused(
                    "too_large", f"a body over the {cap:,}-byte cap as sent (--max-response-bytes)"
                )
            if inflate is None:
                body += chunk
            else:
                body += inflate.decompress(chunk, cap + 1 - len(body))
                if inflate.unconsumed_tail:
                    body += b"-"  # more than the cap would come out
            if len(body) > cap:
                raise _BodyRefused(
                    "too_large",
                    f"a body over the {cap:,}-byte cap once "
                    f"inflated ({encoding}; --max-response-bytes)",
                )
        if inflate is not None:
            body += inflate.flush()
    except zlib.error as exc:
        raise _BodyRefused("bad_body", f"a {encoding} body that does not inflate: {exc}") from None
    except httpcore.TimeoutException as exc:
        raise httpx.ReadTimeout(str(exc)) from exc
    if len(body) > cap:
        raise _BodyRefused("too_large", f"a body over the {cap:,}-byte cap once inflated")
    return bytes(body)


# --- a deadline for the whole request ------------------------------------------------------
# httpx's timeouts bound each socket operation, so a server sending a byte a second keeps a
# request alive for ever. The request's thread sets a deadline; every connect, read and write
# on its connection then waits at most what is left of it (and fails once it has passed).

_DEADLINE = threading.local()


def _time_left(timeout_error: type[Exception]) -> float | None:
    at = getattr(_DEADLINE, "at", None)
    if at is None:
        return None
    left = at - time.monotonic()
    if left <= 0:
        raise timeout_error("no complete answer within the request's timeout")
    return left


def _bounded(timeout: float | None, timeout_error: type[Exception]) -> float | None:
    left = _time_left(timeout_error)
    if left is None:
        return timeout
    return left if timeout is None else min(timeout, left)


class _DeadlineStream(httpcore.NetworkStream):
    def __init__(self, stream: httpcore.NetworkStream):
        self._stream = stream

    def read(self, max_bytes: int, timeout: float | None = None) -> bytes:
        return self._stream.read(max_bytes, _bounded(timeout, httpcore.ReadTimeout))

    def write(self, buffer: bytes, timeout: float | None = None) -> None:
        self._stream.write(buffer, _bounded(timeout, httpcore.WriteTimeout))

    def close(self) -> None:
        self._stream.close()

    def start_tls(
        self, ssl_context: Any, server_hostname: str | None = None, timeout: float | None = None
    ) -> httpcore.NetworkStream:
        return _DeadlineStream(
            self._stream.start_tls(
                ssl_context, server_hostname, _bounded(timeout, httpcore.ConnectTimeout)
            )
        )

    def get_extra_info(self, info: str) -> Any:
        return self._stream.get_extra_info(info)


class _DeadlineBackend(httpcore.NetworkBackend):
    def __init__(self, backend: httpcore.NetworkBackend):
        self._backend = backend

    def connect_tcp(
        self,
        host: str,
        port: int,
        timeout: float | None = None,
        local_address: str | None = None,
        socket_options: Any = None,
    ) -> httpcore.NetworkStream:
        return _DeadlineStream(
            self._backend.connect_tcp(
                host,
                port,
                _bounded(timeout, httpcore.ConnectTimeout),
                local_address,
                socket_options,
            )
        )

    def connect_unix_socket(
        self, path: str, timeout: float | None = None, socket_options: Any = None
    ) -> httpcore.NetworkStream:
        return _DeadlineStream(
            self._backend.connect_unix_socket(
                path, _bounded(timeout, httpcore.ConnectTimeout), socket_options
            )
        )

    def sleep(self, seconds: float) -> None:
        self._backend.sleep(seconds)


def _deadline_transport(limits: httpx.Limits) -> httpx.HTTPTransport:
    """httpx's own transport, its connections made through :class:`_DeadlineBackend`.
    httpx takes no network backend, so it is set on the connection pool it builds (a test
    holds this to a trickling server)."""
    transport = httpx.HTTPTransport(limits=limits)
    pool = transport._pool  # noqa: SLF001 - see the docstring
    if not isinstance(pool, httpcore.ConnectionPool) or not hasattr(pool, "_network_backend"):
        raise RuntimeError(
            "this httpx/httpcore version builds its pool otherwise; the request "
            "deadline cannot be installed"
        )
    pool._network_backend = _DeadlineBackend(pool._network_backend)  # noqa: SLF001
    return transport
