"""``spacy``: the CPU default parser, our own rules over spaCy's dependency parse.

It fixes what SceneGraphParser (sng_parser) gets wrong on spaCy 3: copular relations
("a man is on the left of the dog"), multi-word prepositions, pronouns taken for entities,
attributes bound across conjunctions, colours after "in" taken for objects. Entity rules live
in :mod:`sgprep.parse.rules_extract`, relation rules in :mod:`sgprep.parse.rules_relations`,
word lists in :mod:`sgprep.parse.rules_lexicon`, the core repairs of known model errors in
:mod:`sgprep.parse.rules_repair`.

Rule families (noise clean-up, entity spans, phrase attachment, clauses, ...) live in
:mod:`sgprep.parse.families`, one module per group, each declaring where its families hook
in; the parse setting ``rules_off`` switches them off one by one (``docs/rule-parser.md``);
all are on by default.

Speed: one ``nlp.pipe`` over the batch without ``ner`` (the lemmatizer stays: heads and
predicates are lemmatised); the ``attribute_ruler`` and the ``lemmatizer`` run memoised
(:mod:`sgprep.parse.rules_spacy`: the same annotations, a fifth of their cost). Captions
the small model reads as verb-initial sentences although they are noun phrases ("pillows on
a bed", ~7 % of Visual Genome region captions) are parsed a second time behind the prefix
"a photo of ", which forces the noun reading. A caption with a misspelt noun that the
``spell`` family mends ("a giraffee", about 1 in 100 long captions) is parsed a second time
with the word mended (:mod:`sgprep.parse.rules_spell`).

Decisions worth knowing:
- predicates are lemmatised by default ("lying on" -> "lie on"), as FACTUAL's gold graphs are;
  ``predicate_form="surface"`` keeps them as written ("lying on"). FACTUAL's gold writes
  "lay on" for "lying on" too; the graph keeps the right lemma "lie", and only FACTUAL's string
  form writes "lay" (``families.form.FACTUAL_PREDICATES``, the ``conventions`` family);
- a passive with a "by" agent becomes the active relation: "a car covered by snow" ->
  ``snow --cover--> car`` (FACTUAL's convention, and it makes "cover" mean one direction);
  with ``predicate_form="surface"`` it stays ``car --covered by--> snow``;
- captions longer than ``max_chars`` (default 2,000) are cut at the last space before the limit
  and parsed as cut; entity spans still index the original caption. Counted in ``stats()``
  as ``truncated`` and logged once per batch;
- a caption longer than :data:`PIECE_CHARS` (2,000, the default caption limit: only a run that
  raises ``--max-caption-chars`` has one) is parsed in pieces of at most that many characters,
  cut after a sentence where one ends in a piece's second half (:func:`pieces`), a few pieces
  at a time, and its graph is theirs joined (entities and relations in order, spans in the
  caption). spaCy's memory grows with a text's length (about 4 kB a character, 3.8 GB for a
  1 MB caption in one piece); in pieces a long caption costs its graph, a small multiple of
  its length. Nothing joins entities across pieces; a piece that fails fails the caption.
  Counted in ``stats()`` as ``split`` (captions) and ``pieces``;
- a repair whose heads would be no tree (a cycle, or trees that interleave) is not applied:
  the doc keeps its heads, and ``stats()`` counts it as ``repair_refused/<repair>``;
- an empty or blank caption is a :class:`ParseError` (``reason="empty_caption"``), and so is
  one in another language (``reason="other_language"``, family ``other_language``); a caption
  with no nouns gives a graph with no entities; a rule failure on one caption is a
  ``ParseError(reason="rule_error")`` for that caption only;
- entity ``text`` is the noun with its pre-modifiers as written, without articles or
  possessors ("red tennis bag", "black and white cat"), plus an "in <colour>" phrase that
  gives an attribute ("woman in red"); ``head`` is the head noun's lemma; counts ("two",
  "5") go to ``count``, never to ``attributes``;
- predicates: multi-word prepositions keep their article only for left/right ("to the left
  of", but "on top of", "on side of", "in middle of"); "underneath"/"beneath" -> "under",
  "adjacent to" -> "next to"; "in" + a garment -> "wear" ("a man in a black shirt");
- a framing noun as the caption's root ("a black and white photo of coins", "a close-up of a
  cat", "this is a photo of the beach") is no entity: the caption is about what follows "of",
  and the frame's modifiers ("black and white") are dropped with it. Elsewhere ("a painting on
  the wall", "taking a picture of a sunset") it is an object (``picture --of--> sunset``);
- quantity nouns ("hundreds of", "lots of", "a couple of" -> count 2) give the noun after
  "of"; a likeness ("a ceramic sculpture of a dog", "a model of a shuttle") is that noun with
  the likeness as an attribute (FACTUAL's gold convention);
- "with" keeps its own predicate for parts ("a cat with green eyes" -> ``cat --with--> eye``,
  as FACTUAL's gold writes it), and a comma list after it continues it ("..., a pink nose and
  long white whiskers");
- a quoted string is a name, never entities or attributes ("the printed heading 'Region-based
  segmentation'" -> entity "printed heading").
"""

