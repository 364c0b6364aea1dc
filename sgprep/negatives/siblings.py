"""Siblings in fine categories, and what a caption's other words let a replacement be (issue 18).

replace_object follows SugarCrepe's replace-obj: the new object is a *sibling* of the old one
in a fine category ("hot dog" -> "hamburger", "bus" -> "truck", "fork" -> "spoon"), so that it
does what the old one did in the caption, and it must fit every other thing the caption says:
its setting ("elephants on a farm", "a horse in a kitchen"), its sport ("a tennis player
swinging a baseball bat"), and the words tied to one thing ("walking the dog on a leash" ->
"the cat"). The co-occurrence statistics bundled with sgprep are counted from short region
captions and know too few scenes to say this (blind review rounds 3 and 4), and spaCy's small
model has no word vectors, so it is a small hand-written lexicon:

- :data:`GROUPS` (``data/sibling_groups.json``): fine categories whose members are interchangeable in a caption and never
  the same thing (not synonyms, hypernyms or hyponyms). A member may have aliases ("hamburger/
  burger/cheeseburger"): an alias is matched but never drawn, and never replaces its own member;
- per member, where it may be (settings of :mod:`sgprep.negatives.scenes`, where it matters),
  which sport it belongs to, and what a member of an animate group may do or undergo;
- :data:`TIES`: caption words that only some members go with ("leash": a dog).

Counts from the statistics (the bundled ones, or a user's from ``sgprep vocab``) weight the
draw among siblings: common names first.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from sgprep.lexicon import keyed, ordered, words
from sgprep.negatives import scenes

#: The hand-written groups (a data file: members, settings, sports, what members do).
DATA = Path(__file__).resolve().parent / "data" / "sibling_groups.json"


@dataclass(frozen=True)
class Group:
    members: tuple[tuple[str, ...], ...]  # each member: its drawn name first, then aliases
    settings: dict[str, frozenset[str]]  # drawn name -> possible settings (absent: anywhere)
    sports: dict[str, str]  # drawn name -> its sport
    does: frozenset[str] | None  # verbs a member may do as a subject (None: not checked)
    takes: frozenset[str] | None  # verbs a member may undergo as an object (None: any)
    natural: bool = False  # animals, fruit, flowers: colours of their own (:data:`COLOURS`)


#: The lexicon lists a group's verbs may name, as ``$name``.
VERB_LISTS = {
    "animate_doings": ordered("animate_doings"),
    "vehicle_doings": ordered("vehicle_doings"),
    "looked_at_doings": ordered("looked_at_doings"),
}


def _verbs(spec: str | None) -> frozenset[str] | None:
    """A group's verbs: words, and ``$name`` for a list of :data:`VERB_LISTS`
    ("$animate_doings chase")."""
    if spec is None:
        return None
    out: set[str] = set()
    for w in spec.split():
        out.update(VERB_LISTS[w[1:]] if w.startswith("$") else (w,))
    return frozenset(out)


def _group(row: dict) -> Group:
    members = tuple(tuple(m.replace("_", " ").split("/")) for m in row["members"].split())
    return Group(
        members,
        {m: frozenset(s.split()) for m, s in row.get("where", {}).items()},
        dict(row.get("sports", {})),
        _verbs(row.get("does")),
        _verbs(row.get("takes")),
        bool(row.get("natural", False)),
    )


#: Fine categories (:data:`DATA`, whose note says what is left out on purpose and why).
GROUPS: tuple[Group, ...] = tuple(
    _group(row) for row in json.loads(DATA.read_text(encoding="utf-8"))["groups"]
)

#: The group of people (the first): a gender cue in the caption keeps it.
PEOPLE = GROUPS[:1]

#: Caption words that name a sport: a member of another sport contradicts them.
SPORT_WORDS: dict[str, frozenset[str]] = {
    w: frozenset(sports.split()) for sports, ws in keyed("sport_words").items() for w in ws
}

#: Words that place a caption in a setting, beyond :data:`scenes.SETTING_WORDS` (roles and
#: places a COCO caption names: "a chef", "a farmer", "at the cafe").
EXTRA_SETTING_WORDS: dict[str, frozenset[str]] = {
    w: frozenset(settings.split())
    for settings, ws in keyed("role_setting_words").items()
    for w in ws
}

#: Caption words that only some members go with: the others contradict the caption.
TIES: dict[str, frozenset[str]] = {
    w: frozenset(members.split(",")) for members, ws in keyed("member_ties").items() for w in ws
}

#: Places only some animals get to or stay on (blind review round 6: "a black cat walking
#: along the top of a fence" -> "a black dog"): a caption naming one keeps its animal, the
#: others are refused as ``animal_place``. Members as :data:`TIES`; a bird or a fish has no
#: sibling group yet, its rows wait for one.
ANIMAL_PLACES: dict[str, frozenset[str]] = {
    w: frozenset(members.split(",")) for members, ws in keyed("animal_places").items() for w in ws
}

#: Liquids, and what may hold one ("a bucket of milk" -> "a basket of milk" spills).
LIQUIDS = words("liquids")
VESSELS = words("vessels")

#: Words that say a person's gender whatever the noun ("a man with a beard" -> "a woman").
GENDER_CUES = words("gender_cues")

#: The colours of animals, fruit and flowers: another colour ("a gray elephant" -> "a gray giraffe",
#: "a black bear" -> "a black lion", "a red apple" -> "a red banana") only where the
#: statistics saw it on the new one.
COLOURS: dict[str, frozenset[str]] = {
    w: frozenset(colours) for w, colours in keyed("natural_colours").items()
}
#: Attributes that name what a food or drink is made of or tastes of ("orange juice",
#: "chocolate cake"): part of its name, which a sibling does not take ("orange milk").
FLAVOURS = words("flavours")
#: Drinks named by a colour ("red wine", "black coffee", "green tea"): the colour is part
#: of the name ("red beer").
DRINKS = words("coloured_drinks")
#: Things one person sits or stands on: never under several ("a couple sits on a chair").
ONE_SEAT = words("one_seat_things")
#: Words for several people, whatever the noun's number.
SEVERAL = words("several_people_words")

#: name (drawn or alias, lower case) -> (group index, member's drawn name)
_INDEX: dict[str, tuple[int, str]] = {
    alias: (g, member[0])
    for g, group in enumerate(GROUPS)
    for member in group.members
    for alias in member
}


@lru_cache(maxsize=65536)
def member(name: str) -> tuple[int, str] | None:
    """The group and drawn name of an object name (whole, or its singular), if any."""
    return _by_name(_INDEX, name)


def _by_name(index: dict, name: str):
    """``index``'s entry for an object name, whole or with its last word singular."""
    from sgprep.negatives.cooc import singular  # a cycle: cooc imports scenes' neighbours

    hit = index.get(name)
    if hit is None:
        words = name.split()
        hit = index.get(" ".join([*words[:-1], singular(words[-1])])) if words else None
    return hit


