"""What the vLLM tests share: the captions they parse and the skip when vLLM is not importable."""

from __future__ import annotations

import pytest

#: Captions the vLLM tests parse: the hard cases of METHOD.md sec. 1 and a few plain ones.
CAPTIONS = [
    "A brown cat is lying on a computer",
    "A man is on the left of the dog.",
    "a woman in blue and a woman in red",
    "a cardboard box with a small toy in it",
    "two white plates stacked upon each other",
    "a red apple to the left of a blue car",
    "man in a red shirt holding an umbrella",
    "a cup on the table next to a laptop",
]


def need_vllm() -> None:
    """Skip (with the reason) unless vLLM imports: it lives in its own venv (setup_vllm_venv.sh)."""
    try:
        import vllm  # noqa: F401
    except Exception as exc:  # noqa: BLE001 - a broken install is a skip too, with its reason
        pytest.skip(
            f"vLLM not importable here ({type(exc).__name__}: {exc}); run tests/llm in the venv "
            "made by tests/llm/setup_vllm_venv.sh",
            allow_module_level=True,
        )


# Decoding schemas that fix what kind of answer comes back, whatever the random model's weights
# are. Each narrows sgprep.parse.llm.OUTPUT_SCHEMA (every answer it allows, OUTPUT_SCHEMA allows
# too), so the answers travel the production path and are judged by the production checks.
WORDS = {"type": "string", "enum": ["cat", "dog", "man", "table"]}
PREDICATES = {"type": "string", "enum": ["on", "near", "behind", "holding"]}


def _entities(n: int) -> dict:
    entity = {
        "type": "object",
        "properties": {"text": WORDS, "attributes": {"type": "array", "maxItems": 0}},
        "required": ["text", "attributes"],
        "additionalProperties": False,
    }
    return {"type": "array", "items": entity, "minItems": n, "maxItems": n}


def _one_relation(subject: int, obj: int) -> dict:
    triple = {
        "type": "array",
        "minItems": 3,
        "maxItems": 3,
        "items": False,
        "prefixItems": [
            {"type": "integer", "enum": [subject]},
            PREDICATES,
            {"type": "integer", "enum": [obj]},
        ],
    }
    return {"type": "array", "items": triple, "minItems": 1, "maxItems": 1}


def _graph(entities: dict, relations: dict) -> dict:
    return {
        "type": "object",
        "properties": {"entities": entities, "relations": relations},
        "required": ["entities", "relations"],
        "additionalProperties": False,
    }


#: Always a valid graph: two entities and one relation 0 -> 1.
VALID_SCHEMA = _graph(_entities(2), _one_relation(0, 1))
#: Always schema-valid and always wrong: one entity, a relation to entity 5.
OUT_OF_RANGE_SCHEMA = _graph(_entities(1), _one_relation(0, 5))
#: Too few tokens for any complete answer: the JSON is always cut off.
CUT_OFF_MAX_TOKENS = 4
