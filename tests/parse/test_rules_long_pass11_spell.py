"""Pass 11 of the rule parser, the ``spell`` family (``docs/rule-parser.md``, pass 11c).

Every caption here is written for the test. Each test checks the family's graph and, where
it changes one, that the family switched off gives the old one, so that a test fails if the
rule stops doing anything.
"""

from __future__ import annotations

import pytest

from sgprep.parse.rules_spell import rewrite
from tests.parse.rule_helpers import heads, parse, rels


def _entity(graph, head):
    (found,) = [e for e in graph.entities if e.head == head]
    return found


# ---- mended names ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "caption, written, mended",
    [
        ("a giraffee is standing under a tall tree", "giraffee", "giraffe"),
        ("snowy mountains behind a skiier", "skiier", "skier"),
        ("a lamp hanging from the cieling of a kitchen", "cieling", "ceiling"),
        ("a blue toboggin on the head of a man", "toboggin", "toboggan"),
    ],
)
def test_a_misspelt_noun_is_mended_its_span_on_the_caption(parser, caption, written, mended):
    graph = parse(parser, caption)
    entity = _entity(graph, mended)
    assert entity.text.endswith(mended)
    start, end = entity.span
    assert caption[start:end].endswith(written)  # the span still indexes the caption
    assert written in heads(parse(parser, caption, off="spell"))
    assert mended not in heads(parse(parser, caption, off="spell"))


def test_the_mended_word_takes_its_relations(parser):
    caption = "a giraffee is standing under a tall tree"
    assert ("giraffe", "stand under", "tree") in rels(parse(parser, caption))
    assert ("giraffee", "stand under", "tree") in rels(parse(parser, caption, off="spell"))


def test_a_mending_after_written_out_shorthand_maps_through_both(parser):
    caption = "kid+mom next to a giraffee w/ a red hat"
    graph = parse(parser, caption)
    giraffe = _entity(graph, "giraffe")
    assert caption[giraffe.span[0] : giraffe.span[1]] == "giraffee"
    hat = _entity(graph, "hat")
    assert caption[hat.span[0] : hat.span[1]] == "red hat"
    assert ("kid", "next to", "giraffe") in rels(graph)


def test_a_possessive_without_its_apostrophe(parser):
    caption = "the womans coat is black ."
    graph = parse(parser, caption)
    assert ("woman", "have", "coat") in rels(graph)
    woman = _entity(graph, "woman")
    assert caption[woman.span[0] : woman.span[1]] == "woman"
    assert "woman" not in heads(parse(parser, caption, off="spell"))


def test_a_word_run_together_with_an_article(parser):
    caption = "an old suitcase on the grounda brown bag on the bed"
    graph = parse(parser, caption)
    assert ("suitcase", "on", "ground") in rels(graph)
    ground = _entity(graph, "ground")
    assert caption[ground.span[0] : ground.span[1]] == "ground"
    assert "ground" not in heads(parse(parser, caption, off="spell"))


def test_the_parser_counts_the_mended_captions(parser):
    before = parser.stats().get("spelling_mended", 0)
    parse(parser, "a giraffee is eating leaves")
    assert parser.stats()["spelling_mended"] == before + 1


# ---- words left as written -------------------------------------------------------------------


@pytest.mark.parametrize(
    "caption",
    [
        "a man holding a tennis raquet",  # racquet, but "raquel" is too close
        "a red tonue coming out of a mouth",  # five letters: tone or tongue
        "a Giraffee statue in a park",  # a capital: a name
        "a GIRAFFEE near a tree",  # all caps (the noise family writes it in lower case)
        "a sign that says 'giraffee' on a wall",  # quoted: a name
        "a giraffee-shaped cake on a table",  # joined to another word
        "a man in a white tshirt",  # a mending must keep the first letter ("shirt")
        "a cat sitting agianst a wall",  # "against" is no noun or adjective
        "a colored airplane above the theater",  # spaCy's tables know the American spelling
        "a man playing tennis on a hardcourt",  # two edits away only ("hardcore")
        "a cup of matcha on a wooden table",  # the web writes it: no "match a" or "match"
        "pink macarons on a white plate",  # the web writes it: no "macaroni"
    ],
)
def test_a_word_is_left_where_the_mending_is_not_clear(parser, caption):
    on, off = parse(parser, caption), parse(parser, caption, off="spell")
    assert on.model_dump() == off.model_dump()


# ---- the map of a mended text to the caption ------------------------------------------------


