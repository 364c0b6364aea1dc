"""Score a caption parser against gold scene graphs (``sgprep eval``).

Gold files:
- FACTUAL CSV (``.csv``): columns ``image_id, region_id, caption, scene_graph``, the graph in
  FACTUAL's string form (see :mod:`sgprep.parse.factual_format`);
- our JSONL (``.jsonl``): one ``{"caption": ..., "sg": <SceneGraph JSON>}`` per line (``sg`` may
  also be a FACTUAL string); an optional ``"id"`` is kept.

Both graphs, gold and predicted, become SPICE-style tuple sets:
- objects ``(e)``: one per entity, named by :func:`~sgprep.parse.factual_format.entity_name`
  (text without determiners, numbers and its attributes: "two tennis players" -> "tennis players");
- attributes ``(e, a)``: one per attribute, and ``(e, N)`` for a count N;
- relations ``(s, p, o)``.

Matching rules (exact match of normalised tuples; a set, so repeated tuples count once):
1. each element is lowercased and its whitespace collapsed;
2. it is lemmatised token by token with the spaCy model of ``settings.spacy_model`` (tagger +
   lemmatizer, each element on its own, so "sitting on" -> "sit on", "players" -> "player");
3. articles (a, an, the) and punctuation tokens are dropped, number words become digits
   ("two" -> "2");
4. no synonyms: unlike SPICE and FACTUAL's own metric there is no WordNet synonym matching, so
   "man"/"guy" or "on"/"atop" do not match. Figures are therefore not comparable with FACTUAL's
   published SPICE scores (which use its evaluator with synonyms on); use FACTUAL's own metric
   for the benchmark.

Scores: precision, recall and F1 per tuple kind and over all tuples, micro-averaged over the gold
set (matched / predicted, matched / gold); ``spice_f1`` is the mean of per-caption F1 over all
tuples, as SPICE averages (a caption with no gold and no predicted tuples scores 1);
``set_match`` is the fraction of captions whose whole tuple set equals gold's. A caption the
parser fails on (ParseError) counts as an empty prediction and under ``errors``.

Fallbacks: a graph made by the fallback parser (``fallback_from`` set, e.g. spaCy standing in for
an unreachable LLM endpoint) is counted under ``fallbacks`` and its reason; a run where most
graphs came from the fallback is refused (:class:`EvalRefused`): its scores would be the
fallback's, labelled with the parser's name.
"""

from __future__ import annotations

import csv
import json
import logging
import time
from collections import Counter
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from pydantic import BaseModel, Field

from sgprep.parse.base import DEFAULT_SPACY_MODEL, ParseError, Parser, ParserSettings, make_parser
from sgprep.parse.factual_format import NUMBER_WORDS, entity_name, from_factual
from sgprep.schema import SceneGraph

log = logging.getLogger(__name__)

KINDS = ("objects", "attributes", "relations")
ARTICLES = {"a", "an", "the"}
FACTUAL_COLUMNS = ("caption", "scene_graph")

Fact = tuple[str, ...]  # one SPICE tuple: (e), (e, a) or (s, p, o)

#: Above this share of graphs from the fallback parser, a run is not scored.
MAX_FALLBACK_SHARE = 0.5


class EvalRefused(RuntimeError):
    """The run cannot be scored as the parser it names (most graphs came from the fallback)."""


class GoldItem(BaseModel):
    caption: str
    sg: SceneGraph
    id: str | None = None


class TupleScore(BaseModel):
    matched: int = 0
    predicted: int = 0
    gold: int = 0

    @property
    def precision(self) -> float:
        return self.matched / self.predicted if self.predicted else 0.0

    @property
    def recall(self) -> float:
        return self.matched / self.gold if self.gold else 0.0

    @property
    def f1(self) -> float:
        p, r = self.precision, self.recall
        return 2 * p * r / (p + r) if p + r else 0.0

    def add(self, predicted: set[Fact], gold: set[Fact]) -> None:
        self.matched += len(predicted & gold)
        self.predicted += len(predicted)
        self.gold += len(gold)

    def summary(self) -> dict[str, float | int]:
        return {
            "precision": round(self.precision, 4),
            "recall": round(self.recall, 4),
            "f1": round(self.f1, 4),
            "matched": self.matched,
            "predicted": self.predicted,
            "gold": self.gold,
        }