@lru_cache(maxsize=4096)
def siblings(name: str) -> tuple[str, ...]:
    """The other members' drawn names of ``name``'s group (none if it has no group)."""
    hit = member(name)
    if hit is None:
        return ()
    g, own = hit
    return tuple(m[0] for m in GROUPS[g].members if m[0] != own)


#: The group of an object with kin (:func:`kin`) and no hand-written group: nothing checked of
#: what it does or undergoes (the statistics judge its relations, :mod:`.strategies.replace`).
KIN_GROUP = Group((), {}, {}, None, None)


@lru_cache(maxsize=1)
def _kin_index() -> dict[str, tuple[str, ...]]:
    """``data/object_kin.json``: each object's co-hyponyms among the bundled counts' objects."""
    import json
    from pathlib import Path

    path = Path(__file__).resolve().parent / "data" / "object_kin.json"
    out: dict[str, tuple[str, ...]] = {}
    for group in json.loads(path.read_text())["groups"]:
        for w in group:
            out[w] = tuple(x for x in group if x != w)
    return out


def kin(name: str) -> tuple[str, ...]:
    """The WordNet co-hyponyms of an object of no hand-written group ("canoe": "rowboat"), by
    the whole name or its singular; none for a member of a group."""
    if member(name) is not None:
        return ()
    return _by_name(_kin_index(), name) or ()


