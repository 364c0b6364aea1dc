"""Any OpenAI-compatible chat endpoint (a vLLM server, TGI, SGLang, a hosted API) over httpx.

Requests run in a thread pool of ``settings.max_concurrency``. Each request is retried on
faults that a retry can cure (connection refused or reset, timeout, HTTP 408/429/5xx, a body
that is not the expected JSON) with exponential backoff, ``settings.max_retries`` times; then
that conversation gets ``None`` and the parser falls back for it. A dying server costs time and
retries, never samples. Other HTTP errors (400, 401, 404) are not retried: the request itself is
wrong and would fail again.

A dead endpoint must not turn into a slow rule parse: a circuit breaker counts consecutive
connection failures (refused, unreachable, reset) over all requests; at
``settings.breaker_failures`` it opens, a warning names the endpoint and the error, and for
``settings.breaker_cooldown`` seconds no request is sent: conversations get ``None`` at once
(counted as ``skipped_breaker_open``) and retries waiting in back-off give up. After the
cooldown one request probes the endpoint; any HTTP answer closes the breaker, a failure opens
it for another cooldown. :meth:`OpenAIEngine.unreachable` tells the parser while it is open.
"""

from __future__ import annotations

import logging
import os
import random
import threading
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import httpx

from sgprep.parse.base import ParserSettings
from sgprep.parse.engines import Conversation, Engine, model_name

log = logging.getLogger(__name__)

_RETRY_STATUS = {408, 409, 425, 429}


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
            headers={"Authorization": f"Bearer {key}"} if key else {},
            timeout=httpx.Timeout(settings.timeout, connect=min(settings.timeout, 10.0)),
            limits=httpx.Limits(max_connections=concurrency, max_keepalive_connections=concurrency),
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
        return (f"{self.settings.endpoint} is unreachable ({self.breaker.last_error}); circuit "
                f"breaker open after {self.settings.breaker_failures} consecutive connection "
                f"failures")

    def wait_until_reachable(self, seconds: float) -> bool:
        """While the breaker is open: probe the endpoint (``GET models``) each time its cooldown
        ends, until it answers (True: the breaker is closed) or ``seconds`` pass (False). An
        endpoint that never answered in this run is not waited for."""
        if not self.breaker.is_open:
            return True
        if not self.answered_once or seconds <= 0:
            return False
        deadline = time.monotonic() + seconds
        log.warning("LLM endpoint %s is down; waiting up to %.0f s for it to come back "
                    "(--endpoint-wait), probing every %.0f s", self.settings.endpoint, seconds,
                    self.settings.breaker_cooldown)
        self._count("endpoint_waits")
        while time.monotonic() < deadline:
            if self.breaker.allow() == "probe":
                self._count("breaker_probe")
                try:
                    self.client.get("models", timeout=min(self.settings.timeout, 10.0))
                except httpx.TransportError as exc:
                    self.breaker.failed(f"{type(exc).__name__}: {exc}", probe=True)
                else:  # any HTTP answer: it is back
                    self.breaker.answered(probe=True)
                    log.warning("LLM endpoint %s answers again: circuit breaker closed",
                                self.settings.endpoint)
                    return True
            time.sleep(max(0.05, min(self.breaker.until_probe(),
                                     deadline - time.monotonic())))
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
            if fault == "client_error" or attempt + 1 == attempts:
                break
            # back off; a breaker opening meanwhile wakes this thread, which then gives up
            self.breaker.opened.wait(self._delay(attempt, retry_after))
        self._count("failed")
        if fault == "connection":
            detail = f"{self.settings.endpoint} unreachable ({detail})"
        return None, (fault, detail)

    def _tell_breaker(self, answer: _Answer | str, detail: str, probe: bool) -> None:
        if answer == "connection" or (probe and answer == "timeout"):
            if self.breaker.failed(detail, probe):
                self._count("breaker_open")
                then = (f"captions go straight to the fallback parser "
                        f"{self.settings.fallback!r} for {self.settings.breaker_cooldown:.0f} s, "
                        f"then one request probes the endpoint again" if self.settings.fallback
                        else "there is no fallback parser: the run stops")
                log.warning("LLM endpoint %s unreachable (%s): %d consecutive connection "
                            "failures; %s", self.settings.endpoint, detail,
                            self.settings.breaker_failures, then)
            elif probe:
                log.warning("LLM endpoint %s still unreachable (%s); next probe in %.0f s",
                            self.settings.endpoint, detail, self.settings.breaker_cooldown)
        elif answer != "timeout" and self._answered(probe):  # any HTTP answer
            log.warning("LLM endpoint %s answers again: circuit breaker closed",
                        self.settings.endpoint)

    def _answered(self, probe: bool) -> bool:
        self.answered_once = True
        return self.breaker.answered(probe)

    def _post(self, body: dict[str, Any]) -> tuple[_Answer | str, float | None, str]:
        """One request: the answer, or the name of the fault, a Retry-After hint and what
        went wrong."""
        try:
            response = self.client.post("chat/completions", json=body)
        except httpx.ConnectTimeout as exc:  # nothing answers at that address
            log.debug("endpoint connect timeout: %s", exc)
            return "connection", None, f"connect timeout: {exc}"
        except httpx.TimeoutException as exc:
            log.debug("endpoint timeout: %s", exc)
            return "timeout", None, f"timeout: {exc}"
        except httpx.TransportError as exc:  # refused, reset, closed mid-answer
            log.debug("endpoint connection error: %s", exc)
            return "connection", None, f"{type(exc).__name__}: {exc}"
        status = response.status_code
        if status >= 500 or status in _RETRY_STATUS:
            log.debug("endpoint HTTP %d: %.200s", status, response.text)
            return "http_retryable", _retry_after(response), f"HTTP {status}"
        if status >= 400:
            log.warning("endpoint HTTP %d (not retried): %.300s", status, response.text)
            return "client_error", None, f"HTTP {status}"
        try:
            choice = response.json()["choices"][0]
            text = choice["message"]["content"]
        except (ValueError, KeyError, IndexError, TypeError):
            log.debug(
                "endpoint answered a body that is not a chat completion: %.200s", response.text
            )
            return "bad_body", None, "not a chat completion"
        if not isinstance(text, str):
            return "bad_body", None, "not a chat completion"
        return _Answer(text), None, ""

    def _delay(self, attempt: int, retry_after: float | None) -> float:
        delay = self.backoff * (2**attempt) * random.uniform(0.75, 1.25)  # jitter spreads clients
        if retry_after is not None:
            delay = max(delay, retry_after)
        return min(delay, self.max_backoff)

    def _check_model(self) -> None:
        """Fail early when the server answers and does not serve the model; warn when it is down."""
        try:
            response = self.client.get("models", timeout=min(self.settings.timeout, 10.0))
            served = [m["id"] for m in response.json()["data"]]
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


def _retry_after(response: httpx.Response) -> float | None:
    try:
        return float(response.headers["retry-after"])
    except (KeyError, ValueError):
        return None