from __future__ import annotations

import logging
import os
import sys
import types
from collections import Counter
from collections.abc import Callable
from functools import lru_cache
from types import SimpleNamespace

from pydantic import ValidationError

from sgprep.config import DEFAULT_MAX_CAPTION_CHARS
from sgprep.lexicon import words
from sgprep.parse.base import (
    ParseError,
    Parser,
    ParserSettings,
    SpacyModelMissing,
    missing_spacy_model,
)
from sgprep.parse.families import FAMILIES, builder_hooks, hooks, repair_steps, switch_off
from sgprep.parse.families.base import Context
from sgprep.parse.rules_draft import EntityDraft
from sgprep.parse.rules_extract import GraphBuilder
from sgprep.parse.rules_long import verb_words
from sgprep.parse.rules_repair import TreeRefused, word_index
from sgprep.parse.rules_spacy import Annotators, annotators
from sgprep.parse.rules_spell import Speller, rewrite
from sgprep.parse.rules_view import DocView
from sgprep.schema import Entity, Relation, SceneGraph, relation_span

log = logging.getLogger(__name__)

#: spaCy components a scene graph does not need. The lemmatizer stays: heads and predicates
#: are lemmatised.
UNUSED_COMPONENTS = ("ner",)

#: Captions per batch inside ``nlp.pipe`` (a parser call may hold more). spaCy's activations
#: for a batch of 256 short captions take about 30 MB above the loaded model while it runs,
#: 64 about a quarter of that, and 64 parse 5-6 % faster here (smaller arrays stay in cache);
#: the graphs are the same (``docs/performance.md``, peak RSS).
PIPE_BATCH = 64


#: Set to 1 to let spaCy's thinc import torch (see :func:`import_spacy`).
SPACY_TORCH_ENV = "SGPREP_SPACY_TORCH"


def import_spacy(model: str = ""):
    """Import spaCy, keeping thinc from importing torch where the pipeline cannot use it.

    thinc imports torch at import time whenever it is installed (sgprep's detector installs
    it), only to offer torch-backed layers; the CNN pipelines the rule parser runs
    (``en_core_web_sm`` and the like) compute with numpy and never touch it. That import is
    most of spaCy's start-up and memory: measured here, importing spaCy and loading
    ``en_core_web_sm`` took 3.5 s and 684 MB with torch, 1.2 s and 136 MB without; each worker
    process pays it. So while spaCy is first imported, ``import torch`` fails as if torch were
    not installed; afterwards torch imports normally (the torch detector is unaffected).
    Skipped when torch is already imported, for transformer pipelines (``*_trf``, which run
    on torch), or when ``SGPREP_SPACY_TORCH=1``.

    ``import spacy`` also imports spaCy's own command line (``spacy.cli``: typer apps, weasel,
    requests, every training command), only to offer ``spacy.info``: a quarter of spaCy's
    import, about 0.2 CPU-s of each process's start-up. It is left out here: ``spacy.info``
    imports it when called, and ``import spacy.cli`` works as before."""
    if "spacy" in sys.modules:
        import spacy

        return spacy
    cli, info = _SpacyCliStandIn("spacy.cli"), _SpacyCliStandIn("spacy.cli.info")
    sys.modules["spacy.cli"], sys.modules["spacy.cli.info"] = cli, info
    try:
        if (
            "torch" not in sys.modules
            and "trf" not in model
            and os.environ.get(SPACY_TORCH_ENV) != "1"
        ):
            sys.modules["torch"] = None  # type: ignore[assignment]  # `import torch` fails
            try:
                import spacy
            finally:
                del sys.modules["torch"]
        import spacy
    finally:
        for name, stand_in in (("spacy.cli.info", info), ("spacy.cli", cli)):
            if sys.modules.get(name) is stand_in:
                del sys.modules[name]
    if getattr(spacy, "cli", None) is cli:
        del spacy.cli
    return spacy


