"""SceneGraphParser (PyPI ``SceneGraphParser``, import ``sng_parser``) behind our Parser API.

Never depend on the PyPI package ``sng-parser``: it is unrelated and installs a clashing
``sng_parser`` folder.

Its output becomes our schema as follows:
- entity text: the noun chunk without leading determiners ("a red apple" -> "red apple"), with
  its character span in the caption; head: its lemmatised head with compounds ("traffic sign");
- attributes: its ``amod`` modifiers; ``det`` modifiers are dropped; a ``nummod`` that reads as a
  number ("two", "3") becomes ``count``, any other one an attribute;
- relations: its subject/object indices and surface predicate ("sitting on"; its lemmatised
  predicate loses the last word of phrasal prepositions, "in front of" -> "in front");
  self-loops and duplicates are dropped;
- pronoun entities ("it") are dropped with their relations: SceneGraphParser's own pronoun
  filter checks spaCy 2's ``-PRON-`` lemma and no longer fires on spaCy 3.

Speed: captions go through ``nlp.pipe`` in batches with NER disabled, and SceneGraphParser's
rules then run on the ready docs (as shipped it calls ``nlp()`` once per caption, ~4x slower).
"""

from __future__ import annotations

import logging
from collections import Counter
from typing import Any

from pydantic import ValidationError

from sgprep.parse.base import ParseError, Parser, SpacyModelMissing, missing_spacy_model
from sgprep.parse.factual_format import DETERMINERS, parse_count
from sgprep.schema import Entity, Relation, SceneGraph, relation_span

log = logging.getLogger(__name__)


class _ReadyDoc:
    """Stands in for ``nlp`` inside SceneGraphParser: returns a doc parsed beforehand."""

    def __init__(self, doc: Any):
        self.doc = doc

    def __call__(self, text: str) -> Any:
        return self.doc


class SngParser(Parser):
    name = "sng"

    def __init__(self, settings=None):
        super().__init__(settings)
        self._backend: Any = None
        self._nlp: Any = None
        self._counts: Counter[str] = Counter()

    def setup(self) -> None:
        import sng_parser

        model = self.settings.spacy_model
        try:
            parser = sng_parser.Parser("spacy", model=model)
        except (
            ImportError,
            OSError,
        ) as error:  # sng_parser re-raises spaCy's OSError as ImportError
            raise SpacyModelMissing(missing_spacy_model(model)) from error
        self._backend = parser.unwrapped
        self._nlp = self._backend.nlp
        self._counts.clear()

    def parse_batch(self, captions: list[str]) -> list[SceneGraph | ParseError]:
        if self._backend is None:
            self.setup()
        with self._nlp.select_pipes(disable=[p for p in ("ner",) if p in self._nlp.pipe_names]):
            docs = list(self._nlp.pipe(captions, batch_size=self.settings.batch_size))
        original_nlp = self._backend.nlp
        results: list[SceneGraph | ParseError] = []
        try:
            for caption, doc in zip(captions, docs, strict=True):
                results.append(self._parse_doc(caption, doc))
        finally:
            self._backend.nlp = original_nlp
        return results

    def _parse_doc(self, caption: str, doc: Any) -> SceneGraph | ParseError:
        self._backend.nlp = _ReadyDoc(doc)
        try:
            raw = self._backend.parse(caption)
            graph = convert(raw, doc, parser_name=self.name)
        except ValidationError as error:
            self._counts["invalid"] += 1
            return ParseError("sng_invalid", f"SceneGraphParser output did not validate: {error}")
        except Exception as error:  # one caption must never stop the batch
            self._counts["error"] += 1
            return ParseError("sng_error", f"{type(error).__name__}: {error}")
        self._counts["graphs"] += 1
        return graph

    def teardown(self) -> None:
        self._backend = None
        self._nlp = None

    def stats(self) -> dict[str, int]:
        return dict(self._counts)


def _entity(raw: dict[str, Any], doc: Any) -> Entity:
    start, end = raw["span_bounds"]
    tokens = list(doc[start:end])
    while len(tokens) > 1 and (tokens[0].dep_ == "det" or tokens[0].lower_ in DETERMINERS):
        tokens = tokens[1:]
    char_start, char_end = tokens[0].idx, tokens[-1].idx + len(tokens[-1].text)
    attributes: list[str] = []
    count = None
    for modifier in raw["modifiers"]:
        dep, text = modifier["dep"], modifier["span"].strip()
        if dep == "det" or not text:
            continue
        number = parse_count(text) if dep == "nummod" else None
        if number is not None and count is None:
            count = number
        elif text.lower() not in (a.lower() for a in attributes):
            attributes.append(text)
    return Entity(
        text=doc.text[char_start:char_end],
        head=raw["lemma_head"] or raw["head"],
        attributes=attributes,
        count=count,
        span=(char_start, char_end),
    )


def _is_pronoun(raw: dict[str, Any], doc: Any) -> bool:
    start, end = raw["span_bounds"]
    return doc[start:end].root.pos_ == "PRON"


def convert(raw: dict[str, Any], doc: Any, parser_name: str = "sng") -> SceneGraph:
    """SceneGraphParser's dict (entities, relations) for ``doc`` -> a valid SceneGraph."""
    keep: dict[int, int] = {}
    entities = []
    for old, raw_entity in enumerate(raw["entities"]):
        if _is_pronoun(raw_entity, doc):
            continue
        keep[old] = len(entities)
        entities.append(_entity(raw_entity, doc))
    relations: list[Relation] = []
    seen = set()
    for rel in raw["relations"]:
        subject, obj = keep.get(rel["subject"]), keep.get(rel["object"])
        predicate = " ".join(str(rel.get("relation") or rel.get("lemma_relation") or "").split())
        if subject is None or obj is None or subject == obj or not predicate:
            continue
        if (subject, predicate.lower(), obj) in seen:
            continue
        seen.add((subject, predicate.lower(), obj))
        surface = " ".join(str(rel.get("relation") or "").split()) or None
        lemma = " ".join(str(rel.get("lemma_relation") or "").split()) or None
        relations.append(
            Relation(
                subject=subject,
                predicate=predicate,
                object=obj,
                predicate_lemma=lemma,
                predicate_surface=surface,
                span=relation_span(entities, subject, obj),
            )
        )
    return SceneGraph(entities=entities, relations=relations, parser=parser_name)
