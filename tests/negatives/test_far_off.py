"""connect's far-off test (``Connect._far_before``) skips captions that have none of the
letters every far-off ending has, and answers as the clause-by-clause test does."""

from __future__ import annotations

import random
import re

from neg_helpers import plausible

from sgprep.negatives.strategies.connect_words import (
    DISTANT_ENDINGS,
    DISTANT_KEYS,
    DISTANT_PADDED,
)


def _written_out(text: str, end: int) -> bool:
    clause = re.split(r"[,;]", text[:end].lower())[-1]
    clause = " " + " ".join(re.findall(r"[a-z]+", clause)) + " "
    return any(x in clause for x in DISTANT_PADDED)


def test_every_far_off_ending_has_a_key():
    assert all(any(k in x for k in DISTANT_KEYS) for x in DISTANT_ENDINGS)


def test_far_before_as_written_out():
    rng = random.Random(2)
    words = "a dog sits on the grass near tree far off in distance background horizon".split()
    words += ["from", "afar", "away", "farm", ",", ";", "Far", "Distance"]
    seen = {True: 0, False: 0}
    for _ in range(1000):
        caption = "a dog " + " ".join(rng.choice(words) for _ in range(rng.randint(1, 10)))
        p = plausible("connect", caption, [("dog", "dog", [])])
        for end in sorted({len(caption), rng.randint(1, len(caption))}):
            want = _written_out(caption, end)
            assert p._far_before(end) is want, (caption, end)
            seen[want] += 1
    assert min(seen.values()) > 40
