"""Rule families: where a prepositional phrase attaches, and what it says: places, times,
"with", worn things.
"""

from __future__ import annotations

from sgprep.parse.families.base import Family, Repair
from sgprep.parse.rules_long import (
    repair_phrase_after_air,
    repair_phrase_after_time,
    repair_place_after_with_object,
    repair_stray_position,
)
from sgprep.parse.rules_repair import repair_with_back_reference

FAMILIES = (
    Family(
        "attach",
        about="""Where a prepositional phrase in a long noun phrase attaches.""",
        repairs=(Repair(repair_with_back_reference),),
    ),
    Family(
        "after_with",
        about="""A place phrase the model hangs on a "with" object says where the thing before
        "with" is ("trees with green leaves in the background" -> trees in background).""",
        repairs=(Repair(repair_place_after_with_object),),
    ),
    Family(
        "times",
        about="""A phrase the model hangs on a time noun is about what the time phrase is
        about ("jumps into a puddle on a rainy day in the park" -> boy in park).""",
        repairs=(Repair(repair_phrase_after_time),),
    ),
    Family(
        "air",
        about=""""the air" is no place: a phrase the model hangs on it is about the thing in
        the air ("spray flies into the air behind him" -> spray behind surfer).""",
        repairs=(Repair(repair_phrase_after_air),),
    ),
    Family(
        "places",
        about="""A place phrase after a verb's object is where the subject is ("a man riding a
        motorcycle on the street" -> man on street; not after "play", whose object is a game),
        and a predicative adjective with a place phrase is a state and a place ("a book is
        open on the counter" -> book is open, book on counter).""",
    ),
    Family(
        "whole_places",
        about="""A place phrase right after "<part> of <whole>" that the model hangs on the
        part says where the whole is ("a body of water near a beach" -> water near beach; not
        for containers, framing nouns, people or animals).""",
    ),
    Family(
        "stray_positions",
        about="""A position right after a preposition of place with no article is the
        preposition's object ("dog is standing on back of boat" -> dog stand on back of boat;
        "person on right wearing a coat" -> person wear coat).""",
        repairs=(Repair(repair_stray_position),),
    ),
    Family(
        "bare_positions",
        about="""A position noun after a place preposition with no landmark, said or implied,
        names no thing ("a man in front", "food on top": no "front" or "top" entity).""",
    ),
    Family(
        "predicates",
        about="""A particle of direction before a plain preposition is no part of the
        predicate ("jumping up in the air" -> jump in; "sticking out of" stays).""",
    ),
    Family(
        "with",
        about=""""with" and a worn thing is wearing it ("a man with a yellow shirt"), and a
        "with" phrase on a posture verb is the subject's ("a man standing with black shoes
        on"), and body parts "with" a person or animal followed by its own clause are had ("a
        man with brown hair standing ..." -> man have hair).""",
    ),
    Family(
        "worn_containers",
        about=""""in" a worn thing whose word also names a container is wearing it only for a
        person or an animal ("wines in the glasses" -> wines in glasses; "a man in glasses" ->
        man wear glasses).""",
    ),
    Family(
        "worn_owners",
        about=""""worn by" hung on the pattern or part a worn thing is "with" is said of the
        worn thing ("a red scarf with white dots worn by a woman" -> woman wear scarf, not
        dots).""",
    ),
)
