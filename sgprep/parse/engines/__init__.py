"""LLM engines: what turns chat conversations into (schema-constrained) JSON text.

One module per engine and one line in :data:`ENGINES`. An engine knows nothing about scene
graphs: it takes conversations and a JSON Schema and gives back one text per conversation,
or ``None`` for a conversation it could not get an answer for (a dead server after all its
retries, a crashed worker). The parser decides what to do with ``None`` (retry, fall back).
"""

from __future__ import annotations

import os
from abc import ABC, abstractmethod
from typing import TYPE_CHECKING, Any

from sgprep.errors import ModelUnavailable
from sgprep.registry import load_entry

if TYPE_CHECKING:
    from sgprep.parse.base import ParserSettings

#: A chat conversation: [{"role": "system"|"user"|"assistant", "content": str}, ...]
Conversation = list[dict[str, str]]

#: The model the LLM parser uses when ``settings.model`` is not given.
DEFAULT_MODEL = "meta-llama/Meta-Llama-3-8B-Instruct"


class ModelNotAvailableError(ModelUnavailable):
    """The model's weights are not on this machine and cannot be fetched."""


class Engine(ABC):
    """Conversations in, one answer text (or ``None``) per conversation out, in order."""

    name: str = "base"

    def __init__(self, settings: ParserSettings, **options: Any):
        self.settings = settings
        self.options = options

    @abstractmethod
    def generate(
        self,
        conversations: list[Conversation],
        json_schema: dict[str, Any],
        *,
        max_tokens: int,
        temperature: float = 0.0,
        seed: int | None = None,
    ) -> list[str | None]: ...

    def stats(self) -> dict[str, int]:
        """Engine-level counters (requests, retries, faults), when the engine keeps any."""
        return {}

    def close(self) -> None:
        """Release workers, connections and threads. Safe to call twice."""


#: name -> "module:Class". Modules are imported only when the engine is used.
ENGINES: dict[str, str] = {
    "vllm": "sgprep.parse.engines.vllm:VLLMEngine",
    "openai": "sgprep.parse.engines.openai:OpenAIEngine",
}


def make_engine(name: str, settings: ParserSettings, **options: Any) -> Engine:
    engine = load_entry(ENGINES, name, "LLM engine")(settings, **options)
    engine.name = name
    return engine


def model_name(settings: ParserSettings) -> str:
    return settings.model or DEFAULT_MODEL


def _looks_like_path(model: str) -> bool:
    return model.startswith(("/", "./", "../", "~")) or model.count("/") > 1


def resolve_local_model(model: str) -> str:
    """Return a loadable model reference, or raise a clear error when it cannot be loaded here.

    A local directory is used as is. A hub id is fine when its files are in the local Hugging Face
    cache, or when the hub may be reached (then vLLM downloads it). Offline and not cached, or a
    path that does not exist, raises :class:`ModelNotAvailableError` naming the model and how to
    supply it.
    """
    expanded = os.path.expanduser(model)
    if os.path.isdir(expanded):
        return expanded
    if _looks_like_path(model) or os.path.exists(expanded):
        raise ModelNotAvailableError(
            f"model path {model!r} does not exist (or is not a model directory). "
            + _HOW_TO_SUPPLY.format(model=model)
        )
    if _hub_cached(model) or not _hub_offline():
        return model
    raise ModelNotAvailableError(
        f"model {model!r} is not in the local Hugging Face cache and the hub is offline "
        "(HF_HUB_OFFLINE is set). " + _HOW_TO_SUPPLY.format(model=model)
    )


_HOW_TO_SUPPLY = (
    "To run offline, download it on a machine with access (`huggingface-cli download {model} "
    "--local-dir DIR`, gated models need an accepted licence and HF_TOKEN), copy DIR here and pass "
    "`--model DIR`; or fill the cache (HF_HOME) and set HF_HUB_OFFLINE=1; or serve it elsewhere "
    "and use `--engine openai --endpoint URL`."
)


def _hub_offline() -> bool:
    return any(
        os.environ.get(var, "").strip().lower() in {"1", "true", "yes", "on"}
        for var in ("HF_HUB_OFFLINE", "TRANSFORMERS_OFFLINE")
    )


def _hub_cached(model: str) -> bool:
    try:
        from huggingface_hub import try_to_load_from_cache
    except ImportError:  # without huggingface_hub nothing can be cached either
        return False
    found = try_to_load_from_cache(model, "config.json")
    return isinstance(found, str)
