"""The negatives' inflection (negatives/grammar.py): English word forms from lemminflect's
tables and the rules, the commonest spelling where there are several (wordfreq)."""

from __future__ import annotations

import pytest

from sgprep.negatives import grammar


@pytest.mark.parametrize(
    "verb, third, gerund, participle",
    [
        ("break", "breaks", "breaking", "broken"),  # the rules alone: "breaked"
        ("buy", "buys", "buying", "bought"),
        ("emit", "emits", "emitting", "emitted"),  # "emiting"
        ("control", "controls", "controlling", "controlled"),  # not the listed "controling"
        ("picnic", "picnics", "picnicking", "picnicked"),
        ("chisel", "chisels", "chiseling", "chiseled"),  # American, the commoner
        ("lean", "leans", "leaning", "leaned"),  # not "leant"
        ("sit", "sits", "sitting", "sat"),
        ("lie", "lies", "lying", "lain"),  # the sense of a scene: not "lied"
        ("ride", "rides", "riding", "ridden"),
        ("cut", "cuts", "cutting", "cut"),
        ("skateboard", "skateboards", "skateboarding", "skateboarded"),
    ],
)
def test_verb_forms(verb, third, gerund, participle):
    assert grammar.third_person(verb) == third
    assert grammar.gerund(verb) == gerund
    assert grammar.participle(verb) == participle
    assert grammar.verb_form(participle, verb) in ("participle", "base")


@pytest.mark.parametrize(
    "noun, plural",
    [
        ("businessman", "businessmen"),  # the rules alone: "businessmans"
        ("bookshelf", "bookshelves"),
        ("mango", "mangoes"),
        ("zebra", "zebras"),  # not the word itself, which the library lists too
        ("teddy bear", "teddy bears"),
        ("glasses", "glasses"),  # "glasseses"
        ("sheep", "sheep"),
        ("fish", "fish"),
        ("grass", "grass"),  # a mass noun
        ("bus", "buses"),
        ("Woman", "Women"),
    ],
)
def test_plurals(noun, plural):
    assert grammar.plural(noun) == plural