class _SpacyCliStandIn(types.ModuleType):
    """What ``import spacy`` finds as ``spacy.cli`` and ``spacy.cli.info`` while
    :func:`import_spacy` imports it: ``info`` imports the real command when called."""

    __path__: list[str] = []

    @staticmethod
    def info(*args, **kwargs):
        from spacy.cli.info import info

        return info(*args, **kwargs)


@lru_cache(maxsize=4)
def load_spacy(name: str):
    """The pipeline without the components a scene graph does not need; loaded once per
    process and shared (nothing here changes it), so the LLM parser's head finder and its
    spacy fallback hold one copy."""
    spacy = import_spacy(name)  # heavy import: only when this parser is used

    override = _saved_tokenizer_only(spacy, name)
    try:
        nlp = spacy.load(name, exclude=list(UNUSED_COMPONENTS), config=override)
    except OSError as exc:
        raise SpacyModelMissing(missing_spacy_model(name)) from exc
    if override:  # the config names the tokenizer the pipeline has: spaCy's own
        nlp.config["nlp"]["tokenizer"] = dict(STANDARD_TOKENIZER)
    return nlp


#: spaCy's own tokenizer, the one a pipeline's config names unless it brings its own.
STANDARD_TOKENIZER = {"@tokenizers": "spacy.Tokenizer.v1"}
#: A tokenizer with no settings and no special cases, for the saved ones to fill.
BARE_TOKENIZER = "sgprep.BareTokenizer.v1"


def _saved_tokenizer_only(spacy, name: str) -> dict:
    """The config override that builds the pipeline's tokenizer only once, from its files.

    ``spacy.load`` first builds the language's default tokenizer (its regexes and some 2,700
    special cases: "don't", "a.m.", ...), then loads the saved one over it, which clears every
    setting and builds every special case again (after the vocab is loaded, whose lexemes the
    first build's no longer are); so the first build is thrown away. Where the pipeline's
    config names spaCy's own tokenizer and its files hold it, it is built empty instead and the
    saved one fills it: the same tokenizer (the same serialised bytes, vocab and tokens), 0.08
    of the 0.41 CPU-s of ``en_core_web_sm``'s load. Anything else gets no override (``{}``)."""
    path = _pipeline_path(spacy, name)
    if path is None or not (path / "tokenizer").is_file():
        return {}
    try:
        config = spacy.util.load_config(path / "config.cfg", interpolate=False)
        if dict(config["nlp"]["tokenizer"]) != STANDARD_TOKENIZER:
            return {}
    except Exception:  # noqa: BLE001 - spacy.load reads it again and says what is wrong
        return {}
    if BARE_TOKENIZER not in spacy.registry.tokenizers:
        spacy.registry.tokenizers.register(BARE_TOKENIZER, func=_bare_tokenizer)
    return {"nlp": {"tokenizer": {"@tokenizers": BARE_TOKENIZER}}}


def _bare_tokenizer():
    from spacy.tokenizer import Tokenizer

    return lambda nlp: Tokenizer(nlp.vocab)


def _pipeline_path(spacy, name: str):
    """The folder ``spacy.load(name)`` reads: ``name`` itself, or the data folder of the
    installed package ``name`` (where spaCy's packages keep it); None when it is neither."""
    from pathlib import Path

    util = spacy.util
    try:
        if util.is_package(name):
            package = util.get_package_path(name)
            meta = util.get_model_meta(package)
            return package / f"{meta['lang']}_{meta['name']}-{meta['version']}"
    except Exception:  # noqa: BLE001 - not a package spaCy knows how to read
        return None
    path = Path(name)
    return path if path.is_dir() else None


