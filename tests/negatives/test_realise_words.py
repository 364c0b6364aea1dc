"""The Realiser's word index of an ASCII caption, found without match objects, is the one
the word pattern's matches give: same words, same positions."""

from __future__ import annotations

import random

from sgprep.negatives.realise import _WORD, Realiser, Word, _ascii_words


def _by_matches(text: str) -> list[Word]:
    return [Word(m.start(), m.end(), m.group()) for m in _WORD.finditer(text)]


def test_ascii_words_are_the_pattern_matches():
    texts = [
        "",
        "a man's dog-house -- it's 3-4 o'clock",
        "it''s a--b 'quoted' a- -a",
        "xa a",  # a word that is the tail of the one before
        "a1-b2'c3 d 'a' b'",
    ]
    rng = random.Random(7)
    texts += ["".join(rng.choice("ab1-' .") for _ in range(rng.randrange(16))) for _ in range(3000)]
    for text in texts:
        assert _ascii_words(text) == _by_matches(text), text


def test_realiser_indexes_ascii_and_other_captions_alike():
    from sgprep.schema import SceneGraph

    graph = SceneGraph(parser="test")
    for caption in ["A Man's red-brown Hat, and a CAT", "A café's red-brown Hat, and a CAT"]:
        words = Realiser(caption, graph).words
        assert [w.lower for w in words] == [w.lower() for w in _WORD.findall(caption)]
        assert all(caption[w.start : w.end].lower() == w.lower for w in words)
