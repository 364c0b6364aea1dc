"""The LLM parser (``--parser llama3``, alias ``llm``): caption -> scene graph by an instruct model.

The model answers in a compact JSON form fixed by :data:`OUTPUT_SCHEMA` and enforced at decoding
time; the answer is then checked like any other input: parsed, validated by our pydantic
``SceneGraph`` (indices in range, no self-loops, non-empty predicates) and mapped back onto the
caption (head noun, count, character span). An answer that fails is asked again once with a new
seed and a little temperature; a caption that fails twice goes to the fallback parser
(``settings.fallback``, default ``spacy``), so every caption gets a result.

An unreachable endpoint is told apart from invalid answers: while the openai engine's circuit
breaker is open, captions are not sent and not asked again; they go straight to the fallback
(counted as ``llm_unreachable``), each fallback graph saying why in ``fallback_reason``. With
no fallback an open breaker raises :class:`~sgprep.parse.base.EngineUnavailable`: the run stops.
"""

from __future__ import annotations

import json
import logging
import re
import time
from collections import Counter
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from sgprep.lexicon import words
from sgprep.parse.base import (
    EndpointNeverAnswered,
    EngineUnavailable,
    ModelUnavailable,
    ParseError,
    Parser,
    ParserSettings,
    make_parser,
    parser_class,
)
from sgprep.parse.engines import Conversation, Engine, make_engine
from sgprep.parse.factual_format import parse_count
from sgprep.schema import Entity, Relation, SceneGraph, relation_span

log = logging.getLogger(__name__)

PROMPT_FILE = Path(__file__).resolve().parents[1] / "prompts" / "scene_graph_llm.md"

#: Captions parsed before a mostly-fallback share is worth a warning.
FALLBACK_WARN_AFTER = 16
#: Retries of an invalid answer before the fallback parser takes over.
LLM_RETRIES = 1
RETRY_TEMPERATURE = 0.3

MAX_ENTITIES = 16
MAX_RELATIONS = 24
MAX_ATTRIBUTES = 6
MAX_TEXT = 80  # characters of an entity's text
MAX_WORD = 40  # characters of an attribute or a predicate

#: What the model may answer. Small on purpose: every key is decoded token by token.
OUTPUT_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "entities": {
            "type": "array",
            "maxItems": MAX_ENTITIES,
            "items": {
                "type": "object",
                "properties": {
                    "text": {"type": "string", "minLength": 1, "maxLength": MAX_TEXT},
                    "attributes": {
                        "type": "array",
                        "maxItems": MAX_ATTRIBUTES,
                        "items": {"type": "string", "minLength": 1, "maxLength": MAX_WORD},
                    },
                },
                "required": ["text", "attributes"],
                "additionalProperties": False,
            },
        },
        "relations": {
            "type": "array",
            "maxItems": MAX_RELATIONS,
            "items": {
                "type": "array",
                "prefixItems": [
                    {"type": "integer", "minimum": 0, "maximum": MAX_ENTITIES - 1},
                    {"type": "string", "minLength": 1, "maxLength": MAX_WORD},
                    {"type": "integer", "minimum": 0, "maximum": MAX_ENTITIES - 1},
                ],
                "items": False,
                "minItems": 3,
                "maxItems": 3,
            },
        },
    },
    "required": ["entities", "relations"],
    "additionalProperties": False,
}


# --- the prompt ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Prompt:
    system: str
    examples: tuple[tuple[str, str], ...]  # (caption, answer JSON)

    def conversation(self, caption: str) -> Conversation:
        """System + worked examples (the prefix shared by every caption) + this caption."""
        messages = [{"role": "system", "content": self.system}]
        for example_caption, answer in self.examples:
            messages.append({"role": "user", "content": f"caption: {example_caption}"})
            messages.append({"role": "assistant", "content": answer})
        messages.append({"role": "user", "content": f"caption: {caption}"})
        return messages