#: Noun-phrase captions that the small model reads as verb-initial sentences ("pillows on a
#: bed": pillows/VERB) are parsed again behind this prefix, which forces a noun reading; the
#: prefix's own tokens never become entities and its character offsets are taken off spans.
FRAGMENT_PREFIX = "a photo of "
#: Nouns whose lemma is the plural form ("scissors", not spaCy's "scissor").
PLURALIA_TANTUM = words("plural_only_nouns") | words("plural_only_gear") | {"pliers", "eyeglasses"}


def verb_initial_fragment(doc) -> bool:
    """The caption's first content word is a subjectless verb root: likely a mis-read noun."""
    for tok in doc:
        if tok.pos_ in {"DET", "PUNCT", "SPACE"}:
            continue
        return (
            tok.dep_ == "ROOT"
            and tok.pos_ == "VERB"
            and not any(c.dep_ in {"nsubj", "nsubjpass", "expl", "csubj"} for c in tok.children)
        )
    return False


def pair_forms(
    relations: list[tuple[int, str, int]], others: list[tuple[int, str, int]]
) -> list[str | None]:
    """For each relation, its predicate in the other form: the next unused relation of
    ``others`` between the same subject and object, in order; None when there is none (a
    passive "car covered by snow" is ``snow --cover--> car`` as a lemma: it reads the other
    way, so it has no surface twin)."""
    unused: dict[tuple[int, int], list[str]] = {}
    for s, p, o in others:
        unused.setdefault((s, o), []).append(p)
    paired = []
    for s, _, o in relations:
        queue = unused.get((s, o))
        paired.append(queue.pop(0) if queue else None)
    return paired


def _caption_spans(
    graph: SceneGraph,
    caption: str,
    offsets: list[int],
    mended: tuple[tuple[int, int], ...] = (),
) -> SceneGraph:
    """``graph`` of a caption whose shorthand was written out before parsing
    (:func:`sgprep.parse.rules_noise.expand_shorthand`), with its spans and entity texts
    taken back to the caption itself through ``offsets``. An entity over a word the
    ``spell`` family mended (``mended``: where in the parsed text) keeps its text as
    parsed ("giraffe"), its span on the caption's word ("giraffee")."""
    entities = []
    for e in graph.entities:
        if e.span is None:
            entities.append(e)
            continue
        start, end = e.span
        span = (offsets[start], offsets[end - 1] + 1 if end > start else offsets[start])
        text = caption[span[0] : span[1]]
        if any(a < end and start < b for a, b in mended):
            text = e.text
        entities.append(
            e.model_copy(update={"span": span, "text": text if text.strip() else e.text})
        )
    relations = [
        r.model_copy(update={"span": relation_span(entities, r.subject, r.object)})
        for r in graph.relations
    ]
    return graph.model_copy(update={"entities": entities, "relations": relations})


def _moved(span: tuple[int, int], by: int) -> tuple[int, int]:
    return (span[0] + by, span[1] + by)


def _shifted(entity: Entity, by: int) -> Entity:
    """``entity`` of a piece starting ``by`` characters into its caption, spanning there."""
    if entity.span is None or not by:
        return entity
    return entity.model_copy(update={"span": _moved(entity.span, by)})


def _lower_in_caption(caption: str, start: int, end: int, where: list[int] | None) -> bool:
    """Whether the caption writes the parsed text's ``[start, end)`` in lower case (through
    the shorthand's map ``where``, if any)."""
    if where is not None:
        start, end = where[start], where[end - 1] + 1
    return caption[start:end].islower()


def truncate(caption: str, max_chars: int) -> str:
    if len(caption) <= max_chars:
        return caption
    cut = caption.rfind(" ", 0, max_chars)
    return caption[: cut if cut > 0 else max_chars]