class ItemResult(BaseModel):
    caption: str
    id: str | None = None
    f1: float
    error: str | None = None
    missed: list[list[str]] = Field(default_factory=list, description="Gold tuples not predicted.")
    extra: list[list[str]] = Field(
        default_factory=list, description="Predicted tuples not in gold."
    )


class EvalReport(BaseModel):
    parser: str
    gold_file: str | None = None
    captions: int
    scores: dict[str, dict[str, float | int]] = Field(
        description="objects, attributes, relations, all -> precision, recall, f1, counts."
    )
    spice_f1: float = Field(description="Mean per-caption F1 over all tuples.")
    set_match: float = Field(description="Fraction of captions whose tuple set equals gold's.")
    errors: dict[str, int] = Field(default_factory=dict, description="ParseError reason -> count.")
    fallbacks: int = Field(default=0, description="Graphs made by the fallback parser.")
    fallback_share: float = Field(default=0.0, description="fallbacks / captions.")
    fallback_reasons: dict[str, int] = Field(
        default_factory=dict, description="Why the parser gave no graph, by reason."
    )
    seconds: float = 0.0
    captions_per_second: float = 0.0
    spacy_model: str
    items: list[ItemResult] = Field(default_factory=list)


class Normaliser:
    """Element -> comparable string (rules 1-3 of the module docstring), cached."""

    def __init__(self, spacy_model: str | None = DEFAULT_SPACY_MODEL):
        self.nlp = None
        if spacy_model:
            import spacy

            from sgprep.parse.base import SpacyModelMissing, missing_spacy_model

            try:
                self.nlp = spacy.load(spacy_model, disable=["parser", "ner"])
            except OSError as error:
                raise SpacyModelMissing(missing_spacy_model(spacy_model)) from error
        self._cache: dict[str, str] = {}

    def prepare(self, elements: Iterable[str]) -> None:
        """Lemmatise many elements in one pass (much faster than one at a time)."""
        todo = sorted({self._basic(e) for e in elements} - self._cache.keys())
        if self.nlp is None:
            self._cache.update((e, self._finish([(w, w) for w in e.split()], e)) for e in todo)
            return
        for text, doc in zip(todo, self.nlp.pipe(todo, batch_size=1000), strict=True):
            pairs = [(t.lower_, t.lemma_.lower()) for t in doc if not t.is_punct and not t.is_space]
            self._cache[text] = self._finish(pairs, text)

    def __call__(self, element: str) -> str:
        text = self._basic(element)
        if text not in self._cache:
            self.prepare([text])
        return self._cache[text]

    @staticmethod
    def _basic(element: str) -> str:
        return " ".join(element.lower().split())

    @staticmethod
    def _finish(pairs: list[tuple[str, str]], text: str) -> str:
        words = []
        for word, lemma in pairs:
            if word in ARTICLES:
                continue
            words.append(str(NUMBER_WORDS.get(word, lemma or word)))
        return " ".join(words) or text


def raw_tuples(graph: SceneGraph) -> dict[str, set[Fact]]:
    """Un-normalised SPICE tuples of a graph, by kind."""
    names = [entity_name(e) for e in graph.entities]
    tuples: dict[str, set[Fact]] = {kind: set() for kind in KINDS}
    for name, entity in zip(names, graph.entities, strict=True):
        tuples["objects"].add((name,))
        tuples["attributes"].update((name, a) for a in entity.attributes)
        if entity.count is not None:
            tuples["attributes"].add((name, str(entity.count)))
    tuples["relations"].update(
        (names[r.subject], r.predicate, names[r.object]) for r in graph.relations
    )
    return tuples


def graph_tuples(graph: SceneGraph | None, normalise: Normaliser) -> dict[str, set[Fact]]:
    if graph is None:
        return {kind: set() for kind in KINDS}
    return {
        kind: {tuple(normalise(e) for e in t) for t in tuples}
        for kind, tuples in raw_tuples(graph).items()
    }