def load_prompt(path: str | Path = PROMPT_FILE) -> Prompt:
    """Read a prompt file: a ``## system`` section, then ``## example`` sections.

    Each example holds a ``caption:`` line and a ``graph:`` line; the graph is checked here
    against :data:`OUTPUT_SCHEMA` and our graph rules, so a broken example fails at start-up.
    """
    if not Path(path).is_file():
        raise FileNotFoundError(
            f"LLM prompt file {path} not found (the default ships inside the package as "
            "sgprep/prompts/scene_graph_llm.md; pass another with --prompt FILE)"
        )
    text = Path(path).read_text(encoding="utf-8")
    sections = re.split(r"^## +(\w+)\s*$", text, flags=re.MULTILINE)
    system, examples = None, []
    for title, body in zip(sections[1::2], sections[2::2]):
        if title == "system":
            system = body.strip()
        elif title == "example":
            caption = re.search(r"^caption:\s*(.+)$", body, flags=re.MULTILINE)
            graph = re.search(r"^graph:\s*(.+)$", body, flags=re.MULTILINE)
            if not caption or not graph:
                raise ValueError(f"{path}: an example needs a 'caption:' and a 'graph:' line")
            answer = json.dumps(json.loads(graph.group(1)), separators=(",", ":"))
            _LLMAnswer.model_validate_json(answer)
            examples.append((caption.group(1).strip(), answer))
    if not system:
        raise ValueError(f"{path}: no '## system' section")
    return Prompt(system=system, examples=tuple(examples))


# --- the answer -> SceneGraph -------------------------------------------------------------


_Text = Annotated[str, Field(min_length=1, max_length=MAX_TEXT)]
_Word = Annotated[str, Field(max_length=MAX_WORD)]


class _LLMEntity(BaseModel):
    model_config = ConfigDict(extra="forbid")
    text: _Text
    attributes: list[_Word] = Field(default_factory=list, max_length=MAX_ATTRIBUTES)


class _LLMRelation(BaseModel):
    model_config = ConfigDict(extra="forbid")
    subject: int
    predicate: _Word
    object: int


class _LLMAnswer(BaseModel):
    """The model's answer as the schema allows it, plus the lenient forms other servers send.
    The schema's limits hold here too: a server that ignores ``response_format`` cannot hand
    over a 10,000-entity graph."""

    model_config = ConfigDict(extra="forbid")
    entities: list[_LLMEntity | _Text] = Field(max_length=MAX_ENTITIES)
    relations: list[tuple[int, _Word, int] | _LLMRelation] = Field(max_length=MAX_RELATIONS)


#: pydantic error types that mean "over a size limit".
_TOO_LONG = {"too_long", "string_too_long"}


class InvalidAnswer(ValueError):
    def __init__(self, reason: str, message: str):
        super().__init__(message)
        self.reason = reason


def graph_from_answer(
    answer: str | None,
    caption: str,
    parser: str,
    retries: int = 0,
    heads: HeadFinder | None = None,
    fault: tuple[str, str] | None = None,
) -> SceneGraph:
    """Turn one raw answer into a validated graph, or raise :class:`InvalidAnswer`.
    ``fault`` is the engine's (fault, detail) for a missing answer, when it says."""
    if answer is None:
        detail = f": {fault[1]}" if fault and fault[1] else ""
        if fault and fault[0] == "too_large":
            raise InvalidAnswer("too_large", f"the answer is too large{detail}")
        raise InvalidAnswer("no_answer", f"the engine gave no answer{detail}")
    try:
        parsed = _LLMAnswer.model_validate_json(answer)
    except ValidationError as exc:
        types = {e["type"] for e in exc.errors()}
        reason = (
            "not_json"
            if "json_invalid" in types
            else "too_large"
            if types & _TOO_LONG
            else "bad_shape"
        )
        raise InvalidAnswer(
            reason, f"{reason}: {exc.errors()[0]['msg']}: {answer[:200]!r}"
        ) from None
    if not parsed.entities:
        raise InvalidAnswer("no_entities", "the answer names no entity")
    heads = heads or HeadFinder(None)
    entities, cursor = [], 0
    try:
        for item in parsed.entities:
            text, attrs = (item, []) if isinstance(item, str) else (item.text, item.attributes)
            text = " ".join(text.split())
            if not text:
                raise InvalidAnswer("invalid_graph", "an entity has a blank text")
            span = find_span(caption, text, cursor)
            cursor = span[1] if span else cursor
            head, count = heads(text)
            attributes = list(dict.fromkeys(a for a in (" ".join(x.split()) for x in attrs) if a))
            entities.append(
                Entity(text=text, head=head, attributes=attributes, count=count, span=span)
            )
        triples = [
            (r.subject, r.predicate, r.object) if isinstance(r, _LLMRelation) else r
            for r in parsed.relations
        ]
        relations = [  # duplicates dropped; "and" is never a relation (METHOD.md sec. 1)
            Relation(subject=s, predicate=p, object=o, span=relation_span(entities, s, o))
            for s, p, o in dict.fromkeys(triples)
            if p.strip().lower() != "and"
        ]
        return SceneGraph(entities=entities, relations=relations, parser=parser, retries=retries)
    except ValidationError as exc:
        raise InvalidAnswer("invalid_graph", f"invalid graph: {exc.errors()[0]['msg']}") from None