#: Longer captions are parsed in pieces of at most this many characters (see the module's
#: docstring): the default caption limit, so that no caption a run accepts by default is cut.
PIECE_CHARS = DEFAULT_MAX_CAPTION_CHARS
#: Pieces of one long caption parsed together (in one ``nlp.pipe``): their docs and spaCy's
#: activations for them are all a long caption holds at once, besides its graph.
PIECES_AT_ONCE = 2
#: Where a piece prefers to end: after a sentence, else at a space.
SENTENCE_ENDS = (". ", "! ", "? ", "\n")


def pieces(text: str, size: int = PIECE_CHARS) -> list[tuple[int, int]]:
    """[start, end) of the pieces ``text`` is parsed in, each at most ``size`` characters and
    without whitespace at its ends: cut after the last sentence end in the second half of the
    piece, else at the last space there, else (a word of ``size // 2`` characters) at
    ``size``. Blank stretches are no piece. A text of ``size`` characters or fewer is one."""
    spans: list[tuple[int, int]] = []
    start, n = 0, len(text)
    while start < n:
        end = min(n, start + size)
        if end < n:
            half = start + size // 2
            cut = max(text.rfind(mark, half, end) for mark in SENTENCE_ENDS)
            if cut >= 0:
                end = cut + 1
            else:
                cut = max(text.rfind(space, half, end) for space in (" ", "\t", "\r"))
                end = cut if cut > half else end
        piece = text[start:end]
        stripped = piece.strip()
        if stripped:
            first = start + len(piece) - len(piece.lstrip())
            spans.append((first, first + len(stripped)))
        start = end
    return spans


