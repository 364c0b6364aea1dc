"""The negatives stage: scene graphs -> positives and hard negatives (``neg``).

Per sample: the caption is the first positive; with the ``subgraph`` strategy its one- and
two-object sub-graphs are positives too. Each positive gets up to ``per_sample`` (caption) or
``per_subgraph`` (sub-graphs) negatives, drawn family by family with ``family_weights`` among
the families of the chosen strategies, realised in place where possible, and checked by the
validity rules (refusals counted as ``rejected/<reason>``).

The random generator of a sample is seeded from its key and ``seed`` only, so the same
sample gets the same negatives whatever the batch, shard, worker or executor.
"""

from __future__ import annotations

import gc
import hashlib
import logging
import random
from collections import Counter, defaultdict
from typing import Annotated

from pydantic import Field, field_validator, model_validator

from sgprep.config import Flag, RunContext
from sgprep.exec.stage import Stage, StageSettings
from sgprep.negatives.llm_judge import LLMJudge, LLMJudgeSettings
from sgprep.negatives.realise import Realiser
from sgprep.negatives.scene import Memos, Scene, Strategy
from sgprep.negatives.strategies import FAMILIES, load_strategy
from sgprep.negatives.strategies import STRATEGIES as PERTURBING
from sgprep.negatives.subgraph import subgraphs
from sgprep.negatives.validity import (
    ALWAYS_CHANGED,
    REORDERING,
    entity_key,
    normalise,
    reordered_list,
    signature,
)
from sgprep.negatives.vocab import Vocabulary, load_vocab
from sgprep.schema import Negative, Negatives, Positive, Sample, SceneGraph

log = logging.getLogger(__name__)
#: the perturbing strategies (:mod:`sgprep.negatives.strategies`), and sub-graph positives
STRATEGIES = (*PERTURBING, "subgraph")
#: METHOD.md: 0.15 for single-object attribute changes, the rest split evenly.
ATTRIBUTE_WEIGHT = 0.15
#: Connect negatives per positive at most (issue 18: they were two thirds of all negatives).
MAX_CONNECT = 1
#: Candidates of one family built for one positive at most (most are refused, each build
#: costs about the graph's size): :data:`MAX_TRIES`, fewer for a big graph (``TRY_WORK``
#: entities and relations in all, :data:`MIN_TRIES` at least), so that the cost of a huge
#: or dense graph stays bounded: 500 entities in a chain, 10,000 relations between two
#: (issue 36). Counted as ``rejected/tries_capped``; an ordinary caption never tries so many.
MAX_TRIES, MIN_TRIES, TRY_WORK = 96, 4, 40_000
#: ... and only for a positive that the other families gave fewer negatives than this.
CONNECT_BELOW = 2
DEFAULT_WEIGHTS = {
    k: (
        ATTRIBUTE_WEIGHT
        if k == "replace_attribute"
        else round((1 - ATTRIBUTE_WEIGHT) / (len(FAMILIES) - 1), 6)
    )
    for k in FAMILIES
}


