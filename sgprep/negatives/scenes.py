"""Where a caption's scene is: the words that name a setting (issue 18; what connect adds
there comes from the statistics, :mod:`sgprep.negatives.addable`).

A blind reader calls an added object false only when the caption makes them expect it to be
absent (benchmarks/blind_review: "people sitting in bleachers near the beach", "near a man",
"near a tree" were judged possibly true 92 % of the time). So connect adds a *salient* thing
that a caption would name if the photo showed it -- an animal, a vehicle, a piece of furniture,
a big object -- that is plausible in the caption's setting (a street, a farm, a beach, a room),
and not one the caption's objects are seen with (:mod:`sgprep.negatives.strategies.connect`
checks that against the co-occurrence statistics): "a cat sleeping on a bed near a suitcase",
never "near a dog" for a caption that has a cat (animals come together), nor "near a bus" in a
bedroom.

The settings are a small lexicon: the words of the caption that fix a setting (its objects
and places). Which things are possible in each, and typical of it, the statistics say.
"""

from __future__ import annotations

from collections.abc import Sequence

from sgprep.lexicon import keyed, words

#: Words that place a caption in a setting. A word of two settings ("park" is a street's and
#: a lawn's) names both: an added object must fit every setting the caption names.
SETTING_WORDS: dict[str, frozenset[str]] = {
    word: frozenset(settings.split("+"))
    for settings, words in keyed("setting_words").items()
    for word in words
}


#: Names whose words name no setting ("teddy bear", "jungle gym": lexicon
#: ``not_setting_compounds``).
NOT_SETTINGS = words("not_setting_compounds")


def settings_of(words: Sequence[str]) -> frozenset[str]:
    """The settings the caption's (lower-case) words name, but for the words of a name of
    :data:`NOT_SETTINGS` (a teddy bear is no wild animal, a jungle gym stands in no jungle)."""
    out: frozenset[str] = frozenset()
    get, before = SETTING_WORDS.get, ""
    for k, w in enumerate(words):
        s = get(w)
        if (
            s
            and f"{before} {w}" not in NOT_SETTINGS
            and (k + 1 == len(words) or f"{w} {words[k + 1]}" not in NOT_SETTINGS)
        ):
            out |= s
        before = w
    return out