def _caption_f1(predicted: set[Fact], gold: set[Fact]) -> float:
    if not predicted and not gold:
        return 1.0
    score = TupleScore()
    score.add(predicted, gold)
    return score.f1


def evaluate(
    parser: Parser,
    gold_items: Sequence[GoldItem],
    *,
    normaliser: Normaliser | None = None,
    batch_size: int | None = None,
    keep_items: bool = False,
    progress: bool = False,
    max_fallback_share: float = MAX_FALLBACK_SHARE,
) -> EvalReport:
    """Parse every gold caption with ``parser`` (already set up) and score it. Raises
    :class:`EvalRefused` when more than ``max_fallback_share`` of the graphs are the fallback's."""
    normaliser = normaliser or Normaliser(parser.settings.spacy_model)
    batch_size = batch_size or parser.settings.batch_size
    start = time.perf_counter()
    predictions: list[SceneGraph | ParseError] = []
    batches = range(0, len(gold_items), batch_size)
    if progress:
        from rich.progress import track

        batches = track(batches, description=f"parsing with {parser.name}", transient=True)
    for i in batches:
        captions = [item.caption for item in gold_items[i : i + batch_size]]
        batch = parser.parse_batch(captions)
        if len(batch) != len(captions):
            raise RuntimeError(
                f"parser {parser.name!r} returned {len(batch)} results for {len(captions)} captions"
            )
        predictions += batch
    seconds = time.perf_counter() - start
    fallbacks = _fallbacks(predictions)
    share = sum(fallbacks.values()) / len(predictions) if predictions else 0.0
    if share > max_fallback_share:
        raise EvalRefused(
            f"{sum(fallbacks.values())} of {len(predictions)} graphs ({share:.0%}) came from the "
            f"fallback parser, not from {parser.name!r} (why: "
            f"{', '.join(f'{k} {v}' for k, v in sorted(fallbacks.items()))}); their scores would "
            f"not be {parser.name!r}'s. Fix the cause (is the endpoint up?) and evaluate again"
        )

    graphs = [p for p in predictions if isinstance(p, SceneGraph)] + [g.sg for g in gold_items]
    normaliser.prepare(e for g in graphs for ts in raw_tuples(g).values() for t in ts for e in t)

    scores = {kind: TupleScore() for kind in (*KINDS, "all")}
    errors: Counter[str] = Counter()
    f1s, matches, items = [], 0, []
    for item, prediction in zip(gold_items, predictions, strict=True):
        error = prediction if isinstance(prediction, ParseError) else None
        if error is not None:
            errors[error.reason] += 1
        pred = graph_tuples(None if error else prediction, normaliser)
        gold = graph_tuples(item.sg, normaliser)
        for kind in KINDS:
            scores[kind].add(pred[kind], gold[kind])
        pred_all, gold_all = set().union(*pred.values()), set().union(*gold.values())
        scores["all"].add(pred_all, gold_all)
        f1s.append(_caption_f1(pred_all, gold_all))
        matches += pred_all == gold_all
        if keep_items:
            items.append(
                ItemResult(
                    caption=item.caption,
                    id=item.id,
                    f1=round(f1s[-1], 4),
                    error=f"{error.reason}: {error.message}" if error else None,
                    missed=sorted(list(t) for t in gold_all - pred_all),
                    extra=sorted(list(t) for t in pred_all - gold_all),
                )
            )
    n = len(gold_items)
    return EvalReport(
        parser=parser.name,
        captions=n,
        scores={kind: score.summary() for kind, score in scores.items()},
        spice_f1=round(sum(f1s) / n, 4) if n else 0.0,
        set_match=round(matches / n, 4) if n else 0.0,
        errors=dict(errors),
        fallbacks=sum(fallbacks.values()),
        fallback_share=round(share, 4),
        fallback_reasons=dict(sorted(fallbacks.items())),
        seconds=round(seconds, 3),
        captions_per_second=round(n / seconds, 1) if seconds else 0.0,
        spacy_model=parser.settings.spacy_model,
        items=items,
    )


def _fallbacks(predictions: Sequence[SceneGraph | ParseError]) -> Counter[str]:
    """Graphs the fallback parser made, by the reason the parser gave none."""
    return Counter(
        (p.fallback_reason or "unknown").split(":", 1)[0]
        for p in predictions
        if isinstance(p, SceneGraph) and p.fallback_from is not None
    )


