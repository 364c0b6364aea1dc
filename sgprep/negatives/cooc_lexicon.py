"""The hand-made word sets of the co-occurrence judgments (:class:`sgprep.negatives.cooc.Cooc`):
near-synonyms WordNet does not link, relations connect leaves alone, coarse object classes
and the relations and verbs the judgments back off to them for; string similarity for typos.
"""

from __future__ import annotations

from collections import Counter
from difflib import SequenceMatcher

from sgprep.lexicon import groups, keyed, rows, words
from sgprep.negatives.cooc_count import FIXED_EXPRESSIONS

#: Relations connect does not add: they read as parts ("of") or say nothing ("have").
CONNECT_SKIP = words("connect_skip_relations")
#: Relations that place a thing by another without contradicting where it is.
PROXIMITY = words("proximity_relations")


#: Near-synonyms WordNet does not link, by part of speech: one may be true whenever the
#: other is ("a cup" of coffee is often a mug; who holds a thing also has it).
NEAR_SYNONYMS: dict[str, list[frozenset[str]]] = {
    "noun": [frozenset(g) for g in groups("near_synonym_nouns")],
    "verb": [frozenset(g) for g in groups("near_synonym_verbs")],
    "adj": [frozenset(g) for g in groups("near_synonym_adjectives")],
}
#: Verbs that mean nearly the same with one object (and not with others): who rides a wave
#: catches it ("rides a horse" -> "catches a horse" stays false). Object head -> groups; the
#: head of either end of a relation is looked up (gulls that follow a boat surround it).
NEAR_SYNONYMS_WITH: dict[str, list[frozenset[str]]] = {}
for _row in rows("near_synonym_verbs_with"):
    for _obj in _row["objects"]:
        NEAR_SYNONYMS_WITH.setdefault(_obj, []).append(frozenset(_row["verbs"]))


def _similar(a: str, b: str) -> bool:
    """``SequenceMatcher``'s ratio of the two is 0.75 or more. Two upper bounds of it first,
    as its ``real_quick_ratio`` and ``quick_ratio`` compute them (twice the matches over the
    summed lengths, with at least as many matches: the shorter length, then the letters in
    common), without making a matcher: most pairs never pay for one."""
    length = len(a) + len(b)
    if 2.0 * min(len(a), len(b)) / length < 0.75:
        return False
    left = Counter(b)
    common = 0
    for x in a:
        if left[x] > 0:
            left[x] -= 1
            common += 1
    if 2.0 * common / length < 0.75:
        return False
    return SequenceMatcher(None, a, b).ratio() >= 0.75


def related_with(a: str, b: str, obj: str) -> bool:
    """Verbs ``a`` and ``b`` say the same of ``obj`` (:data:`NEAR_SYNONYMS_WITH`)."""
    groups = NEAR_SYNONYMS_WITH.get(obj.split()[-1] if obj else "", ())
    return any(a in g and b in g for g in groups)


#: Verbs that are true of nearly any scene that has the other verb's parts (who feeds a
#: giraffe looks at it; who eats a sandwich may share it): never a replacement.
WEAK_VERBS = words("weak_verbs")
#: Relations a thing can have to many objects at once: replacing the object may leave a true
#: sentence when the two are often seen together ("wearing a jacket" -> "wearing a shirt").
NON_EXCLUSIVE = words("non_exclusive_relations")


#: Coarse classes of objects (singular heads), a back-off for swaps and shuffles: "the woman
#: behind the man" is plausible because "person | behind | person" was seen, though this
#: very triple was not. Objects of no class (and parts, places) get no back-off.
OBJECT_CLASSES: dict[str, frozenset[str]] = {
    c: frozenset(ws) for c, ws in keyed("object_classes").items()
}
#: Size words that fit anything of a class in :data:`SIZED` ("a small truck", "a large
#: goat"); "tall", "short" and "long" fit by shape only ("a tall pizza"), so the statistics
#: decide those.
GENERIC_SIZES = words("generic_sizes")
SIZED = frozenset({"animal", "vehicle", "furniture", "small object", "building", "plant"})
#: Relations of support and containment: the class says nothing of which holds which.
SUPPORT = words("support_relations")
#: Relations that say where a thing stands from the camera's point of view: true of either
#: order of two free-standing things ("the bus in front of the car", "the car in front of
#: the bus").
VIEW_RELATIVE = words("view_relative_relations")
#: Relations of two things near each other, true either way round; not "with" (a zebra with
#: two ears), "among" or "between" (two trees among some giraffes).
NEARBY = words("nearby_relations")
#: Classes of things that stand on their own: either may stand behind the other. Not parts,
#: worn things, food or small things, which are held, worn or carried.
FREE_STANDING = frozenset({"person", "animal", "vehicle", "furniture", "building", "plant"})
ANIMATE_CLASSES = frozenset({"person", "animal"})
#: Verbs of position that keep a relation of where a thing stands ("standing behind").
STANCE_VERBS = words("stance_verbs")
#: Actions either of two animate beings can do to the other ("a woman looking at a man", "a
#: man looking at a woman").
RECIPROCAL_VERBS = words("reciprocal_verbs")
#: ... of which an animal does not do these ("a dog talking to a man").
PEOPLE_ONLY_VERBS = words("people_only_verbs")
#: Verbs whose object, said with none after it, is led ("walking a dog"): people's only.
LEADING_VERBS = words("leading_verbs")
#: Young ones who only look at others ("a baby feeding a mother": never).
YOUNG = frozenset("baby infant toddler newborn".split())
LOOK_VERBS = words("look_verbs")
#: Things seen only far behind everything else: nothing stands behind them.
FAR_AWAY = words("far_away_things")
#: Things of no class seen in this many colours come in any colour (signs, walls, doors).
MANY_COLOURS = 4
#: A thing seen in a colour this many times or more, one colour this share of them, has its
#: own colour: it takes only colours seen on it ("a yellow school bus", 16 of 18 yellow, and
#: 2 bright yellow: never "a red school bus", which vehicles would allow: blind review
#: round 46).
OWN_COLOUR_SEEN = 8
OWN_COLOUR_SHARE = 0.8
#: ... unless natural: their colours are few and fixed ("a blue leaf", "pink grass").
NATURAL = words("natural_colour_things")
#: Classes of made things, which come in any colour.
PAINTED = frozenset({"vehicle", "clothing", "furniture", "small object", "building", "fixture"})
#: Classes whose members may change places on the class's evidence. Not body parts (parts of
#: one whole: "his face on his hair"), nor small things, food and furniture, which hold,
#: carry and contain one another ("the plate is on the fork", "a table on the chair").
SWAPPABLE = frozenset({"person", "animal", "vehicle", "clothing", "plant", "building"})
_CLASS_OF = {w.replace("_", " "): c for c, ws in OBJECT_CLASSES.items() for w in ws}


def object_class(obj: str) -> str | None:
    """The coarse class of an object name, by the whole name or its head; None: no class."""
    if obj in _CLASS_OF or obj in FIXED_EXPRESSIONS:  # "hot dog" is no dog
        return _CLASS_OF.get(obj)
    return _CLASS_OF.get(obj.split()[-1])