class RuleParser(Parser):
    name = "spacy"
    #: its spaCy pipeline is plain data once loaded (no thread, no connection)
    fork_safe = True

    @property
    def max_chars(self) -> int:
        """Longer captions are cut at a space before parsing (the run's caption limit)."""
        return self.context.max_caption_chars

    def __init__(self, settings: ParserSettings | None = None):
        super().__init__(settings)
        self.predicate_form = self.settings.predicate_form
        if self.predicate_form not in {"lemma", "surface"}:
            raise ValueError(
                f"predicate_form must be 'lemma' or 'surface', not {self.predicate_form!r}"
            )
        self.nlp = None
        self._words: tuple[frozenset[str], frozenset[str]] | None = None
        self._verbs: frozenset[str] = frozenset()
        self._prefix_tokens = 0
        self._lemmatizer = None
        self._annotators = Annotators((), [])
        self._counts: Counter[str] = Counter()
        self._steps: tuple[tuple, list[tuple[Callable, tuple, Callable | None]]] | None = None
        # every rule family, but those the rules_off setting switches off
        self.families = switch_off(self.settings.rules_off)
        self._speller: Speller | None = None

    def setup(self) -> None:
        if self.nlp is None:
            self.nlp = load_spacy(self.settings.spacy_model)
        if self._words is None:
            self._words = word_index(self.nlp)
            self._verbs = verb_words(self.nlp)
            self._prefix_tokens = len(self.nlp.make_doc(FRAGMENT_PREFIX))
            if "lemmatizer" in self.nlp.pipe_names:
                self._lemmatizer = self.nlp.get_pipe("lemmatizer")
            self._annotators = annotators(self.nlp)

    def _verb_lemma(self, token) -> str | None:
        """The token's lemma read as a verb ("posing" -> "pose"), None without a lemmatizer."""
        rule_lemmatize = getattr(self._lemmatizer, "rule_lemmatize", None)
        if rule_lemmatize is None:
            return None
        pos = token.pos_
        token.pos_ = "VERB"
        try:
            lemmas = rule_lemmatize(token)
        finally:
            token.pos_ = pos
        return lemmas[0].lower() if lemmas else None

    def teardown(self) -> None:
        self.nlp = None

    def stats(self) -> dict[str, int]:
        return dict(self._counts)

    def parse_batch(self, captions: list[str]) -> list[SceneGraph | ParseError]:
        self.setup()
        cut = [
            truncate(c, self.max_chars) if isinstance(c, str) and len(c) > PIECE_CHARS else None
            for c in captions
        ]
        long = [
            i for i, text in enumerate(cut) if text and len(text) > PIECE_CHARS and text.strip()
        ]
        if not long:  # every batch a run accepts by default
            results = self._parse_texts(captions)
        else:
            short = sorted(set(range(len(captions))) - set(long))
            results = [None] * len(captions)  # type: ignore[list-item]
            for i, got in zip(short, self._parse_texts([captions[i] for i in short])):
                results[i] = got
            self._count_cut(sum(len(cut[i]) < len(captions[i]) for i in long))  # type: ignore[arg-type]
            for i in long:
                results[i] = self._parse_long(cut[i])  # type: ignore[arg-type]
        self._counts["graphs"] += sum(isinstance(r, SceneGraph) for r in results)
        self._counts["errors"] += sum(isinstance(r, ParseError) for r in results)
        return results

    def _parse_long(self, text: str) -> SceneGraph | ParseError:
        """The graph of a caption longer than :data:`PIECE_CHARS`: its :func:`pieces` parsed
        :data:`PIECES_AT_ONCE` at a time, their graphs joined in order with the spans moved to
        the caption's characters. The first piece that fails is the caption's failure."""
        spans = pieces(text)
        self._counts["split"] += 1
        self._counts["pieces"] += len(spans)
        entities: list[Entity] = []
        relations: list[Relation] = []
        for k in range(0, len(spans), PIECES_AT_ONCE):
            group = spans[k : k + PIECES_AT_ONCE]
            for (start, end), got in zip(group, self._parse_texts([text[a:b] for a, b in group])):
                if isinstance(got, ParseError):
                    return ParseError(
                        got.reason, f"characters {start}-{end} of the caption: {got.message}"
                    )
                first = len(entities)
                entities.extend(_shifted(e, start) for e in got.entities)
                relations.extend(
                    r.model_copy(
                        update={
                            "subject": r.subject + first,
                            "object": r.object + first,
                            "span": None if r.span is None else _moved(r.span, start),
                        }
                    )
                    for r in got.relations
                )
        return SceneGraph(entities=entities, relations=relations, parser=self.name)

    def _count_cut(self, truncated: int) -> None:
        """Count the captions cut at the caption limit, and say so once per batch."""
        self._counts["truncated"] += truncated
        if truncated:
            log.warning(
                "%d caption(s) longer than %d characters were cut before parsing",
                truncated,
                self.max_chars,
            )

    def _parse_texts(self, captions: list[str]) -> list[SceneGraph | ParseError]:
        """The graphs of ``captions``, each parsed whole (cut at the caption limit)."""
        results: list[SceneGraph | ParseError | None] = [None] * len(captions)
        texts, where = [], []
        cleaners = hooks(self.families, "clean")
        refusers = hooks(self.families, "refuse")
        for i, caption in enumerate(captions):
            if not isinstance(caption, str) or not caption.strip():
                results[i] = ParseError("empty_caption", "the caption is empty or blank")
                continue
            text = truncate(caption, self.max_chars)
            for clean in cleaners:  # web_noise, then noise
                text = clean(text)
            refused = next((why for refuse in refusers if (why := refuse(text))), None)
            if refused is not None:  # family other_language
                results[i] = ParseError(*refused)
                self._counts[f"refused/{refused[0]}"] += 1
                continue
            texts.append(text)
            where.append(i)
        truncated = sum(len(t) < len(captions[i]) for t, i in zip(texts, where))
        self._counts["noise_cleaned"] += sum(
            t != captions[i][: len(t)] for t, i in zip(texts, where))  # fmt: skip
        written = self._write_out(texts, hooks(self.families, "write_out"))
        self._count_cut(truncated)
        docs = self._pipe(texts)
        spellers = hooks(self.families, "speller")  # family spell
        mended = (
            self._mend_spelling(texts, docs, written, [captions[i] for i in where], spellers[0])
            if spellers
            else {}
        )
        fragments = [k for k, doc in enumerate(docs) if verb_initial_fragment(doc)]
        reparsed = self._pipe([FRAGMENT_PREFIX + texts[k] for k in fragments])
        self._counts["reparsed_fragments"] += len(fragments)
        prefixed = dict(zip(fragments, reparsed))
        for k, (i, doc) in enumerate(zip(where, docs)):
            results[i] = (
                self._graph(prefixed[k], len(FRAGMENT_PREFIX), FRAGMENT_PREFIX + texts[k])
                if k in prefixed
                else self._graph(doc, 0, texts[k])
            )
            if k in written and isinstance(results[i], SceneGraph):
                results[i] = _caption_spans(results[i], captions[i], written[k], mended.get(k, ()))
        return results  # type: ignore[return-value]

    def _write_out(
        self, texts: list[str], write_outs: tuple[Callable, ...]
    ) -> dict[int, list[int]]:
        """``texts`` rewritten in place by each of ``write_outs`` (the families' ``write_out``
        hooks: shorthand, "w/" -> "with"); for each text changed, the map of its characters
        to the caption's."""
        written: dict[int, list[int]] = {}
        for write_out in write_outs:
            for k, text in enumerate(texts):
                expanded, offsets = write_out(text)
                if offsets is not None:
                    if k in written:
                        offsets = [written[k][j] for j in offsets]
                    texts[k], written[k] = expanded, offsets
        if write_outs:
            self._counts["shorthand_written"] += len(written)
        return written

    def _mend_spelling(
        self,
        texts: list[str],
        docs: list,
        written: dict[int, list[int]],
        captions: list[str],
        speller: Callable,
    ) -> dict[int, tuple[tuple[int, int], ...]]:
        """Misspelt nouns and adjectives of ``docs`` mended in ``texts`` by the speller that
        ``speller`` makes of the pipeline, and those texts parsed again in ``docs`` (family
        ``spell``, :mod:`sgprep.parse.rules_spell`); each
        changed text's map to its caption (``captions``, one for each text) goes into
        ``written`` (through the shorthand's map where it has one). A word the caption writes
        with a capital (a name, or all-caps the ``noise`` family wrote in lower case) is left.
        For each text changed, where its mended words are."""
        if self._speller is None:
            self._speller = speller(self.nlp)
        changed: dict[int, tuple[tuple[int, int], ...]] = {}
        for k, doc in enumerate(docs):
            edits = self._speller.edits(doc)
            if edits:
                where = written.get(k)
                edits = [e for e in edits if _lower_in_caption(captions[k], e[0], e[1], where)]
            if not edits:
                continue
            texts[k], offsets = rewrite(texts[k], edits)
            if k in written:
                offsets = [written[k][j] for j in offsets]
            written[k] = offsets
            ranges, moved = [], 0
            for start, end, word in edits:
                ranges.append((start + moved, start + moved + len(word)))
                moved += len(word) - (end - start)
            changed[k] = tuple(ranges)
        for k, doc in zip(changed, self._pipe([texts[k] for k in changed])):
            docs[k] = doc
        self._counts["spelling_mended"] += len(changed)
        return changed

    def _pipe(self, texts: list[str]) -> list:
        """spaCy's docs of ``texts``: ``nlp.pipe``, with the attribute ruler and the
        lemmatizer memoised where the pipeline allows it (:mod:`sgprep.parse.rules_spacy`:
        the same annotations)."""
        annotate = self._annotators
        batch = min(self.settings.batch_size, PIPE_BATCH)
        docs = self.nlp.pipe(texts, batch_size=batch, disable=annotate.names)
        return [annotate(doc) for doc in docs] if annotate.names else list(docs)

    def _repair_steps(self) -> list[tuple[Callable, tuple]]:
        """The repairs, in the order they run, each with its arguments after the doc (made
        again when the families or the word index change)."""
        return [(repair, args) for repair, args, _ in self._tested_steps()]

    def _tested_steps(self) -> list[tuple[Callable, tuple, Callable | None]]:
        """:meth:`_repair_steps`, each with its ``needs`` test (None: it always runs)."""
        key = (self.families, self._words)
        if self._steps is None or self._steps[0] != key:
            steps = self._make_repair_steps()
            tested = [(repair, args, getattr(repair, "needs", None)) for repair, args in steps]
            self._steps = key, tested
        return self._steps[1]

    def _make_repair_steps(self) -> list[tuple[Callable, tuple]]:
        words, verbs = self._words, self._verbs
        return repair_steps(Context(self.families, words, verbs, self._verb_lemma))

    def _repaired(self, doc) -> tuple[object, DocView]:
        """The doc after the repairs, and a view of it. A repair runs only where its
        ``needs`` test (:func:`sgprep.parse.rules_view.needs`) says it may change the doc; a
        repair without one always runs. After a repair ran, the view is read again. A repair
        whose heads would be no tree is refused (:class:`TreeRefused`), counted in ``stats()``
        as ``repair_refused/<repair>``."""
        view = None
        for repair, args, test in self._tested_steps():
            if test is not None:
                if view is None:
                    view = DocView(doc)
                if not test(view, *args):
                    continue
            try:
                doc = repair(doc, *args)
            except TreeRefused:  # its heads were no tree: the doc keeps the ones it had
                self._counts[f"repair_refused/{repair.__name__}"] += 1
            view = None
        return doc, view if view is not None else DocView(doc)

    def _graph(self, doc, shift: int = 0, text: str | None = None) -> SceneGraph | ParseError:
        """The graph of one parsed doc; ``text`` is the doc's text when the caller has it
        (spaCy keeps it exactly, and rebuilds it from the tokens on every ``doc.text``)."""
        skip = self._prefix_tokens if shift else 0
        try:
            doc, view = self._repaired(doc)
            other_form = "surface" if self.predicate_form == "lemma" else "lemma"
            drafts, relations, (others,) = GraphBuilder(
                doc, self.predicate_form, skip=skip, families=self.families, view=view
            ).build_forms(other_form)
            paired = pair_forms(relations, others)
            index = {d.head.i: k for k, d in enumerate(drafts)}
            text = doc.text if text is None else text  # spaCy rebuilds it on every access
            hooks = builder_hooks(self.families)
            entities = [self._entity(doc, d, shift, text, hooks) for d in drafts]
            lemma = self.predicate_form == "lemma"
            return SceneGraph(
                entities=entities,
                relations=[
                    Relation(
                        subject=index[s],
                        predicate=p,
                        object=index[o],
                        predicate_lemma=p if lemma else q,
                        predicate_surface=q if lemma else p,
                        span=relation_span(entities, index[s], index[o]),
                    )
                    for (s, p, o), q in zip(relations, paired)
                ],
                parser=self.name,
            )
        except ValidationError as exc:
            return ParseError("invalid_graph", f"rules made an invalid graph: {exc}")
        except Exception as exc:  # one odd parse must not sink the batch
            log.debug("rule parser failed on %r", doc.text[:200], exc_info=True)
            return ParseError("rule_error", f"{type(exc).__name__}: {exc}")

    @staticmethod
    def _entity(
        doc,
        draft: EntityDraft,
        shift: int = 0,
        text: str | None = None,
        hooks: SimpleNamespace | None = None,
    ) -> Entity:
        first = draft.start
        while first < draft.end and doc[first].is_space:  # blanked noise before the phrase
            first += 1
        start = doc[first].idx
        last = doc[draft.end]
        end = last.idx + len(last.text)
        head = draft.head
        word, pos = head.lower_, head.pos_  # read once: spaCy looks each up on every read
        if hooks is None:
            hooks = builder_hooks(FAMILIES)
        start = hooks.wooden(doc, draft, start)  # "a wood bench": bench is wooden
        if draft.singular and last.i == head.i:  # "two zebras next to each other": a zebra
            lemma = head.lemma_.lower()
            if word.startswith(lemma):
                end = last.idx + len(lemma)
        if word in PLURALIA_TANTUM or pos == "PROPN":
            lemma = word if pos != "PROPN" else head.text
        else:
            lemma = head.lemma_.lower()
        lemma = hooks.head_form(word, lemma)  # "a guy in a red cap" -> person
        if draft.name is not None:  # "a red haired girl": hair
            lemma = draft.name
        return Entity(
            text=(doc.text if text is None else text)[start:end],
            head=lemma if lemma.strip() else head.text,
            attributes=draft.attributes,
            count=draft.count,
            span=(start - shift, end - shift),
        )
