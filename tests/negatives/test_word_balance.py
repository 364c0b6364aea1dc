"""Word balance (issue 32): a replacement towards a rarer word is kept with probability
(rarer count / commoner count) ** BALANCE, one towards a commoner word always, so that each
word comes into the negatives about as often as it leaves them and no word says "negative"
to a text-only model ("bicycle" -> "scooter", drawn for every bicycle, made "scooter" such a
word)."""

from __future__ import annotations

import random
from collections import Counter

from neg_helpers import bundled_memos, graph

from sgprep.negatives.perturbation import SetHead
from sgprep.negatives.scene import BALANCE, Scene
from sgprep.negatives.strategies.replace import Replace
from sgprep.negatives.vocab import load_vocab


def _replace(caption: str, thing: str, seeds: int) -> tuple[Counter, Counter]:
    """replace_object of ``thing`` in "a boy riding a THING down a dirt road" over seeds:
    the new names it kept, and the refusals."""
    vocab, kept, rejected = load_vocab(), Counter(), Counter()
    g = graph(
        caption,
        [("boy", "boy", []), (thing, thing, []), ("dirt road", "road", ["dirt"])],
        [(0, "riding", 1), (0, "down", 2)],
    )
    for seed in range(seeds):
        at = Scene(
            g, vocab, random.Random(seed), rejected, vocab.cooc, caption, memos=bundled_memos()
        )
        made = Replace(at)._replace_obj(1)
        if made is not None:
            (edit,) = made.edits
            assert isinstance(edit, SetHead)
            kept[edit.new] += 1
    return kept, rejected


def test_a_replacement_towards_a_commoner_word_is_kept_a_rarer_one_by_the_count_ratio():
    cube = graph("a red cube", [("red cube", "cube", ["red"])])
    s = Replace(Scene(cube, load_vocab(), random.Random(0), Counter()))
    assert all(s.balanced(50, n) for n in (50, 51, 5000))
    trials = 20_000
    share = sum(s.balanced(100, 4) for _ in range(trials)) / trials
    assert abs(share - (4 / 100) ** BALANCE) < 0.02


def test_a_common_thing_is_replaced_now_and_then_a_rare_one_whenever_it_may_be():
    cooc = load_vocab().cooc
    # the statistics name bicycles far more often than scooters: a bicycle is replaced only
    # now and then, a scooter by a bicycle or a motorcycle whenever the replacement fits
    assert cooc.n("obj", "bicycle") > 2 * cooc.n("obj", "scooter")
    common, common_refused = _replace("a boy riding a bicycle down a dirt road", "bicycle", 120)
    rare, rare_refused = _replace("a boy riding a scooter down a dirt road", "scooter", 120)
    assert common_refused["word_balance"] > 20
    assert rare_refused["word_balance"] == 0
    assert sum(rare.values()) > sum(common.values())
    assert set(common) <= {"motorcycle", "scooter"} and set(rare) <= {"motorcycle", "bicycle"}


def _antonyms(caption: str, entities: list[tuple], i: int, a: str, seeds: int):
    """replace_attribute of attribute ``a`` of entity ``i`` over seeds: the new attributes it
    kept, and the refusals."""
    vocab, kept, rejected = load_vocab(), Counter(), Counter()
    g = graph(caption, entities)
    for seed in range(seeds):
        at = Scene(
            g, vocab, random.Random(seed), rejected, vocab.cooc, caption, memos=bundled_memos()
        )
        made = Replace(at)._replace_attr(i, a)
        if made is not None:
            kept[made.edits[0].new] += 1
    return kept, rejected


def test_an_antonym_is_balanced_too():
    # the captions say "a young woman" far more often than "an old woman": turned old only
    # now and then ("old" was the word a text-only model learned of replace_attribute, 97 of
    # the fresh set's 1,444), an old woman young whenever she may be
    cooc = load_vocab().cooc
    assert cooc.n("attr", "young", "woman") > 1.5 * cooc.n("attr", "old", "woman")
    young, young_refused = _antonyms(
        "a young woman reading a book", [("young woman", "woman", ["young"])], 0, "young", 80
    )
    old, old_refused = _antonyms(
        "an old woman reading a book", [("old woman", "woman", ["old"])], 0, "old", 80
    )
    assert set(young) == {"old"} and set(old) == {"young"}
    assert young_refused["word_balance"] > 10 and old_refused["word_balance"] == 0
    assert sum(old.values()) == 80 > sum(young.values())
