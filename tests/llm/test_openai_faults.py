"""The openai engine against a faulty endpoint: every fault is retried, then falls back; no
caption is lost. Runs anywhere (no vLLM): the endpoint is a fake on loopback (fake_endpoint.py)."""

from __future__ import annotations

import pytest

pytest.importorskip("httpx")

from fake_endpoint import FakeEndpoint, closed_port_url  # noqa: E402

from sgprep.parse.base import ParseError, ParserSettings  # noqa: E402
from sgprep.parse.llm import OUTPUT_SCHEMA, LLMParser  # noqa: E402
from sgprep.schema import SceneGraph  # noqa: E402

CAPTIONS = [
    "a brown dog lying on a red sofa",
    "a woman in blue and a woman in red",
    "a cup on the table next to a laptop",
]
N = len(CAPTIONS)
MAX_RETRIES = 2  # requests per conversation and attempt: 1 + MAX_RETRIES
ATTEMPTS = 2  # the parser asks each caption again once when the answer is invalid


def make(url: str, fallback: str | None = "spacy", timeout: float = 2.0) -> LLMParser:
    settings = ParserSettings(
        engine="openai",
        endpoint=url,
        model="fake-model",
        fallback=fallback,
        timeout=timeout,
        max_retries=MAX_RETRIES,
        max_concurrency=8,
    )
    parser = LLMParser(settings, engine_options={"backoff": 0.01, "max_backoff": 0.05})
    parser.name = "llama3"
    parser.setup()
    return parser


def run(parser: LLMParser) -> list[SceneGraph | ParseError]:
    try:
        results = parser.parse_batch(CAPTIONS)
    finally:
        parser.teardown()
    assert len(results) == N, "one result per caption"
    return results


def assert_all_fell_back(results, stats):
    for graph in results:
        assert isinstance(graph, SceneGraph)
        SceneGraph.model_validate(graph.model_dump())  # still a valid graph
        assert graph.fallback_from == "llama3"
        assert graph.parser == "spacy"
        assert graph.retries == 1
    assert main_counters(stats) == {
        "llm_ok": 0,
        "llm_invalid": ATTEMPTS * N,
        "retries": N,
        "fallbacks": N,
    }
    reasons = {k: v for k, v in stats.items() if k.startswith("llm_invalid/")}
    assert sum(reasons.values()) == ATTEMPTS * N  # each rejection counted under its reason


def main_counters(stats: dict[str, int]) -> dict[str, int]:
    return {k: v for k, v in stats.items() if "/" not in k}


def test_healthy_endpoint_gives_llm_graphs():
    with FakeEndpoint("ok") as endpoint:
        parser = make(endpoint.url)
        results = run(parser)
    assert endpoint.posts == N
    for graph in results:
        assert isinstance(graph, SceneGraph)
        assert (graph.parser, graph.retries, graph.fallback_from) == ("llama3", 0, None)
        assert graph.entities[0].head == "dog"
    assert results[0].entities[0].span == (8, 11)  # "dog" in "a brown dog ..."
    assert results[1].entities[0].span is None  # not in that caption
    assert parser.stats() == {"llm_ok": N, "llm_invalid": 0, "retries": 0, "fallbacks": 0}
    # no reason keys: nothing was rejected


def test_transient_500_is_cured_by_a_retry():
    with FakeEndpoint("flaky") as endpoint:
        parser = make(endpoint.url)
        engine = parser.engine
        results = run(parser)
    assert endpoint.posts == 2 * N
    assert all(isinstance(g, SceneGraph) and g.parser == "llama3" for g in results)
    assert engine.stats()["retries"] == N
    assert parser.stats()["fallbacks"] == 0


@pytest.mark.parametrize("mode", ["http500", "hang", "garbage"])
def test_server_fault_is_retried_then_falls_back(mode):
    with FakeEndpoint(mode, hang_seconds=1.0) as endpoint:
        parser = make(endpoint.url, timeout=0.3)
        engine = parser.engine
        results = run(parser)
    assert endpoint.posts == ATTEMPTS * (1 + MAX_RETRIES) * N
    assert engine.stats()["failed"] == ATTEMPTS * N
    assert_all_fell_back(results, parser.stats())


def test_server_down_is_retried_then_falls_back():
    parser = make(closed_port_url())
    engine = parser.engine
    results = run(parser)
    assert engine.stats()["fault_connection"] == ATTEMPTS * (1 + MAX_RETRIES) * N
    assert_all_fell_back(results, parser.stats())


def test_client_error_is_not_retried():
    with FakeEndpoint("http400") as endpoint:
        parser = make(endpoint.url)
        results = run(parser)
    assert endpoint.posts == ATTEMPTS * N  # no endpoint retries: a 400 would fail again
    assert_all_fell_back(results, parser.stats())


def test_invalid_graph_is_asked_again_then_falls_back():
    with FakeEndpoint("bad_graph") as endpoint:
        parser = make(endpoint.url)
        results = run(parser)
    assert endpoint.posts == ATTEMPTS * N
    assert_all_fell_back(results, parser.stats())


def test_without_fallback_a_failure_is_a_parse_error():
    with FakeEndpoint("bad_graph") as endpoint:
        parser = make(endpoint.url, fallback=None)
        results = run(parser)
    assert all(isinstance(r, ParseError) and r.reason == "llm_invalid" for r in results)
    assert "itself" in results[0].message
    assert parser.stats()["fallbacks"] == 0


def test_endpoint_serving_another_model_fails_at_start():
    with FakeEndpoint("ok", model="other-model") as endpoint:
        with pytest.raises(ValueError, match="other-model"):
            make(endpoint.url, fallback=None)


def test_openai_engine_needs_an_endpoint():
    with pytest.raises(ValueError, match="endpoint"):
        make("", fallback=None)


def test_requests_carry_schema_temperature_seed_and_key(monkeypatch):
    monkeypatch.setenv("SGPREP_API_KEY", "test-key")
    with FakeEndpoint("bad_graph") as endpoint:
        run(make(endpoint.url))
    first, retry = endpoint.bodies[0], endpoint.bodies[-1]
    assert first["model"] == "fake-model"
    assert first["response_format"]["type"] == "json_schema"
    assert first["response_format"]["json_schema"]["strict"] is True
    assert first["response_format"]["json_schema"]["schema"] == OUTPUT_SCHEMA
    assert (first["temperature"], first["seed"]) == (0.0, 0)
    assert retry["temperature"] > 0 and retry["seed"] == 1  # the retry samples differently
    assert first["messages"][0]["role"] == "system"
    assert endpoint.auth == {"Bearer test-key"}
