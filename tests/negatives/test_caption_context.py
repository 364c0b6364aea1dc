"""``siblings.caption_context`` (which skips captions that name nothing of their scene and joins
only pairs of words that may make a sport word) and ``scenes.settings_of`` answer as the tests
written out word by word do."""

from __future__ import annotations

import random

from sgprep.negatives import scenes, siblings
from sgprep.negatives.siblings import (
    ANIMAL_PLACES,
    EXTRA_SETTING_WORDS,
    GENDER_CUES,
    SPORT_WORDS,
    TIES,
    CaptionContext,
    caption_context,
)


def _settings_written_out(words: list[str]) -> frozenset[str]:
    out: frozenset[str] = frozenset()
    for n, w in enumerate(words):
        pairs = {" ".join(words[k : k + 2]) for k in (n - 1, n) if k >= 0 and k + 1 < len(words)}
        if pairs & scenes.NOT_SETTINGS:  # "teddy bear", "jungle gym"
            continue
        out |= scenes.SETTING_WORDS.get(w, frozenset())
    return out


def _context_written_out(words: tuple[str, ...]) -> CaptionContext:
    words = words + tuple(a + b for a, b in zip(words, words[1:]) if a + b in SPORT_WORDS)
    settings = set(_settings_written_out(list(words)))
    sports: set[str] = set()
    for w in words:
        settings |= EXTRA_SETTING_WORDS.get(w, frozenset())
        sports |= SPORT_WORDS.get(w, frozenset())
    return CaptionContext(
        frozenset(settings),
        frozenset(sports),
        tuple(TIES[w] for w in words if w in TIES),
        not GENDER_CUES.isdisjoint(words),
        tuple(ANIMAL_PLACES[w] for w in words if w in ANIMAL_PLACES),
    )


def _vocabulary() -> list[str]:
    words = [
        *scenes.SETTING_WORDS,
        *EXTRA_SETTING_WORDS,
        *SPORT_WORDS,
        *TIES,
        *ANIMAL_PLACES,
        *GENDER_CUES,
    ]
    # sport words cut in two ("wet suit"), and words that name nothing
    words += [p for w in SPORT_WORDS for p in (w[:3], w[3:], w[: len(w) // 2], w[len(w) // 2 :])]
    words += "a the man woman dog sits on next to teddy bear with and of red big is".split()
    words += [w for name in scenes.NOT_SETTINGS for w in name.split()]
    return sorted(set(words) - {""})


def test_caption_context_and_settings_as_written_out():
    rng = random.Random(11)
    vocab = _vocabulary()
    plain = "a the man woman dog sits on next to with and of red big is".split()
    empty = 0
    for _ in range(20000):
        pool = vocab if rng.random() < 0.6 else plain
        words = tuple(rng.choice(pool) for _ in range(rng.randint(0, 12)))
        want = _context_written_out(words)
        caption_context.cache_clear()
        assert caption_context(words) == want, words
        assert scenes.settings_of(list(words)) == _settings_written_out(list(words)), words
        empty += want == siblings._NO_CONTEXT
    assert 1000 < empty < 19000  # both ways through tested often
    assert caption_context(("a", "wet", "suit")).sports == SPORT_WORDS["wetsuit"]
    assert scenes.settings_of(["bear"]) and not scenes.settings_of(["teddy", "bear"])
