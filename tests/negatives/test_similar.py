"""The typo test of ``Cooc.is_related`` (``_similar``), which tries SequenceMatcher's cheap
upper bounds first, says what the full ratio says."""

from __future__ import annotations

import random
from difflib import SequenceMatcher

from sgprep.negatives.cooc import _similar


def _edited(rng: random.Random, word: str, letters: str) -> str:
    out = list(word)
    for _ in range(rng.randint(0, 3)):
        k = rng.randrange(len(out) + 1)
        op = rng.random()
        if op < 0.33 and out:
            out.pop(min(k, len(out) - 1))
        elif op < 0.66:
            out.insert(k, rng.choice(letters))
        elif out:
            out[min(k, len(out) - 1)] = rng.choice(letters)
    return "".join(out)


def test_similar_is_the_full_ratio_test():
    rng = random.Random(3)
    agreed = {True: 0, False: 0}
    for _ in range(20000):
        letters = rng.choice(["ab", "abcde", "abcdefghijklmnopqrstuvwxyz"])
        a = "".join(rng.choice(letters) for _ in range(rng.randint(4, 12)))
        if rng.random() < 0.5:  # a typo of a
            b = _edited(rng, a, letters)
        else:
            b = "".join(rng.choice(letters) for _ in range(rng.randint(4, 12)))
        want = SequenceMatcher(None, a, b).ratio() >= 0.75
        assert _similar(a, b) is want, (a, b)
        agreed[want] += 1
    assert min(agreed.values()) > 1000  # both answers were tested often
    assert _similar("rcok", "rock") and not _similar("rock", "table")