def group_of(name: str) -> Group | None:
    hit = member(name)
    return None if hit is None else GROUPS[hit[0]]


@dataclass(frozen=True)
class CaptionContext:
    """What a caption's words (but those of the replaced noun phrase) say of its scene."""

    settings: frozenset[str]  # scenes' settings and roles' ("a chef": a kitchen)
    sports: frozenset[str]
    tied: tuple[frozenset[str], ...]  # for each word of :data:`TIES`, its members
    gender_cue: bool
    places: tuple[frozenset[str], ...] = ()  # for each word of :data:`ANIMAL_PLACES`


@lru_cache(maxsize=1)
def _context_words() -> tuple[frozenset[str], frozenset[str]]:
    """Every word that :func:`caption_context` looks up, and every beginning (a prefix, the
    empty one and the whole word included) of a word of :data:`SPORT_WORDS`: a pair of
    words whose first is none of those is never one word written as two."""
    looked_up = frozenset(
        [*scenes.SETTING_WORDS, *EXTRA_SETTING_WORDS, *SPORT_WORDS, *TIES, *ANIMAL_PLACES]
    )
    starts = frozenset(w[:k] for w in SPORT_WORDS for k in range(len(w) + 1))
    return looked_up | GENDER_CUES, starts


#: The context of a caption none of whose words says anything of its scene.
_NO_CONTEXT = CaptionContext(frozenset(), frozenset(), (), False, ())


@lru_cache(maxsize=65536)
def caption_context(words: tuple[str, ...]) -> CaptionContext:
    """The :class:`CaptionContext` of a caption's (lower-case) words."""
    looked_up, starts = _context_words()
    # two words written as one ("wet suit": a wetsuit)
    words = words + tuple(
        a + b for a, b in zip(words, words[1:]) if a in starts and a + b in SPORT_WORDS
    )
    hits = [w for w in words if w in looked_up]  # in order: the only words that count
    if not hits:
        return _NO_CONTEXT
    settings = set(scenes.settings_of(words))  # by all the words: "teddy" before "bear"
    sports: set[str] = set()
    for w in hits:
        settings |= EXTRA_SETTING_WORDS.get(w, frozenset())
        sports |= SPORT_WORDS.get(w, frozenset())
    return CaptionContext(
        frozenset(settings),
        frozenset(sports),
        tuple(TIES[w] for w in hits if w in TIES),
        not GENDER_CUES.isdisjoint(hits),
        tuple(ANIMAL_PLACES[w] for w in hits if w in ANIMAL_PLACES),
    )


def contradiction(new: str, old: str, scene: CaptionContext) -> str | None:
    """Why a caption's other words (those of the replaced noun phrase left out, as
    :func:`caption_context`) make ``new`` absurd in place of ``old``: ``scene_contradiction``
    (a setting it is never in, "elephants on a farm"), ``sport_contradiction`` ("a tennis
    player swinging a baseball bat"), ``tied_word`` ("walking the cat on a leash"),
    ``gender_cue`` ("a woman with a beard"), ``animal_place`` ("a cat on a fence" -> "a
    dog"); None if nothing contradicts it."""
    g = group_of(new)
    if g is None:
        return None
    possible = g.settings.get(new)
    named = scene.settings
    # every setting named, but one of three or more (a caption may name one in passing)
    if (
        possible is not None
        and "*" not in possible
        and named
        and len(named & possible) < (len(named) if len(named) <= 2 else len(named) - 1)
    ):
        return "scene_contradiction"
    sport = g.sports.get(new)
    if sport is not None and scene.sports and sport not in scene.sports:
        return "sport_contradiction"
    if scene.tied:
        hit = member(old)
        if hit and any(hit[1] in tied and new not in tied for tied in scene.tied):
            return "tied_word"
    if scene.places:
        hit = member(old)
        if hit and any(hit[1] in place and new not in place for place in scene.places):
            return "animal_place"
    if scene.gender_cue and any(g is p for p in PEOPLE):
        return "gender_cue"
    return None