def _load_factual_csv(path: Path) -> list[GoldItem]:
    with path.open(newline="", encoding="utf-8") as handle:
        reader = csv.DictReader(handle)
        missing = [c for c in FACTUAL_COLUMNS if c not in (reader.fieldnames or [])]
        if missing:
            raise ValueError(
                f"{path}: not a FACTUAL CSV, missing column(s) {', '.join(missing)} "
                f"(expected image_id, region_id, caption, scene_graph)"
            )
        items = []
        for row in reader:
            ids = [row[c] for c in ("image_id", "region_id") if row.get(c)]
            items.append(
                GoldItem(
                    caption=row["caption"],
                    sg=from_factual(row["scene_graph"], row["caption"], parser_name="gold"),
                    id="_".join(ids) or None,
                )
            )
    return items


def _load_jsonl(path: Path) -> list[GoldItem]:
    items = []
    with path.open(encoding="utf-8") as handle:
        for number, line in enumerate(handle, 1):
            if not line.strip():
                continue
            try:
                record: dict[str, Any] = json.loads(line)
                if isinstance(record.get("sg"), str):
                    record["sg"] = from_factual(record["sg"], record.get("caption", ""), "gold")
                if record.get("id") is not None:
                    record["id"] = str(record["id"])
                items.append(GoldItem.model_validate(record))
            except ValueError as error:  # JSON and pydantic errors alike
                raise ValueError(f"{path}:{number}: not a gold record: {error}") from error
    return items


def load_gold(path: Path | str) -> list[GoldItem]:
    """Gold items from a FACTUAL CSV (``.csv``) or our JSONL (anything else)."""
    path = Path(path)
    if path.suffix.lower() == ".csv":
        return _load_factual_csv(path)
    return _load_jsonl(path)


def _write_atomic(path: Path, text: str) -> None:
    from sgprep.io.safefs import atomic_write  # never written through a link

    path.parent.mkdir(parents=True, exist_ok=True)
    atomic_write(path, text.encode("utf-8"))


def run_eval(
    gold: Path,
    parser_name: str,
    settings: ParserSettings,
    output: Path | None = None,
    limit: int | None = None,
) -> EvalReport:
    """``sgprep eval``: load gold, parse its captions, score, and write the report JSON (with
    per-caption misses and extras) to ``output`` when given."""
    items = load_gold(gold)
    if limit is not None:
        items = items[:limit]
    log.info("evaluating parser %s on %d gold captions from %s", parser_name, len(items), gold)
    normaliser = Normaliser(settings.spacy_model)
    parser = make_parser(parser_name, settings)
    parser.setup()
    try:
        report = evaluate(
            parser, items, normaliser=normaliser, keep_items=output is not None, progress=True
        )
    finally:
        parser.teardown()
    report.gold_file = str(gold)
    if output is not None:
        _write_atomic(Path(output), report.model_dump_json(indent=2) + "\n")
    return report


def render(report: EvalReport):
    """The report as a rich Table (one row per tuple kind)."""
    from rich.table import Table

    errors = sum(report.errors.values())
    table = Table(
        title=f"parser {report.parser}: {report.captions} captions",
        caption=(
            f"mean caption F1 (SPICE-style) {report.spice_f1:.3f} | set match "
            f"{report.set_match:.3f} | errors {errors} | fallbacks {report.fallbacks} "
            f"({report.fallback_share:.0%}) | {report.captions_per_second:.0f} captions/s"
            " | exact lemma match, no synonyms"
        ),
    )
    for column in ("tuples", "precision", "recall", "F1", "matched", "predicted", "gold"):
        table.add_column(column, justify="left" if column == "tuples" else "right")
    for kind, score in report.scores.items():
        table.add_row(
            kind,
            f"{score['precision']:.3f}",
            f"{score['recall']:.3f}",
            f"{score['f1']:.3f}",
            str(score["matched"]),
            str(score["predicted"]),
            str(score["gold"]),
            style="bold" if kind == "all" else None,
        )
    return table
