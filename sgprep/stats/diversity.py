"""What the hard negatives of each kind bring in, and whether words alone give them away
(issue 32: "measure it where people look"). Shown by ``sgprep stats`` and
``benchmarks/text_only.py``, both through :func:`diversity`.

Per kind, over (caption id, caption, negative, kind) rows (the caption: the positive the
negative was made from, a sub-graph's text for ``KIND@subgraph``):

- ``distinct_words``: distinct content words brought in, i.e. lower-cased tokens of the negative
  that are not tokens of its caption (the blind judges' tokens, ``textcheck.tokens``), with
  punctuation and spaCy's English stop words left out;
- ``top_word`` and ``top_word_share``: the word brought in by the most negatives, and the share
  of the kind's negatives that bring it in (1.0: every negative adds the same word);
- ``detector_accuracy``: a bag-of-words multinomial naive Bayes (unigrams and bigrams, Laplace
  smoothing) learns "negative" against "caption" from the pairs of a seeded random half of the
  captions (split by caption, so no caption is seen in both halves); on each pair of the other
  half it picks the text with the higher log-odds of "negative" (a tie counts a half). 0.5: the
  words alone tell nothing; 1.0: a text-only model needs no image to reject these negatives;
- ``caption_share``: the share of all captions (those without a negative too) with at least one
  negative of the kind.

``overall`` holds the same figures over every kind together (kind ``all``).
"""

from __future__ import annotations

import importlib.util
import math
import random
from collections import Counter, defaultdict
from collections.abc import Iterable
from functools import lru_cache
from itertools import repeat
from pathlib import Path
from typing import TYPE_CHECKING

from pydantic import BaseModel, Field

from sgprep.negatives.textcheck import tokens

if TYPE_CHECKING:
    import duckdb


class KindDiversity(BaseModel):
    kind: str
    negatives: int
    captions: int = Field(description="captions with at least one negative of the kind")
    caption_share: float | None = Field(description="captions / all captions")
    distinct_words: int = Field(description="distinct content words brought in")
    top_word: str | None = Field(description="the content word the most negatives bring in")
    top_word_share: float | None = Field(description="share of the negatives that bring it in")
    detector_pairs: int = Field(description="held-out pairs the text-only detector judged")
    detector_accuracy: float | None = Field(
        description="share of held-out pairs where it picks the negative (0.5: chance)"
    )


class Diversity(BaseModel):
    captions: int = Field(description="all captions, those without a negative too")
    seed: int
    train_captions: int = Field(description="captions whose pairs trained the detector")
    train_pairs: int = Field(0, description="the pairs it learned from")
    kinds: list[KindDiversity] = Field(default_factory=list)
    overall: KindDiversity | None = None


@lru_cache(maxsize=1)
def _stop_words() -> frozenset[str]:
    """spaCy's English stop words, read from their module file without importing spaCy (seconds
    of numpy, thinc, ...) where that file stands alone, as it does in spaCy 3."""
    spec = importlib.util.find_spec("spacy")
    for folder in (spec.submodule_search_locations or []) if spec else []:
        path = Path(folder) / "lang" / "en" / "stop_words.py"
        found = importlib.util.spec_from_file_location("_sgprep_stop_words", path)
        if found and found.loader and path.is_file():
            module = importlib.util.module_from_spec(found)
            try:
                found.loader.exec_module(module)
                return frozenset(w.lower() for w in module.STOP_WORDS)
            except Exception:  # noqa: BLE001 - the file changed: import it the usual way
                break
    from spacy.lang.en.stop_words import STOP_WORDS

    return frozenset(w.lower() for w in STOP_WORDS)


@lru_cache(maxsize=1)
def _function_words() -> frozenset[str]:
    """spaCy's stop words and the words of spatial relations (sgprep's one list of them:
    "near", "beside", "left" are in no stop list, yet say where, not what)."""
    from sgprep.negatives.words import SPATIAL_WORDS

    return _stop_words() | SPATIAL_WORDS


@lru_cache(maxsize=8192)  # a caption's negatives come together: its words are split once
def content_words(text: str) -> frozenset[str]:
    """The lower-cased words of the text, less punctuation, stop words and the words of
    spatial relations."""
    stop = _function_words()
    return frozenset(t for t in tokens(text) if t[0].isalnum() and t not in stop)


def brought_in(caption: str, negative: str) -> frozenset[str]:
    """Content words of the negative that its caption does not have."""
    return content_words(negative) - content_words(caption)