def find_span(caption: str, text: str, start: int = 0) -> tuple[int, int] | None:
    """[start, end) of ``text`` in ``caption``, case- and spacing-insensitive, on word bounds.

    The search begins at ``start`` (after the previous entity, so repeated phrases map in order)
    and then anywhere; ``None`` when the model paraphrased.
    """
    words = text.split()
    if not words:
        return None
    pattern = r"\s+".join(re.escape(w) for w in words)
    pattern = (r"\b" if words[0][0].isalnum() else "") + pattern
    pattern += r"\b" if words[-1][-1].isalnum() else ""
    regex = re.compile(pattern, re.IGNORECASE)
    match = regex.search(caption, start) or regex.search(caption)
    return (match.start(), match.end()) if match else None


_CUT_WORDS = words("cut_words")


class HeadFinder:
    """Entity phrase -> (lemmatised head noun, stated count), with spaCy when it loads."""

    def __init__(self, spacy_model: str | None):
        self.spacy_model = spacy_model
        self._cached = lru_cache(maxsize=65536)(self._find)

    def __call__(self, text: str) -> tuple[str, int | None]:
        return self._cached(text)

    def _find(self, text: str) -> tuple[str, int | None]:
        nlp = _load_spacy(self.spacy_model) if self.spacy_model else None
        if nlp is None:
            return _heuristic_head(text)
        doc = nlp(text)
        root = next((t for t in doc if t.dep_ == "ROOT"), doc[-1])
        nouns = [t for t in doc if t.pos_ in ("NOUN", "PROPN")]
        if root.pos_ in ("NOUN", "PROPN") or not nouns:
            head = root
        else:  # a fragment parsed around a non-noun: the last noun before the first preposition
            first_adp = next((t.i for t in doc if t.pos_ == "ADP"), len(doc))
            before = [t for t in nouns if t.i < first_adp]
            head = before[-1] if before else nouns[0]
        count = next((_number(c.text) for c in head.children if c.dep_ == "nummod"), None)
        return (head.lemma_.lower() or head.text.lower()), count


def _load_spacy(name: str) -> Any:
    """The spaCy pipeline for head finding: the rule parser's own (loaded once per process,
    shared with the ``spacy`` fallback), or None when it cannot load."""
    try:
        from sgprep.parse.rules import load_spacy

        return load_spacy(name)
    except (ImportError, ModelUnavailable) as exc:
        log.warning("spaCy model %r unavailable (%s): entity heads by heuristic", name, exc)
        return None


def _number(word: str) -> int | None:
    return parse_count(word.replace(",", ""))  # "1,000" -> 1000


def _heuristic_head(text: str) -> tuple[str, int | None]:
    words = text.lower().split()
    kept: list[str] = []
    for word in words:
        if word in _CUT_WORDS and kept:
            break
        kept.append(word)
    count = _number(kept[0]) if kept else None
    head = kept[-1] if kept else words[-1]
    if len(head) > 3 and head.endswith("s") and not head.endswith("ss"):
        head = head[:-1]
    return head, count


# --- the parser ---------------------------------------------------------------------------