class NegativesSettings(StageSettings):
    strategies: Annotated[list[str], Flag("--strategy")] = Field(
        default_factory=lambda: ["swap", "shuffle", "connect"],
        description=f"Comma list of {', '.join(STRATEGIES)}; or mine-images alone (corpus-wide "
        "image negatives, written as a table: `sgprep negatives` only).",
    )
    per_sample: int = Field(default=4, ge=0, description="Negatives of the caption.")
    per_subgraph: int = Field(default=1, ge=0, description="Negatives of each sub-graph positive.")
    max_subgraphs: int = Field(default=6, ge=0, description="Sub-graph positives per sample.")
    family_weights: dict[str, float] = Field(
        default_factory=lambda: dict(DEFAULT_WEIGHTS),
        description="Sampling weight per family, e.g. 'replace_attribute=0.15,swap_object=0.2'.",
    )
    vocab: Annotated[str | None, Flag(path=True)] = Field(
        default=None,
        description="Vocabulary JSON from `sgprep vocab` (default: the one shipped with sgprep).",
    )
    plausibility: bool = Field(
        default=True,
        description=(
            "Refuse changes the co-occurrence statistics (of --vocab, else the bundled ones) call "
            "implausible, and replacements by synonyms; draw replacements seen in the same context."
        ),
    )
    template: bool = Field(
        default=False,
        description=(
            "Write a negative by template when the caption cannot be edited in place (off: such "
            "negatives are refused as no_span_edit; templates read unlike captions)."
        ),
    )
    max_length_ratio: float = Field(
        default=1.75,
        ge=1.0,
        le=10.0,
        description=(
            "Refuse a negative more than this many times as long as its caption, in words, or "
            "shorter by the same factor (too_long, too_short): length must not give it away."
        ),
    )
    connect_max_length_ratio: float = Field(
        default=1.9,
        ge=1.0,
        le=10.0,
        description=(
            "Refuse a connect negative more than this many times as long as its caption, in "
            "characters, or shorter by the same factor (connect_too_long, connect_too_short); "
            "of its options, connect takes the one closest to the caption's length."
        ),
    )
    llm_judge: Annotated[
        LLMJudgeSettings, Flag(hidden=True, applies=lambda s: s.llm_judge.enabled)
    ] = Field(
        default_factory=LLMJudgeSettings,
        description="An LLM that drops disfluent or implausible negatives (off by default; set "
        "in a pipeline YAML).",
    )
    graphs: bool = Field(
        default=False,
        description="Keep a scene graph on each negative (the "
        "perturbed one) and each positive; off: text only (the caption's graph "
        "is sg.json), which makes neg.json 2.5x smaller on FACTUAL.",
    )
    table: bool = Field(
        default=False,
        description="Also write negatives/NNNNN.parquet per "
        "shard: one row per negative (key, positive, negative, kind, "
        "realisation, level, positive_index, strategy, image_key).",
    )

    @field_validator("strategies")
    @classmethod
    def _strategies(cls, value: list[str]) -> list[str]:
        value = [v.strip().lower() for v in value]  # names are case-insensitive: "Shuffle"
        unknown = sorted(set(value) - set(STRATEGIES))
        if unknown:
            raise ValueError(f"unknown strategies {unknown}; choose from {list(STRATEGIES)}")
        return list(dict.fromkeys(value))

    @model_validator(mode="after")
    def _weights(self) -> NegativesSettings:
        unknown = sorted(set(self.family_weights) - set(FAMILIES))
        if unknown:
            raise ValueError(f"unknown families {unknown}; choose from {list(FAMILIES)}")
        if any(w < 0 for w in self.family_weights.values()):
            raise ValueError("family weights must be >= 0")
        return self


def sample_seed(key: str, seed: int) -> int:
    return int.from_bytes(hashlib.sha256(f"{seed}\x00{key}".encode()).digest()[:8], "big")


