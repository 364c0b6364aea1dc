"""The words connect decides by: where a phrase places a thing (locative words, verbs whose
preposition is theirs), what nothing is put near (the sky, parts, whole views, far-off
things), and the sizes of things and places."""

from __future__ import annotations

#: Things that come in numbers anywhere: "a wooden fence near trees" reads well, "near kitchens"
#: or "near leaves" (a part) do not.
BARE_PLURAL_CATEGORIES = frozenset({"person", "animal", "vehicle", "furniture"})
#: What connect puts a new thing in: a place by the entity, specific enough to be false.
CONNECT_PREDICATES = ("near", "next to", "beside", "in front of", "behind")
#: What a thing may be fixed high on.
HIGH_UP = frozenset("wall walls ceiling roof pole".split())
#: Heads of a whole view: connect adds nothing to it ("a city skyline lit up at night across
#: the bay near a suitcase").
LANDSCAPES = frozenset(
    "skyline cityscape landscape view scene scenery panorama vista horizon city town "
    "village countryside valley hillside mountain mountains".split()
)
#: Endings that put the last thing far off: a phrase tacked on after them places nothing
#: ("... with mountains visible in the distance, near a dog").
DISTANT_ENDINGS = (
    "in the distance",
    "in the far distance",
    "in the background",
    "in the far background",
    "on the horizon",
    "in the horizon",
    "far away",
    "far off",
    "from afar",
    "from a distance",
)
#: Each of DISTANT_ENDINGS between spaces, as a clause is searched for it.
DISTANT_PADDED = tuple(f" {x} " for x in DISTANT_ENDINGS)
#: Strings one of which every ending of DISTANT_ENDINGS holds: a caption whose lower-case
#: text holds none of them has no far-off clause, without cutting it into clauses and words.
DISTANT_KEYS = ("distance", "background", "horizon", "far")
#: Things nothing is put near: the sky and what is in it, light, and things of no place.
NOT_ANCHORS = frozenset(
    "sky cloud clouds air sun moon light lights shadow shadows reflection sunlight sunset "
    "smoke fog steam rain weather day night scene photo picture image view "
    # landscapes: "two snow capped mountains near a dog"
    "mountain mountains valley hill hills hillside ocean sea horizon forest landscape island "
    "cliff coast "
    # parts of a vehicle or a building: "the window near a skateboard is down in the car"
    "window windows door doors roof wheel wheels tire tires handle seat windshield headlight "
    "headlights hood base ceiling lot "
    # things worn: "the ring on the right ring finger, behind a cat"
    "ring necklace bracelet earring earrings watch "
    # shapes: "a circle inside a circle in front of a dog"
    "circle circles square squares triangle shape shapes dot dots".split()
)
#: Things that may be in the air, and the words that say they are: nothing is put near them
#: then ("kites flying in the sky, beside a table").
AIRBORNE = frozenset("kite frisbee plane airplane jet balloon helicopter bird ball".split())
IN_THE_AIR = frozenset("sky air flying flies fly flown soaring overhead airborne".split())
#: Classes of things nothing is put near: parts, clothes, small things, food.
NOT_ANCHOR_CLASSES = frozenset({"body part", "clothing"})
#: Big things that stay where they are: nothing small is put near them.
STRUCTURES = frozenset(
    "building tower steeple wall fence pole bridge house church roof tree statue "
    "skyscraper barn station train city town village skyline buildings warehouse garage "
    "shed hangar stadium".split()
)
#: Huge places that hold a scene: a phrase at the caption's end places them too ("fans
#: filling the stands at a baseball stadium, near a dog").
HUGE_PLACES = frozenset(
    "stadium arena stands stand bleachers ballpark terminal terminals airport port harbor "
    "harbour station skyline city town mall museum hotel interchange freeway highway".split()
)
#: Places a whole view or crowd fills: nothing added fits them ("a plane flying over the
#: city skyline near a horse", "fans filling the stands near a truck").
VAST = frozenset(
    "skyline cityscape city town stadium arena stands stand bleachers ballpark interchange "
    "freeway highway".split()
)
#: Huge things: a place, a building, a ship, a plane, a train. Only a big thing
#: (:func:`sgprep.negatives.addable.fits_huge`) is of a size to be put near one (blind review round 6: "a lighthouse
#: beside a cat", "a large ship docked in a busy harbour, near a dog", "planes landing by an
#: umbrella").
HUGE = HUGE_PLACES | frozenset(
    "building buildings skyscraper skyscrapers tower towers lighthouse lighthouses bridge "
    "bridges church cathedral castle palace temple warehouse hangar factory ship ships "
    "liner ferry plane planes airplane airplanes jet jets airliner airliners train trains "
    "locomotive".split()
)
#: Verbs after a caption's first noun phrase that connect's phrase may come before ("the
#: fence near a bicycle | is gray"); not before another verb ("people by a cat | stand").
COPULA_SEAMS = frozenset("is are was were has have".split())
#: Words for people together: anything may be near them.
GROUPS = frozenset("people crowd family team group audience spectators fans players".split())
#: Places and stuff a thing may be near ("seaweed washed up on shore near a horse"): big.
PLACES = frozenset(
    "water grass ground road street sidewalk field beach shore snow sand dirt floor court "
    "lawn park yard lot parking runway track tracks platform river lake pond".split()
)
#: Words a caption may open with before its first noun phrase.
OPENING_WORDS = frozenset(
    "a an the two three four five some several many this these both group couple pair bunch "
    "herd flock crowd row line lot lots set of".split()
)
