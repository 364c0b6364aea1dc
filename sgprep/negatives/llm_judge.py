"""An LLM as a blind judge of rule-made negatives (issue 18, lever 5): is the text fluent English,
and does it describe a scene that could exist?

The rules make candidates cheaply; a served LLM (any OpenAI-compatible endpoint: a vLLM server,
SGLang, TGI, a hosted API, through ``sgprep.parse.engines.openai``) reads each negative *alone*,
as a blind reader would, and answers ``{"fluent": bool, "plausible": bool}`` under a JSON
schema at temperature 0. A negative it calls disfluent or implausible is dropped and counted as
``rejected/llm_disfluent`` or ``rejected/llm_implausible``. Off by default
(``LLMJudgeSettings.enabled``).

Loud, not quiet: a negative the judge could not answer for (endpoint down after retries, an
answer that is not the schema) is kept, and counted as ``llm_judge/unjudged`` with the
engine's own counters (``llm_judge/engine/...``), so a run never looks judged when it was not.
"""

from __future__ import annotations

import json
import logging
from collections import Counter
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, model_validator

from sgprep.schema import Negative

log = logging.getLogger(__name__)

SYSTEM = (
    "You read one short image caption at a time, without the image. Answer two questions.\n"
    "fluent: is it grammatical, natural English as a person would write a caption (agreement "
    "of nouns, verbs and articles; no doubled or missing words; no split fixed expressions)?\n"
    "plausible: could a photograph show this scene (things that can do what is said, sizes "
    "and places that fit, attributes that the object can have)? Unusual is fine; impossible "
    "or absurd is not.\n"
    'Answer with JSON only: {"fluent": true|false, "plausible": true|false}.'
)
#: Worked examples, as earlier turns of the conversation (the prefix every request shares).
EXAMPLES = [
    ("a man riding a horse on a beach", True, True),
    ("a horse riding a man on a beach", True, False),
    ("a group of banana on a table", False, True),
    ("an open box of babies", True, False),
    ("two dogs are playing with a red ball", True, True),
    ("a umbrella in the rain", False, True),
]
SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {"fluent": {"type": "boolean"}, "plausible": {"type": "boolean"}},
    "required": ["fluent", "plausible"],
    "additionalProperties": False,
}


class LLMJudgeSettings(BaseModel):
    """The negatives stage's LLM judge; off unless ``enabled``."""

    model_config = ConfigDict(extra="forbid")

    enabled: bool = Field(
        default=False,
        description="Judge each negative with an LLM and drop the disfluent and the implausible.",
    )
    endpoint: str | None = Field(
        default=None,
        description="OpenAI-compatible base URL, e.g. "
        "http://127.0.0.1:8000/v1 (key from SGPREP_API_KEY).",
    )
    model: str | None = Field(default=None, description="Model name the endpoint serves.")
    max_concurrency: int = Field(default=32, ge=1, description="Requests in flight.")
    timeout: float = Field(default=60.0, gt=0, description="Seconds per request.")
    max_retries: int = Field(default=3, ge=0, description="Retries per request.")
    max_tokens: int = Field(default=32, ge=8, description="Tokens per answer.")

    @model_validator(mode="after")
    def _endpoint(self) -> LLMJudgeSettings:
        if self.enabled and not self.endpoint:
            raise ValueError(
                "the LLM judge needs an endpoint: llm_judge.endpoint = "
                "http://HOST:PORT/v1 (any OpenAI-compatible server)"
            )
        return self


def conversation(text: str) -> list[dict[str, str]]:
    messages = [{"role": "system", "content": SYSTEM}]
    for caption, fluent, plausible in EXAMPLES:
        messages.append({"role": "user", "content": caption})
        messages.append(
            {"role": "assistant", "content": json.dumps({"fluent": fluent, "plausible": plausible})}
        )
    messages.append({"role": "user", "content": text})
    return messages


def verdict(answer: str | None) -> tuple[bool, bool] | None:
    """(fluent, plausible) from an answer, or None when it is not the schema's JSON."""
    if answer is None:
        return None
    try:
        data = json.loads(answer)
    except ValueError:
        return None
    if (
        not isinstance(data, dict)
        or not isinstance(data.get("fluent"), bool)
        or not isinstance(data.get("plausible"), bool)
    ):
        return None
    return data["fluent"], data["plausible"]


class LLMJudge:
    """Judges negatives through an engine of ``sgprep.parse.engines`` (``openai`` by default)."""

    def __init__(self, settings: LLMJudgeSettings, engine: str = "openai"):
        from sgprep.parse.base import ParserSettings
        from sgprep.parse.engines import make_engine

        if not settings.endpoint and engine == "openai":
            raise ValueError(
                "the LLM judge needs an endpoint: llm_judge.endpoint = "
                "http://HOST:PORT/v1 (any OpenAI-compatible server)"
            )
        self.settings = settings
        self.engine = make_engine(
            engine,
            ParserSettings(
                parser="llama3",
                engine=engine,
                endpoint=settings.endpoint,
                model=settings.model,
                fallback=None,
                max_concurrency=settings.max_concurrency,
                timeout=settings.timeout,
                max_retries=settings.max_retries,
            ),
        )
        self.counts: Counter[str] = Counter()

    def keep(self, negatives: list[Negative]) -> list[bool]:
        """One flag per negative: False for those the judge calls disfluent or implausible.
        Each distinct text is asked once."""
        texts = list(dict.fromkeys(n.text for n in negatives))
        if not texts:
            return []
        answers = self.engine.generate(
            [conversation(t) for t in texts],
            SCHEMA,
            max_tokens=self.settings.max_tokens,
            temperature=0.0,
            seed=0,
        )
        verdicts = dict(zip(texts, map(verdict, answers)))
        flags = []
        for n in negatives:
            found = verdicts[n.text]
            if found is None:
                self.counts["llm_judge/unjudged"] += 1
                flags.append(True)
                continue
            fluent, plausible = found
            self.counts["llm_judge/judged"] += 1
            if not fluent:
                self.counts["rejected/llm_disfluent"] += 1
            elif not plausible:
                self.counts["rejected/llm_implausible"] += 1
            flags.append(fluent and plausible)
        return flags

    def stats(self) -> dict[str, int]:
        counts = dict(self.counts)
        counts.update({f"llm_judge/engine/{k}": v for k, v in self.engine.stats().items()})
        return counts

    def close(self) -> None:
        self.engine.close()
