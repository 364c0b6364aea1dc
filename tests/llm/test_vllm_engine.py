"""The vllm engine for real: an in-process vLLM in a Ray actor (CPU: num_cpus=1, num_gpus=0),
a tiny random Llama, schema-constrained decoding. The model's answers are nonsense, so many are
invalid graphs: those must be retried, then handed to the rule parser, and counted.

Skips unless vLLM imports (it runs in the venv made by setup_vllm_venv.sh)."""

from __future__ import annotations

import json

import pytest
from vllm_support import CAPTIONS, need_vllm

need_vllm()
ray = pytest.importorskip("ray")

from sgprep.parse.base import ParserSettings  # noqa: E402
from sgprep.parse.llm import OUTPUT_SCHEMA, LLMParser  # noqa: E402
from sgprep.schema import SceneGraph  # noqa: E402

pytestmark = [pytest.mark.vllm, pytest.mark.slow]


@pytest.fixture(scope="module")
def parser(tiny_llama):
    ray.init(num_cpus=2, num_gpus=0, include_dashboard=False, log_to_driver=False)
    settings = ParserSettings(
        engine="vllm", model=str(tiny_llama), fallback="spacy", num_engines=1, seed=0
    )
    parser = LLMParser(settings, engine_options={"max_model_len": 2048})
    parser.name = "llama3"
    parser.setup()
    yield parser
    parser.teardown()
    ray.shutdown()


@pytest.fixture(scope="module")
def results(parser):
    return parser.parse_batch(CAPTIONS), parser.stats()


def test_actor_holds_the_engine_on_cpu(parser):
    assert len(parser.engine.actors) == 1
    assert ray.cluster_resources().get("GPU", 0) == 0
    assert ray.available_resources().get("CPU", 0) == 1  # of 2: the actor holds one


def test_every_caption_gets_a_valid_graph(results):
    graphs, _ = results
    assert len(graphs) == len(CAPTIONS)
    for graph in graphs:
        assert isinstance(graph, SceneGraph), graph
        SceneGraph.model_validate_json(graph.model_dump_json())


def test_invalid_answers_fall_back_to_rules_and_are_counted(results):
    graphs, stats = results
    from_llm = [g for g in graphs if g.fallback_from is None]
    fell_back = [g for g in graphs if g.fallback_from == "llama3"]
    assert all(g.parser == "llama3" and g.retries in (0, 1) for g in from_llm)
    assert all(g.parser == "spacy" and g.retries == 1 for g in fell_back)
    assert stats["llm_ok"] == len(from_llm)
    assert stats["fallbacks"] == len(fell_back)
    assert stats["llm_ok"] + stats["fallbacks"] == len(CAPTIONS)  # nothing lost
    assert stats["retries"] == len(CAPTIONS) - sum(g.retries == 0 for g in from_llm)
    assert stats["llm_invalid"] == stats["retries"] + stats["fallbacks"]
    # The seeded random model answers out-of-range indices and self-loops for some captions.
    assert stats["fallbacks"] >= 1


def test_structured_decoding_keeps_answers_inside_the_schema(parser):
    conversations = [parser.prompt.conversation(c) for c in CAPTIONS]
    answers = parser.engine.generate(conversations, OUTPUT_SCHEMA, max_tokens=parser.max_tokens)
    assert len(answers) == len(CAPTIONS)
    complete = [a for a in answers if a is not None and a.endswith("}")]
    assert complete, "no answer finished within max_tokens"
    for answer in complete:
        data = json.loads(answer)
        assert set(data) == {"entities", "relations"}
        for rel in data["relations"]:
            assert len(rel) == 3 and isinstance(rel[0], int) and isinstance(rel[1], str)


def test_dead_actor_costs_answers_not_captions(parser):
    """Last in the module: it kills the engine."""
    before = dict(parser.stats())
    ray.kill(parser.engine.actors[0])
    graphs = parser.parse_batch(CAPTIONS)
    assert len(graphs) == len(CAPTIONS)
    assert all(isinstance(g, SceneGraph) and g.fallback_from == "llama3" for g in graphs)
    assert parser.stats()["fallbacks"] - before["fallbacks"] == len(CAPTIONS)
    assert parser.engine.actors == []  # dropped from the rotation