class NegativesStage(Stage):
    name = "negatives"
    Settings = NegativesSettings
    requires = frozenset({"sg"})
    provides = frozenset({"neg"})

    def __init__(
        self, settings: NegativesSettings | None = None, context: RunContext | None = None
    ):
        super().__init__(settings, context)
        s = self.settings
        self.families = [
            k
            for k, strategy in FAMILIES.items()
            if strategy in s.strategies and s.family_weights.get(k, 0) > 0
        ]
        self.vocab: Vocabulary | None = None
        #: judgments that depend on the statistics alone, kept across graphs
        self.memos: Memos | None = None
        #: strategy -> its class, for the strategies of self.families (loaded at setup)
        self.strategies: dict[str, type[Strategy]] | None = None
        self.judge: LLMJudge | None = None
        self.counts: Counter[str] = Counter()

    def setup(self) -> None:
        if self.vocab is None:
            self.vocab = load_vocab(self.settings.vocab)
            self.memos = Memos(self.vocab.cooc if self.settings.plausibility else None)
            if self.settings.plausibility and self.vocab.cooc is not None:
                # the statistics' indexes now: not within the first samples' time budgets,
                # and shared by the workers forked after this setup
                self.vocab.cooc.prepare()
        if self.strategies is None:
            self.strategies = {FAMILIES[k]: load_strategy(FAMILIES[k]) for k in self.families}
        if self.settings.llm_judge.enabled and self.judge is None:
            self.judge = LLMJudge(self.settings.llm_judge)

    @property
    def fork_safe(self) -> bool:
        """The vocabulary is plain data once loaded; the LLM judge holds a client (a pool of
        connections), which forked workers must not share."""
        return not self.settings.llm_judge.enabled

    def teardown(self) -> None:
        if self.judge is not None:
            self.judge.close()
            self.judge = None

    def stats(self) -> dict[str, int]:
        counts = Counter(self.counts)
        if self.judge is not None:
            counts.update(self.judge.stats())
        return dict(counts)

    def process_batch(self, batch: list[Sample]) -> list[Sample]:
        self.setup()
        was_enabled = gc.isenabled()
        gc.disable()  # see _negatives_of
        try:
            self._negatives_of(batch)
        finally:
            if was_enabled:
                gc.enable()
        if self.judge is not None:
            self._judged(batch)
        return batch

    def _judged(self, batch: list[Sample]) -> None:
        """Drop the negatives the LLM judge calls disfluent or implausible (one request per
        distinct text of the batch), and take them off the counters of what was made."""
        negs = [s.neg for s in batch if s.ok and s.neg is not None]
        flags = iter(self.judge.keep([n for neg in negs for n in neg.negatives]))
        for neg in negs:
            kept = []
            for n in neg.negatives:
                if next(flags):
                    kept.append(n)
                    continue
                self.counts["negatives"] -= 1
                self.counts[f"kind/{n.kind}"] -= 1
                self.counts[f"realised/{n.realisation}"] -= 1
            if neg.negatives and not kept:
                self.counts["samples_without_negatives"] += 1
            neg.negatives = kept

    def _negatives_of(self, batch: list[Sample]) -> None:
        """The batch's negatives, with the cyclic garbage collector paused: the work makes
        many small acyclic objects (freed by reference counting) and no cycles, and each
        collection the allocations trigger would walk every live object of the process
        (the parser's model, the chunk's samples): a third of the time, measured."""
        for sample in batch:
            if sample.sg is None:
                sample.fail("negatives", "no_graph", "sample has no scene graph (run parse first)")
                continue
            if not sample.caption:
                sample.fail("negatives", "no_caption", "sample has no caption")
                continue
            try:
                detected = None if sample.det is None else [b.label for b in sample.det.objects]
                sample.neg = self.negatives(sample.key, sample.caption, sample.sg, detected)
            except Exception as exc:  # one odd graph must not sink the batch
                log.debug("negatives failed on %s", sample.key, exc_info=True)
                self.counts["errors"] += 1
                sample.fail("negatives", "negatives_error", f"{type(exc).__name__}: {exc}")

    def negatives(
        self, key: str, caption: str, graph: SceneGraph, detected: list[str] | None = None
    ) -> Negatives:
        """The positives and negatives of one sample. ``detected``: the labels a detector
        found in its image (det.json), if it ran: connect then adds only a thing of a
        detector class that it did not find (counted as ``connect/absent_by_detector``)."""
        self.setup()
        rng = random.Random(sample_seed(key, self.context.seed))
        keep = self.settings.graphs
        positives = [
            Positive(
                text=caption, kind="caption", graph=graph if keep else None, realisation="caption"
            )
        ]
        sources = [(caption, graph, self.settings.per_sample)]
        if "subgraph" in self.settings.strategies and len(graph.entities) > 1:
            subs = subgraphs(caption, graph)
            if len(subs) > self.settings.max_subgraphs:
                subs = rng.sample(subs, self.settings.max_subgraphs)
            for sub in subs:
                positives.append(
                    Positive(
                        text=sub.text,
                        kind="subgraph",
                        graph=sub.graph if keep else None,
                        realisation=sub.realisation,
                    )
                )
                sources.append((sub.text, sub.graph, self.settings.per_subgraph))
            self.counts["positives/subgraph"] += len(subs)
        true_texts = {normalise(p.text) for p in positives}
        seen: set[str] = set()
        negatives: list[Negative] = []
        for index, (text, g, k) in enumerate(sources):
            negatives += self._perturb(text, g, k, rng, true_texts, seen, detected, index)
        self.counts["graphs"] += 1
        self.counts["negatives"] += len(negatives)
        if not negatives:
            self.counts["samples_without_negatives"] += 1
        return Negatives(positives=positives, negatives=negatives)

    def _perturb(
        self,
        text: str,
        graph: SceneGraph,
        k: int,
        rng: random.Random,
        true_texts: set[str],
        seen: set[str],
        detected: list[str] | None = None,
        index: int = 0,
    ) -> list[Negative]:
        """Up to ``k`` negatives of the positive ``index`` (0: the caption), ``text``."""
        if k == 0 or not graph.entities:
            return []
        # tallies of this positive (plain int defaults: three Counters a graph cost more)
        rejected: defaultdict[str, int] = defaultdict(int)
        scene = Scene(
            graph,
            self.vocab,
            rng,
            rejected,
            self.memos.cooc,
            text,
            self.settings.max_length_ratio,
            detected,
            self.settings.connect_max_length_ratio,
            self.memos,
        )
        pools, strategies = {}, {}  # strategies: one per strategy of the families, on first use
        for family in self.families:
            name = FAMILIES[family]
            strategy = strategies.get(name)
            if strategy is None:
                strategy = strategies[name] = self.strategies[name](scene)
            cands = strategy.candidates(family)
            if cands:
                pools[family] = cands
        realiser, original, out = None, None, []  # realiser: on first use
        made: defaultdict[tuple[str, str], int] = defaultdict(int)
        made_connect = 0
        tries: defaultdict[str, int] = defaultdict(int)
        most = max(
            MIN_TRIES,
            min(MAX_TRIES, TRY_WORK // (1 + len(graph.entities) + len(graph.relations))),
        )
        # kind -> summed length ratios, in thousandths
        lengths: defaultdict[str, int] = defaultdict(int)
        weights = self.settings.family_weights
        text_words = max(1, len(text.split()))
        while pools and len(out) < k:
            # connect adds words (a length cue) and is easy to make: at most MAX_CONNECT per
            # positive, drawn only when no other family has candidates left
            others = (  # read only: pools itself where connect has none left
                pools
                if "connect" not in pools
                else {f: c for f, c in pools.items() if f != "connect"}
            )
            if "connect" in pools and (
                made_connect >= MAX_CONNECT or (not others and len(out) >= CONNECT_BELOW)
            ):
                del pools["connect"]
                continue
            family = _weighted(rng, others, weights) if others else next(iter(pools))
            cands = pools[family]
            tries[family] += 1
            if tries[family] > most:
                rejected["tries_capped"] += 1
                del pools[family]
                continue
            i = rng.randrange(len(cands))  # a candidate at random, taken out in O(1)
            cands[i], cands[-1] = cands[-1], cands[i]
            build = cands.pop()
            if not cands:
                del pools[family]
            # an addition (always longer than its caption) only where it is the caption's only
            # negative; a phrase put in place of another, always
            scene.may_add = not out
            p = build()
            if p is None:
                continue
            if p.kind not in ALWAYS_CHANGED:
                if original is None:
                    original = signature(graph)
                    # the perturbed graphs share the span-less entities: describe each once
                    keys = {id(b): k for b, k in zip(scene.bare, map(entity_key, graph.entities))}
                if signature(p.graph, keys) == original:
                    rejected["same_graph"] += 1
                    continue
            if realiser is None:
                realiser = Realiser(text, graph)
            neg_text, how = realiser.realise(p, self.settings.template)
            if neg_text is None:
                rejected[how] += 1
                continue
            ratio = len(neg_text.split()) / text_words
            if not 1 / self.settings.max_length_ratio <= ratio <= self.settings.max_length_ratio:
                rejected["too_long" if ratio > 1 else "too_short"] += 1
                continue
            if p.kind in REORDERING and reordered_list(text, neg_text, graph):
                rejected["list_reorder"] += 1
                continue
            norm = normalise(neg_text)
            if norm in true_texts or norm in seen:
                rejected["equal_text" if norm in true_texts else "duplicate"] += 1
                continue
            seen.add(norm)
            out.append(
                Negative(
                    text=neg_text,
                    strategy=p.strategy,
                    kind=p.kind,
                    positive=text,
                    positive_index=index,
                    level="caption" if index == 0 else "subgraph",
                    realisation=how,
                    graph=p.graph if self.settings.graphs else None,
                )
            )
            made[p.kind, how] += 1
            made_connect += p.kind == "connect"
            lengths[p.kind] += round(1000 * ratio)
        if detected is not None and made_connect:
            self.counts["connect/absent_by_detector"] += made_connect
        for kind, permille in lengths.items():
            self.counts[f"length_ratio_permille/{kind}"] += permille
        for (kind, how), n in made.items():
            self.counts[f"kind/{kind}"] += n
            self.counts[f"realised/{how}"] += n
        for reason, n in rejected.items():
            self.counts[f"rejected/{reason}"] += n
        return out


def _weighted(rng: random.Random, pools: dict[str, list], weights: dict[str, float]) -> str:
    """A family among those with candidates left, by weight (one random draw, none when
    only one is left)."""
    if len(pools) == 1:
        return next(iter(pools))
    total = sum(weights.get(n, 0.0) for n in pools)
    r = rng.random() * total
    for name in pools:
        r -= weights.get(name, 0.0)
        if r < 0:
            return name
    return name
