"""The words connect decides by: where a phrase places a thing (locative words, verbs whose
preposition is theirs), what nothing is put near (the sky, parts, whole views, far-off
things), and the sizes of things and places."""

from __future__ import annotations

from sgprep.lexicon import ordered, words

#: Things that come in numbers anywhere: "a wooden fence near trees" reads well, "near kitchens"
#: or "near leaves" (a part) do not.
BARE_PLURAL_CATEGORIES = frozenset({"person", "animal", "vehicle", "furniture"})
#: What connect puts a new thing in: a place by the entity, specific enough to be false.
CONNECT_PREDICATES = ("near", "next to", "beside", "in front of", "behind")
#: What a thing may be fixed high on.
HIGH_UP = frozenset("wall walls ceiling roof pole".split())
#: Heads of a whole view: connect adds nothing to it ("a city skyline lit up at night across
#: the bay near a suitcase").
LANDSCAPES = words("landscape_nouns")
#: Endings that put the last thing far off: a phrase tacked on after them places nothing
#: ("... with mountains visible in the distance, near a dog").
DISTANT_ENDINGS = ordered("distant_endings")
#: Each of DISTANT_ENDINGS between spaces, as a clause is searched for it.
DISTANT_PADDED = tuple(f" {x} " for x in DISTANT_ENDINGS)
#: Strings one of which every ending of DISTANT_ENDINGS holds: a caption whose lower-case
#: text holds none of them has no far-off clause, without cutting it into clauses and words.
DISTANT_KEYS = ("distance", "background", "horizon", "far")
#: Things nothing is put near: the sky and what is in it, light, and things of no place.
NOT_ANCHORS = words("not_anchor_nouns")
#: Things that may be in the air, and the words that say they are: nothing is put near them
#: then ("kites flying in the sky, beside a table").
AIRBORNE = words("airborne_things")
IN_THE_AIR = words("in_the_air_words")
#: Caption words that put its boats on the water: a boat afloat places nothing near it.
AFLOAT = words("afloat_words")
#: Classes of things nothing is put near: parts, clothes, small things, food.
NOT_ANCHOR_CLASSES = frozenset({"body part", "clothing"})
#: Big things that stay where they are: nothing small is put near them.
STRUCTURES = words("structure_nouns")
#: Huge places that hold a scene: a phrase at the caption's end places them too ("fans
#: filling the stands at a baseball stadium, near a dog").
HUGE_PLACES = words("huge_places")
#: Places a whole view or crowd fills: nothing added fits them ("a plane flying over the
#: city skyline near a horse", "fans filling the stands near a truck").
VAST = words("vast_places")
#: Rooms: nothing is put next to one ("a bathroom with the curtain closed, next to a puppy":
#: blind review round 14).
ROOMS = words("rooms")
#: Huge things: a place, a building, a house, a ship, a plane, a train. Only a big thing
#: (:func:`sgprep.negatives.addable.fits_huge`) is of a size to be put near one (blind review round 6: "a lighthouse
#: beside a cat", "a large ship docked in a busy harbour, near a dog", "planes landing by an
#: umbrella"; round 30: "a stone farmhouse stands at the top of a hill near a suitcase").
HUGE = HUGE_PLACES | words("huge_things")
#: Verbs after a caption's first noun phrase that connect's phrase may come before ("the
#: fence near a bicycle | is gray"); not before another verb ("people by a cat | stand").
COPULA_SEAMS = words("copula_seams")
#: Words for people together: anything may be near them.
GROUPS = words("people_group_nouns")
#: Places and stuff a thing may be near ("seaweed washed up on shore near a horse"): big.
PLACES = words("ground_places")
#: Words a caption may open with before its first noun phrase.
OPENING_WORDS = words("opening_words")