def _features(text: str) -> list[str]:
    words = tokens(text)
    return words + [f"{a} {b}" for a, b in zip(words, words[1:])]


class NaiveBayes:
    """Multinomial naive Bayes over unigrams and bigrams, "negative" against "caption", with
    Laplace smoothing. :meth:`log_odds` sums over a text's features seen in training (with their
    multiplicity) log P(f | negative) - log P(f | caption); the class priors are equal (every
    pair gives one text to each) and, comparing two texts, cancel anyway."""

    def __init__(self, pairs: Iterable[tuple[str, str]]):
        caption: Counter[str] = Counter()
        negative: Counter[str] = Counter()
        for cap, neg in pairs:
            caption.update(_features(cap))
            negative.update(_features(neg))
        vocabulary = caption.keys() | negative.keys()
        v = len(vocabulary)
        n_cap, n_neg = caption.total() + v, negative.total() + v
        self.weights = {
            f: math.log((negative[f] + 1) / n_neg) - math.log((caption[f] + 1) / n_cap)
            for f in vocabulary
        }

    def log_odds(self, text: str) -> float:
        features = _features(text)
        return sum(map(self.weights.get, features, repeat(0.0, len(features))))

    def picks_negative(self, caption: str, negative: str) -> float:
        """1 when the negative has the higher log-odds of "negative", 0 when lower, 0.5 on a tie."""
        a, b = self.log_odds(negative), self.log_odds(caption)
        return 1.0 if a > b else 0.0 if a < b else 0.5


class _Tally:
    def __init__(self, kind: str):
        self.kind = kind
        self.negatives = 0
        self.captions: set = set()
        self.words: Counter[str] = Counter()  # word -> negatives that bring it in
        self.judged = 0
        self.picked = 0.0

    def add(self, caption_id, words: frozenset[str]) -> None:
        self.negatives += 1
        self.captions.add(caption_id)
        self.words.update(words)

    def row(self, captions: int) -> KindDiversity:
        top = min(self.words.items(), key=lambda kv: (-kv[1], kv[0]), default=None)
        return KindDiversity(
            kind=self.kind,
            negatives=self.negatives,
            captions=len(self.captions),
            caption_share=len(self.captions) / captions if captions else None,
            distinct_words=len(self.words),
            top_word=top[0] if top else None,
            top_word_share=top[1] / self.negatives if top else None,
            detector_pairs=self.judged,
            detector_accuracy=self.picked / self.judged if self.judged else None,
        )


def diversity(
    rows: Iterable[tuple[object, str, str, str]], captions: int, seed: int = 0
) -> Diversity:
    """The per-kind table of (caption id, caption, negative text, kind) rows; ``captions``: how
    many captions the input holds, those without a negative too (at least the ids seen)."""
    tallies: dict[str, _Tally] = {}
    overall = _Tally("all")
    pairs: dict[object, list[tuple[str, str, str]]] = defaultdict(list)
    for caption_id, caption, negative, kind in rows:
        words = brought_in(caption, negative)
        tally = tallies.get(kind) or tallies.setdefault(kind, _Tally(kind))
        tally.add(caption_id, words)
        overall.add(caption_id, words)
        pairs[caption_id].append((kind, caption, negative))
    captions = max(captions, len(overall.captions))
    ids = sorted(pairs, key=str)
    train = set(random.Random(seed).sample(ids, len(ids) // 2))
    learned = [(c, n) for i in train for _, c, n in pairs[i]]
    if learned:
        model = NaiveBayes(learned)
        for i in ids:
            if i in train:
                continue
            for kind, caption, negative in pairs[i]:
                picked = model.picks_negative(caption, negative)
                for tally in (tallies[kind], overall):
                    tally.judged += 1
                    tally.picked += picked
    return Diversity(
        captions=captions,
        seed=seed,
        train_captions=len(train),
        train_pairs=len(learned),
        kinds=[tallies[k].row(captions) for k in sorted(tallies)],
        overall=overall.row(captions) if overall.negatives else None,
    )


def output_diversity(
    files: list[Path], con: duckdb.DuckDBPyConnection, seed: int = 0
) -> Diversity | None:
    """:func:`diversity` of an output's index parquets: the negatives as
    ``negatives.negative_rows`` reads them, over every sample with a caption; None without
    negatives."""
    from sgprep.stats.negatives import caption_count, negative_rows

    if not files:
        return None
    table = diversity(negative_rows(files, con), caption_count(files, con), seed=seed)
    return table if table.kinds else None
