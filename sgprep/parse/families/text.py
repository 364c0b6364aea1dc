"""Rule families: clean-up of the caption's text before it is parsed: web markup and shop text,
alt-text noise, captions in another language, written shorthand, misspelt words.

Each family is declared in :data:`FAMILIES` (what it does, and where it hooks in: see
:mod:`sgprep.parse.families.base`), the code it adds above it.
"""

from __future__ import annotations

from sgprep.parse.families.base import Family
from sgprep.parse.rules_language import other_language
from sgprep.parse.rules_noise import clean_alt_text, clean_web_noise, expand_shorthand
from sgprep.parse.rules_spell import Speller

FAMILIES = (
    Family(
        "web_noise",
        about="""Web markup and shop text blanked before ``noise`` runs, in place (HTML
        entities and tags, @handles, "Photo:" / "Premium Photo" labels, labelled camera
        metadata, prices, sizes, product codes, numeric dates, an all-caps cry that opens a
        caption, stock keywords for ideas).""",
        clean=clean_web_noise,
    ),
    Family(
        "noise",
        about="""Alt-text clean-up before parsing (URLs, ``<PERSON>`` placeholders, camera
        metadata, all-caps words, keyword lists).""",
        clean=clean_alt_text,
    ),
    Family(
        "other_language",
        about="""A caption whose words are more often French, Spanish, German, Italian,
        Portuguese or Dutch function words (spaCy's stop-word lists) than English ones is
        refused before parsing as ``parse/other_language`` ("La tour Eiffel sous la pluie"
        gave "eiffel -sous la-> pluie").""",
        refuse=other_language,
    ),
    Family(
        "shorthand",
        about="""Written shorthand is written out before parsing, spans kept on the caption:
        "w/" is "with", a "+" between two words is "and", "infront" / "ontop" are "in front" /
        "on top" ("kid+mom sit on chairs w/ white legs").""",
        write_out=expand_shorthand,
    ),
    Family(
        "spell",
        about="""A lower-case noun or adjective of six letters or more that neither
        ``symspellpy``'s English dictionary nor spaCy's tables know, and ``wordfreq`` finds
        rarely, is mended before the caption is parsed again, where one word one edit away
        (its first letter kept) is 5 times as frequent as the next and is a noun or an
        adjective ("a giraffee" -> giraffe, "a skiier" -> skier; "a tennis raquet" is left), a
        noun with an "s" before a noun is its possessive ("the womans coat"), a word run
        together with an article is cut ("the grounda brown suitcase").""",
        speller=Speller.of,
    ),
)
