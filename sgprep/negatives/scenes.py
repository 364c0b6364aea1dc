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

#: Words that place a caption in a setting. A word of two settings ("park" is a street's and
#: a lawn's) names both: an added object must fit every setting the caption names.
SETTING_WORDS: dict[str, frozenset[str]] = {
    word: frozenset(settings.split("+"))
    for settings, words in {
        "street": "street road sidewalk city car cars bus buses truck trucks taxi cab van "
        "traffic intersection crosswalk curb parking lot motorcycle motorcycles motorbike "
        "scooter skyscraper storefront store shop building buildings downtown highway "
        "lamppost streetlight hydrant skateboarder skateboard tower steeple church house "
        "houses",
        "lawn": "park lawn grass grassy meadow frisbee kite picnic playground garden",
        "farm": "farm pasture barn cow cows sheep lamb lambs goat goats hay cattle calf "
        "herd tractor ranch pen corral horse horses pony",
        "wild": "zoo savanna giraffe giraffes zebra zebras elephant elephants bear bears "
        "enclosure safari jungle rhino lion",
        "beach": "beach shore sand ocean sea surf surfer surfers surfboard surfboards wave "
        "waves seashore coast sandcastle sandcastles",
        "water": "lake river harbor harbour dock pier boat boats ship canal pond marina",
        "home": "room bedroom livingroom couch sofa bed beds pillow pillows blanket "
        "comforter lamp rug carpet curtain curtains fireplace bookshelf shelf tv "
        "television dresser desk laptop computer keyboard remote radiator mousepad mouse "
        "monitor printer outlet switch vent heater wallpaper ceiling closet bookcase books",
        "kitchen": "kitchen refrigerator fridge oven stove microwave sink counter "
        "countertop cabinet cabinets dishwasher",
        "dining": "plate plates pizza sandwich bowl cake donut donuts meal dinner lunch "
        "breakfast food restaurant fork knife spoon napkin dish dishes tray "
        "broccoli salad hotdog burger",
        "bathroom": "bathroom toilet bathtub tub shower towel",
        "snow": "snow snowy ski skis skier skiers skiing snowboard snowboarder snowboarding "
        "slope slopes",
        "sport": "tennis court racket baseball bat batter pitcher catcher umpire "
        "bleachers stadium field player players soccer",
        "airport": "airport runway tarmac airplane airplanes plane planes jet jets",
        "rail": "train trains railway railroad tracks track platform station",
        # indoors, public (blind review round 6: "a man sleeping on a bench in an airport
        # terminal, near a van"; round 9: "... in a hospital room ..., next to a bicycle");
        # not "gate", "store", "shop": as often outdoors
        "indoor": "terminal terminals lobby hallway corridor concourse lounge museum mall "
        "classroom office cafeteria library gym auditorium hall indoors arrival arrivals "
        "departure departures conveyor carousel hospital clinic ward",
    }.items()
    for word in words.split()
}


def settings_of(words: Sequence[str]) -> frozenset[str]:
    """The settings the caption's (lower-case) words name."""
    out: frozenset[str] = frozenset()
    get, before = SETTING_WORDS.get, ""
    for w in words:
        s = get(w)
        if s and before != "teddy":  # a teddy bear is no wild animal
            out |= s
        before = w
    return out