class LLMParser(Parser):
    """Batch of captions -> engine (vLLM actors or an OpenAI-compatible server) -> graphs.

    ``engine_options`` go to the engine (e.g. ``max_model_len`` for vLLM, ``backoff`` for the
    openai engine). ``stats()``: ``llm_ok`` graphs made by the model, ``llm_invalid`` answers
    rejected (each attempt counts), ``retries`` captions asked again, ``fallbacks`` captions
    handed to the fallback parser; ``invalid_reasons`` says why answers were rejected and
    ``engine.stats()`` what the engine saw (requests, endpoint retries, faults).
    """

    name = "llama3"

    def __init__(
        self,
        settings: ParserSettings | None = None,
        *,
        engine_options: dict[str, Any] | None = None,
        prompt_path: str | Path | None = None,
        max_tokens: int = 512,
        output_schema: dict[str, Any] | None = None,
    ):
        super().__init__(settings)
        #: The JSON Schema enforced at decoding; a narrowing of OUTPUT_SCHEMA may be passed
        #: (answers are validated against our graph rules either way).
        self.output_schema = output_schema or OUTPUT_SCHEMA
        self.engine_options = dict(engine_options or {})
        self.prompt_path = prompt_path or self.settings.prompt or PROMPT_FILE
        self.max_tokens = max_tokens
        self.engine: Engine | None = None
        self.fallback: Parser | None = None
        self.counters: Counter[str] = Counter(llm_ok=0, llm_invalid=0, retries=0, fallbacks=0)
        #: Why answers were rejected: no_answer, not_json, bad_shape, no_entities, invalid_graph.
        self.invalid_reasons: Counter[str] = Counter()
        #: Why captions went to the fallback: the last reason (endpoint_unreachable, ...).
        self.fallback_reasons: Counter[str] = Counter()
        self._captions, self._warned = 0, False  # for the mostly-fallback warning

    def gpus(self) -> float:
        return 1.0 if self.settings.engine == "vllm" else 0.0  # the openai engine runs elsewhere

    def check(self) -> None:
        """Before any work: vLLM (and Ray) installed and a GPU to run it on; or an endpoint
        that answers, now or at the breaker's probe one cooldown later."""
        if self.settings.engine == "vllm":
            from sgprep.parse.engines import model_name, resolve_local_model
            from sgprep.parse.engines.vllm import check_runnable

            try:  # the engine first, and the weights too when both are missing
                check_runnable()
            except ModelUnavailable as missing:
                try:
                    resolve_local_model(model_name(self.settings))
                except ModelUnavailable as weights:
                    raise type(missing)(f"{missing}. Also: {weights}") from None
                raise
            resolve_local_model(model_name(self.settings))
        elif self.settings.engine == "openai":
            self._check_endpoint()

    def _check_endpoint(self) -> None:
        settings = self.settings
        engine = make_engine("openai", settings, **{**self.engine_options, "check_model": False})
        try:
            error = engine.probe()
            if error is not None:
                log.warning(
                    "LLM endpoint %s does not answer (%s); probing it again in %g s "
                    "(--breaker-cooldown) before the run is refused",
                    settings.endpoint,
                    error,
                    settings.breaker_cooldown,
                )
                time.sleep(settings.breaker_cooldown)
                error = engine.probe()
        finally:
            engine.close()
        if error is not None:
            instead = (
                f"every graph would come from the fallback parser {settings.fallback!r}"
                if settings.fallback
                else "there is no fallback parser (--fallback none)"
            )
            raise EndpointNeverAnswered(
                f"the LLM endpoint {settings.endpoint} is unreachable: it did not answer at start "
                f"nor {settings.breaker_cooldown:g} s later ({error}), and {instead}. Not "
                "starting: start the server or fix --endpoint, then run again (or parse with "
                "--parser spacy, which needs no server)"
            )

    def setup(self) -> None:
        self.prompt = load_prompt(self.prompt_path)
        self.heads = HeadFinder(self.settings.spacy_model)
        if self.settings.fallback:
            if parser_class(self.settings.fallback) is type(self):
                raise ValueError(
                    f"the LLM parser cannot fall back to itself ({self.settings.fallback!r})"
                )
            self.fallback = make_parser(self.settings.fallback, self.settings, self.context)
            self.fallback.setup()
        self.engine = make_engine(self.settings.engine, self.settings, **self.engine_options)

    def parse_batch(self, captions: list[str]) -> list[SceneGraph | ParseError]:
        if self.engine is None:
            self.setup()
        results: list[SceneGraph | ParseError | None] = [None] * len(captions)
        why: dict[int, InvalidAnswer] = {}
        invalid: Counter[int] = Counter()  # invalid answers per caption
        pending = list(range(len(captions)))
        attempt, again, waited = 0, False, [0.0]
        while attempt <= LLM_RETRIES:
            if not pending or (attempt and self._unreachable()):
                break  # asking a dead endpoint again only costs time
            if attempt and not again:
                self.counters["retries"] += len(pending)
            answers, faults = self._generate([captions[i] for i in pending], attempt)
            if self._outage_waited_out(waited):
                again = True  # the endpoint is back: this attempt again, as if never sent
                continue
            self._stop_if_unreachable()
            again, still = False, []
            for i, answer, fault in zip(pending, answers, faults):
                if answer is None and fault is not None and fault[0] == "breaker_open":
                    # not sent: an unreachable endpoint, not an invalid answer; no retry
                    self.counters["llm_unreachable"] += 1
                    why[i] = InvalidAnswer("endpoint_unreachable", f"not sent: {fault[1]}")
                    continue
                try:
                    results[i] = self._graph(answer, captions[i], attempt, fault)
                    self.counters["llm_ok"] += 1
                except InvalidAnswer as exc:
                    self.counters["llm_invalid"] += 1
                    self.invalid_reasons[exc.reason] += 1
                    invalid[i] += 1
                    why[i] = exc
                    still.append(i)
            pending, attempt = still, attempt + 1
        left = [i for i, r in enumerate(results) if r is None]
        for i, result in zip(
            left, self._fall_back([captions[i] for i in left], why, left, invalid)
        ):
            results[i] = result
        assert all(r is not None for r in results), "a caption lost its result"
        self._captions += len(captions)
        self._warn_if_mostly_fallback()
        return results  # type: ignore[return-value]

    def _warn_if_mostly_fallback(self) -> None:
        """Say so while the run goes on (once) when more captions than --max-fallback-share
        went to the fallback: the run will end with an error."""
        seen, fell = self._captions, self.counters["fallbacks"]
        share = self.settings.max_fallback_share
        if self._warned or seen < FALLBACK_WARN_AFTER or fell <= share * seen:
            return
        self._warned = True
        reasons = ", ".join(f"{k} {v}" for k, v in self.fallback_reasons.most_common(3))
        log.warning(
            "%d of %d captions so far (%.0f%%) got their graph from the fallback parser "
            "%r, not from the LLM (%s): more than --max-fallback-share %g, so this run "
            "will end with an error. Once the LLM answers, rerun with --redo-fallbacks",
            fell,
            seen,
            100 * fell / seen,
            self.settings.fallback,
            reasons,
            share,
        )

    def _unreachable(self) -> str | None:
        """Why the engine does not call its endpoint now (openai: breaker open), or None."""
        probe = getattr(self.engine, "unreachable", None)
        return probe() if probe is not None else None

    def _outage_waited_out(self, waited: list[float]) -> bool:
        """Without a fallback, an endpoint that went down mid-run is waited for: True when it
        came back, so the attempt can be made again. ``waited`` (seconds, kept by the caller
        for one batch) bounds the waits of a batch to ``endpoint_wait`` in all, so an endpoint
        that answers probes but drops every request cannot hold the run forever."""
        if self.fallback is not None or not self._unreachable():
            return False
        wait = getattr(self.engine, "wait_until_reachable", None)
        left = self.settings.endpoint_wait - waited[0]
        if wait is None or left <= 0:
            return False
        start = time.monotonic()
        back = wait(left)
        waited[0] += time.monotonic() - start
        return back

    def _stop_if_unreachable(self) -> None:
        """Without a fallback a dead endpoint ends the run instead of failing every caption."""
        reason = self._unreachable() if self.fallback is None else None
        if reason:
            raise EngineUnavailable(
                f"the LLM endpoint {reason}, and there is no fallback parser (--fallback none): "
                "stopping the run. Start the server or fix --endpoint and run again (finished "
                "shards are kept), or pass --fallback spacy to go on without the LLM"
            )

    def _graph(
        self, answer: str | None, caption: str, attempt: int, fault: tuple[str, str] | None = None
    ) -> SceneGraph:
        try:
            return graph_from_answer(answer, caption, self.name, attempt, self.heads, fault)
        except InvalidAnswer:
            raise
        except Exception as exc:  # a bug must cost this caption its LLM graph, not the batch
            log.exception("unexpected error reading an LLM answer for %r", caption)
            raise InvalidAnswer("error", f"{type(exc).__name__}: {exc}") from exc

    def _generate(
        self, captions: list[str], attempt: int
    ) -> tuple[list[str | None], list[tuple[str, str] | None]]:
        """Answers, and why each missing one is missing when the engine says (openai)."""
        assert self.engine is not None
        none: list[tuple[str, str] | None] = [None] * len(captions)
        try:
            answers = self.engine.generate(
                [self.prompt.conversation(c) for c in captions],
                self.output_schema,
                max_tokens=self.max_tokens,
                temperature=RETRY_TEMPERATURE if attempt else 0.0,
                seed=self.context.seed + attempt,
            )
        except Exception:  # noqa: BLE001 - an engine failure costs this attempt, not the captions
            log.exception("LLM engine failed on a batch of %d captions", len(captions))
            return [None] * len(captions), none
        if len(answers) != len(captions):
            log.error("engine returned %d answers for %d captions", len(answers), len(captions))
            return [None] * len(captions), none
        faults = getattr(self.engine, "last_faults", None)
        return answers, faults if faults is not None and len(faults) == len(answers) else none

    def _fall_back(
        self,
        captions: list[str],
        why: dict[int, InvalidAnswer],
        indices: list[int],
        invalid: Counter[int],
    ) -> list[SceneGraph | ParseError]:
        if not captions:
            return []
        if self.fallback is None:
            return [
                ParseError("llm_invalid", f"{why[i]} (after {invalid[i]} attempts)")
                if invalid[i]
                else ParseError("llm_unreachable", str(why[i]))
                for i in indices
            ]
        self.counters["fallbacks"] += len(captions)
        self.fallback_reasons.update(why[i].reason for i in indices)
        results = self.fallback.parse_batch(captions)
        if len(results) != len(captions):
            raise RuntimeError(f"fallback parser {self.settings.fallback!r} lost captions")
        out: list[SceneGraph | ParseError] = []
        for i, result in zip(indices, results):
            if isinstance(result, SceneGraph):
                result = result.model_copy(
                    update={
                        "retries": max(0, invalid[i] - 1),
                        "fallback_from": self.name,
                        "fallback_reason": f"{why[i].reason}: {why[i]}"[:500],
                    }
                )
            out.append(result)
        return out

    def teardown(self) -> None:
        if self.engine is not None:
            self.engine.close()
            self.engine = None
        if self.fallback is not None:
            self.fallback.teardown()
            self.fallback = None

    def stats(self) -> dict[str, int]:
        """The counters above (``llm_unreachable`` when captions were not sent because the
        endpoint was unreachable), ``llm_invalid/<reason>`` per rejection reason,
        ``fallbacks/<reason>`` per last reason before the fallback, and the engine's own
        counters as ``engine/<name>`` (requests, retries, faults, breaker)."""
        out = {
            k: v
            for k, v in self.counters.items()
            if v or k in ("llm_ok", "llm_invalid", "retries", "fallbacks")
        }
        out.update({f"llm_invalid/{k}": v for k, v in sorted(self.invalid_reasons.items())})
        out.update({f"fallbacks/{k}": v for k, v in sorted(self.fallback_reasons.items())})
        if self.engine is not None:
            out.update({f"engine/{k}": v for k, v in sorted(self.engine.stats().items())})
        return out