@pytest.mark.parametrize(
    "text, edit, piece",
    [
        ("a giraffee eats", (2, 10, "giraffe"), "giraffee"),  # ends where the word did
        ("a toboggin here", (2, 10, "toboggan"), "toboggin"),
        ("the grounda box", (4, 11, "ground a"), "grounda"),
        ("the womans coat", (4, 10, "woman's"), "womans"),
    ],
)
def test_rewrite_maps_each_written_character_to_the_caption(text, edit, piece):
    written, offsets = rewrite(text, [edit])
    start, end, word = edit
    assert written == text[:start] + word + text[end:]
    assert len(offsets) == len(written) + 1
    assert offsets[-1] == len(text)
    first, last = start, start + len(word)
    assert text[offsets[first] : offsets[last - 1] + 1] == piece
    # the text after the edit maps to itself
    assert [text[offsets[k]] for k in range(last, len(written))] == list(text[end:])


def test_rewrite_keeps_the_first_word_of_a_cut_on_its_letters():
    written, offsets = rewrite("the grounda box", [(4, 11, "ground a")])
    assert written == "the ground a box"
    assert "the grounda box"[offsets[4] : offsets[9] + 1] == "ground"


# ---- modifier_subjects -----------------------------------------------------------------------


@pytest.mark.parametrize(
    "caption, relation",
    [
        ("seaweed washed up on the beach", ("seaweed", "wash on", "beach")),
        ("skateboarder doing tricks in a park", ("skateboarder", "do", "trick")),
    ],
)
def test_a_first_noun_read_as_a_modifier_of_the_verb_is_its_subject(parser, caption, relation):
    assert relation in rels(parse(parser, caption))
    assert relation[0] not in heads(parse(parser, caption, off="modifier_subjects"))


@pytest.mark.parametrize(
    "caption",
    [
        "quickly running down the road",  # an adverb the tables know as one
        "happy dog running in a field",  # an adjective of the noun, not of the verb
    ],
)
def test_a_real_modifier_stays_a_modifier(parser, caption):
    on, off = parse(parser, caption), parse(parser, caption, off="modifier_subjects")
    assert on.model_dump() == off.model_dump()


def test_the_words_one_edit_away_are_those_symspellpy_finds():
    """The mending's candidates (made one by one, no index) are the words ``symspellpy``'s
    own lookup finds at distance 1 with the same first letter, over its dictionary: on the
    read parts' typos and on 2,000 random one-edit typos of its words."""
    import random
    from importlib import resources

    from symspellpy import SymSpell, Verbosity

    from sgprep.parse.rules_spell import WORDS, _counts, _one_edit

    reference = SymSpell(max_dictionary_edit_distance=1, prefix_length=5)
    assert reference.load_dictionary(str(resources.files("symspellpy") / WORDS), 0, 1)
    table = _counts()
    assert len(table) > 80_000 and table["giraffe"] == reference.words["giraffe"]
    rng = random.Random(0)
    words = sorted(w for w in table if len(w) >= 6 and w.isalpha())
    typos = ["giraffee", "skiier", "cieling", "toboggin", "grounda", "tonue", "raquet"]
    for _ in range(2000):
        w, i = rng.choice(words), rng.randrange(1, 6)
        c = rng.choice("abcdefghijklmnopqrstuvwxyz")
        typos.append(rng.choice([w[:i] + w[i + 1 :], w[:i] + c + w[i:], w[:i] + c + w[i + 1 :]]))
    for typo in typos:
        theirs = {
            s.term
            for s in reference.lookup(typo, Verbosity.ALL, max_edit_distance=1)
            if s.distance == 1 and s.term[0] == typo[0]
        }
        assert {t for t in _one_edit(typo) if t in table} == theirs, typo


def test_the_word_frequencies_are_read_once_and_kept_out_of_the_collector():
    import gc

    from sgprep.parse.rules_spell import _web_frequency, _zipf

    _zipf.cache_clear()
    gc.unfreeze()
    assert gc.get_freeze_count() == 0
    assert _web_frequency("giraffe") > 3 > _web_frequency("giraffee")
    frozen = gc.get_freeze_count()
    assert frozen > 10_000  # langcodes' tables among them
    # read once: no second freeze (a new word may free a frozen entry of wordfreq's own
    # cache, full after earlier tests, so the count may only shrink)
    assert _web_frequency("macarons") > 1.5 and gc.get_freeze_count() <= frozen
    gc.unfreeze()
