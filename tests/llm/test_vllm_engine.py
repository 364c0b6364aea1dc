"""The vllm engine for real: an in-process vLLM in a Ray actor (CPU: num_cpus=1, num_gpus=0),
a tiny random Llama, schema-constrained decoding.

The random model's answers are nonsense, so no assertion here may depend on what it happens to
emit. The kind of answer is fixed instead: a decoding schema that only admits valid graphs, one
that only admits out-of-range indices, or a token budget too small for any complete answer.
Then the exact counts of the retry and fallback path are known in advance.

Skips unless vLLM imports (it runs in the venv made by setup_vllm_venv.sh)."""

from __future__ import annotations

import json

import pytest
from vllm_support import CAPTIONS, CUT_OFF_MAX_TOKENS, OUT_OF_RANGE_SCHEMA, VALID_SCHEMA, need_vllm

need_vllm()
ray = pytest.importorskip("ray")

from sgprep.parse.base import ParserSettings  # noqa: E402
from sgprep.parse.llm import LLMParser  # noqa: E402
from sgprep.schema import SceneGraph  # noqa: E402

pytestmark = [pytest.mark.vllm, pytest.mark.slow]
N = len(CAPTIONS)


@pytest.fixture(scope="module")
def parser(tiny_llama):
    ray.init(num_cpus=2, num_gpus=0, include_dashboard=False, log_to_driver=False)
    settings = ParserSettings(engine="vllm", model=str(tiny_llama), fallback="spacy", num_engines=1)
    parser = LLMParser(settings, engine_options={"max_model_len": 2048})
    parser.name = "llama3"
    parser.setup()
    yield parser
    parser.teardown()
    ray.shutdown()


def parse_with(parser: LLMParser, *, schema=None, max_tokens=512):
    """Parse CAPTIONS with this decoding schema and token budget; return graphs and the
    counters this call added."""
    before = parser.stats()
    parser.output_schema, parser.max_tokens = schema or VALID_SCHEMA, max_tokens
    graphs = parser.parse_batch(CAPTIONS)
    after = parser.stats()
    return graphs, {
        k: after[k] - before.get(k, 0)
        for k in after
        if not k.startswith("engine/") and after[k] != before.get(k, 0)
    }


def test_actor_holds_the_engine_on_cpu(parser):
    assert len(parser.engine.actors) == 1
    assert ray.cluster_resources().get("GPU", 0) == 0
    assert ray.available_resources().get("CPU", 0) == 1  # of 2: the actor holds one


def test_valid_answers_become_llm_graphs(parser):
    graphs, counted = parse_with(parser, schema=VALID_SCHEMA)
    assert counted == {"llm_ok": N}
    for graph in graphs:
        assert isinstance(graph, SceneGraph)
        assert (graph.parser, graph.retries, graph.fallback_from) == ("llama3", 0, None)
        assert len(graph.entities) == 2
        assert [(r.subject, r.object) for r in graph.relations] == [(0, 1)]
        assert graph.relations[0].predicate in {"on", "near", "behind", "holding"}


def test_out_of_range_indices_are_retried_then_fall_back(parser):
    graphs, counted = parse_with(parser, schema=OUT_OF_RANGE_SCHEMA)
    assert counted == {
        "llm_invalid": 2 * N,
        "llm_invalid/invalid_graph": 2 * N,
        "retries": N,
        "fallbacks": N,
        "fallbacks/invalid_graph": N,
    }
    for graph in graphs:
        assert (graph.parser, graph.retries, graph.fallback_from) == ("spacy", 1, "llama3")


def test_cut_off_answers_are_retried_then_fall_back(parser):
    graphs, counted = parse_with(parser, max_tokens=CUT_OFF_MAX_TOKENS, schema=VALID_SCHEMA)
    assert counted == {
        "llm_invalid": 2 * N,
        "llm_invalid/not_json": 2 * N,
        "retries": N,
        "fallbacks": N,
        "fallbacks/not_json": N,
    }
    assert all(g.fallback_from == "llama3" and g.parser == "spacy" for g in graphs)


def test_without_a_fallback_invalid_answers_are_failures(parser):
    parser.fallback, saved = None, parser.fallback
    try:
        results, counted = parse_with(parser, schema=OUT_OF_RANGE_SCHEMA)
    finally:
        parser.fallback = saved
    assert counted == {"llm_invalid": 2 * N, "llm_invalid/invalid_graph": 2 * N, "retries": N}
    assert all(not isinstance(r, SceneGraph) and r.reason == "llm_invalid" for r in results)


def test_structured_decoding_keeps_answers_inside_the_schema(parser):
    conversations = [parser.prompt.conversation(c) for c in CAPTIONS]
    answers = parser.engine.generate(conversations, VALID_SCHEMA, max_tokens=256)
    assert len(answers) == N
    for answer in answers:
        data = json.loads(answer)  # the narrow schema always finishes well inside 256 tokens
        assert [e["text"] in {"cat", "dog", "man", "table"} for e in data["entities"]] == [True] * 2
        assert [(s, o) for s, _, o in data["relations"]] == [(0, 1)]


def test_dead_actor_costs_answers_not_captions(parser):
    """Last in the module: it kills the engine."""
    ray.kill(parser.engine.actors[0])
    graphs, counted = parse_with(parser, schema=VALID_SCHEMA)
    assert len(graphs) == N
    assert all(isinstance(g, SceneGraph) and g.fallback_from == "llama3" for g in graphs)
    assert counted["fallbacks"] == N and counted["llm_invalid/no_answer"] == 2 * N
    assert parser.engine.actors == []  # dropped from the rotation
