"""Any OpenAI-compatible chat endpoint (a vLLM server, TGI, SGLang, a hosted API) over httpx.

Requests run in a thread pool of ``settings.max_concurrency``. Each request is retried on
faults that a retry can cure (connection refused or reset, timeout, HTTP 408/429/5xx, a body
that is not the expected JSON) with exponential backoff, ``settings.max_retries`` times; then
that conversation gets ``None`` and the parser falls back for it. A dying server costs time and
retries, never samples. Other HTTP errors (400, 401, 404) are not retried: the request itself is
wrong and would fail again.
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
        return list(
            self.pool.map(
                lambda messages: self._complete({**body, "messages": messages}), conversations
            )
        )

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

    def _complete(self, body: dict[str, Any]) -> str | None:
        attempts = 1 + max(0, self.settings.max_retries)
        for attempt in range(attempts):
            if attempt:
                self._count("retries")
            self._count("requests")
            fault, retry_after = self._post(body)
            if isinstance(fault, _Answer):
                return fault.text
            self._count(f"fault_{fault}")
            if fault == "client_error" or attempt + 1 == attempts:
                break
            time.sleep(self._delay(attempt, retry_after))
        self._count("failed")
        return None

    def _post(self, body: dict[str, Any]) -> tuple[_Answer | str, float | None]:
        """One request: the answer, or the name of the fault and a Retry-After hint."""
        try:
            response = self.client.post("chat/completions", json=body)
        except httpx.TimeoutException as exc:
            log.debug("endpoint timeout: %s", exc)
            return "timeout", None
        except httpx.TransportError as exc:  # refused, reset, closed mid-answer
            log.debug("endpoint connection error: %s", exc)
            return "connection", None
        status = response.status_code
        if status >= 500 or status in _RETRY_STATUS:
            log.debug("endpoint HTTP %d: %.200s", status, response.text)
            return "http_retryable", _retry_after(response)
        if status >= 400:
            log.warning("endpoint HTTP %d (not retried): %.300s", status, response.text)
            return "client_error", None
        try:
            choice = response.json()["choices"][0]
            text = choice["message"]["content"]
        except (ValueError, KeyError, IndexError, TypeError):
            log.debug(
                "endpoint answered a body that is not a chat completion: %.200s", response.text
            )
            return "bad_body", None
        if not isinstance(text, str):
            return "bad_body", None
        return _Answer(text), None

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
        if served and self.model not in served:
            raise ValueError(
                f"the endpoint {self.settings.endpoint} does not serve model {self.model!r}; "
                f"it serves {served}. Pass one of them with --model."
            )


class _Answer:
    __slots__ = ("text",)

    def __init__(self, text: str):
        self.text = text


def _retry_after(response: httpx.Response) -> float | None:
    try:
        return float(response.headers["retry-after"])
    except (KeyError, ValueError):
        return None
