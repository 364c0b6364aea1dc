"""Alt-text noise that named things (issue 34, item 7): stock sites credited in the caption
("| Shutterstock", "123rf") and captions in another language ("La tour Eiffel sous la pluie"
gave ``eiffel -sous la-> pluie``). Captions written here."""

from __future__ import annotations

import pytest

from sgprep.parse.base import ParseError
from sgprep.parse.families import FAMILIES
from sgprep.parse.rules_language import other_language
from sgprep.parse.rules_noise import clean_web_noise
from tests.parse.rule_helpers import heads, parse


@pytest.mark.parametrize(
    "caption, kept",
    [
        ("a boy flying a kite on a hill | Shutterstock", "a boy flying a kite on a hill"),
        ("two cats asleep on a rug - 123RF", "two cats asleep on a rug"),
        ("a lighthouse at dusk via Pinterest", "a lighthouse at dusk"),
        ("a red barn in the snow, iStock", "a red barn in the snow"),
        ("a bowl of ramen (royalty free stock photo)", "a bowl of ramen ( )"),
        ("pancakes with syrup, Getty Images", "pancakes with syrup"),
    ],
)
def test_a_stock_sites_name_is_blanked_in_place(caption, kept):
    cleaned = clean_web_noise(caption)
    assert len(cleaned) == len(caption)
    assert " ".join(cleaned.split()).rstrip(",- ") == kept


@pytest.mark.parametrize(
    "caption",
    [
        "a photo of a dog posted on a stock market board",  # no site: a market
        "a man taking a picture of a lighthouse",
    ],
)
def test_plain_captions_keep_their_words(caption):
    assert clean_web_noise(caption) == caption


def test_a_stock_site_is_no_thing_of_the_graph(parser):
    graph = parse(parser, "a little girl in a yellow raincoat jumping in a puddle | Shutterstock")
    assert {"girl", "raincoat", "puddle"} <= set(heads(graph))
    assert not {"Shutterstock", "shutterstock"} & set(heads(graph))


@pytest.mark.parametrize(
    "caption",
    [
        "Un gato negro durmiendo en el sofa",
        "Le petit chien joue dans le jardin avec une balle",
        "Zwei Kinder spielen im Schnee mit einem Schlitten",
        "Il ragazzo mangia una pizza sul balcone",
        "Een fiets tegen de muur van het huis",
    ],
)
def test_a_caption_in_another_language_fails_as_such(parser, caption):
    (result,) = parser.parse_batch([caption])
    assert isinstance(result, ParseError) and result.reason == "other_language"
    assert "English" in result.message and "--rules-off other_language" in result.message
    saved = parser.families
    parser.families = FAMILIES - {"other_language"}
    try:
        (anyway,) = parser.parse_batch([caption])  # switched off: parsed as before
    finally:
        parser.families = saved
    assert not isinstance(anyway, ParseError) and anyway.entities


@pytest.mark.parametrize(
    "caption",
    [
        "tourists in front of the Arc de Triomphe in Paris",
        "a plate of spaghetti al dente with basil",
        "a man wearing a hat in a van near a door",
        "a poster of La Dolce Vita on a cafe wall",
        "A cat",
    ],
)
def test_an_english_caption_with_a_foreign_name_is_english(caption):
    assert other_language(caption) is None
