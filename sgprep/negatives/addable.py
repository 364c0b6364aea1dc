"""What connect may add, and where, from the statistics in use (issue 32).

A blind reader calls an added thing false only when the caption makes them expect it to be
absent, so connect adds a *salient* thing, one a caption would name if the photo showed it:
an animal, a vehicle, a piece of furniture, a plaything (the kind comes from WordNet,
``data/object_kinds.json``), or one of a few other big things (``data/addable.json``). Which
of those, and where, comes from the co-occurrence statistics in use (the bundled ones, or the
user's corpus through ``sgprep vocab``), not from a list:

- a thing is *possible* in a setting (a street, a farm, a kitchen: the settings' words are
  :data:`sgprep.negatives.scenes.SETTING_WORDS`) where the statistics saw it with that
  setting's words, and *typical* of it where it is there in one scene of that setting in
  :data:`TYPICAL_SHARE` or more (then it may well be in the photo unnamed: "a train in the
  station near a bench");
- each thing possible there is drawn alike (:data:`FLATTEN`): by how often the captions name
  it, the few things possible almost anywhere ("a dog") or in the commonest settings ("a
  cat" by a plate of food) would become the words a text-only model learns.

Made once per statistics object (:func:`addable_table`), then looked up per setting.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, replace
from functools import lru_cache
from pathlib import Path

from sgprep.negatives.cooc_count import NOT_OBJECTS, SEP
from sgprep.negatives.cooc_lexicon import object_class
from sgprep.negatives.scenes import SETTING_WORDS

DATA = Path(__file__).resolve().parent / "data"
#: A thing counted fewer times is not added: a rare word is a typo or a parse error as often.
MIN_COUNT = 3
#: Seen with a setting's words in this share of that setting's scenes, or more: typical of it.
TYPICAL_SHARE = 0.05
#: Seen with a setting's words this many times, or more, and in this share of the thing's
#: scenes that name a setting, or more: possible in it (a giraffe seen once by a street sign
#: is no street thing). Most captions name no setting, so a share of all its scenes would
#: leave a thing seen in several settings possible in none ("a horse": on a farm in 10 % of
#: its scenes, at a show in 9 %).
POSSIBLE_SEEN = 2
POSSIBLE_SHARE = 0.1
#: A setting whose own things are fewer than this takes the things one meets anywhere too.
MIN_POOL = 12
#: A pet the statistics saw away from where pets are (``pet_settings``) fewer times than this
#: stays there: a hamster seen at a pet store and on a toy car now and then is met at home
#: (87,045 written captions: 7 times away, a cat 523), never "a boy on a bike, near a hamster".
PET_AWAY_SEEN = 10


@dataclass(frozen=True)
class Addable:
    """One thing connect may add: its kind, whether it is big, how often the captions name it,
    and the settings it is possible in and typical of."""

    word: str
    kind: str
    big: bool
    count: int
    possible: frozenset[str]
    typical: frozenset[str]
    #: the statistics saw it most often where pets are (``pet_settings``: at home), of all the
    #: settings they saw it in
    home_first: bool = False
    #: how often the statistics saw it with a setting's words away from where pets are
    away: int = 0


@lru_cache(maxsize=1)
def lexicon() -> dict:
    """``data/object_kinds.json`` (kinds by WordNet) and ``data/addable.json`` (what else is
    addable, what never is, and which settings are indoors or wild)."""
    wordnet = json.loads((DATA / "object_kinds.json").read_text())
    kinds = wordnet["kinds"]
    extra = json.loads((DATA / "addable.json").read_text())
    return {
        "kinds": {
            **{w: (k, size == "big") for w, (k, size, _) in kinds.items()},
            **{w: (k, size == "big") for w, (k, size) in extra["things"].items()},
        },
        "craft": frozenset(w for w, (_, _, sub) in kinds.items() if sub == "craft"),
        "parents": wordnet.get("parents", {}),
        "never": frozenset(extra["never"]),
        "unnamed": frozenset(extra["unnamed"]),
        "unnamed_parents": frozenset(extra["unnamed_parents"]),
        "outdoor_things": frozenset(extra["outdoor_things"]),
        "indoor_things": frozenset(extra["indoor_things"]),
        "indoor": frozenset(extra["indoor_settings"]),
        "outdoor_only": frozenset(extra["outdoor_kinds"]),
        "small": frozenset(extra["small"]),
        "strict": frozenset(extra["strict_settings"]),
        "carried": frozenset(extra["carried_kinds"]),
        "pet_settings": frozenset(extra["pet_settings"]),
        "animal_settings": frozenset(extra["animal_settings"]),
        "no_animal_settings": frozenset(extra["no_animal_settings"]),
        "setting_bound": frozenset(extra["setting_bound"]),
        "setting_bound_kinds": frozenset(extra["setting_bound_kinds"]),
        "typical": {w: frozenset(s) for w, s in extra["typical"].items()},
        "predicates": tuple(extra["predicates"]),
        "person_only": frozenset(extra["person_only_predicates"]),
        "join": frozenset(extra["join_predicates"]),
        "bulky": frozenset(extra["bulky_classes"]),
        "placed_classes": frozenset(extra["placed_classes"]),
    }


def _unnamed(word: str, lex: dict) -> bool:
    """A thing one carries in the hand and a caption seldom names (``addable.json``'s
    ``unnamed``, by the thing, its last word or its WordNet parent: a tote, a tool bag, a
    pannier): a reader cannot tell it is not in the photo (blind review rounds 47-50)."""
    return (
        word in lex["unnamed"]
        or word.split()[-1] in lex["unnamed"]
        or lex["parents"].get(word) in lex["unnamed_parents"]
    )


def addable_table(cooc) -> tuple[Addable, ...]:
    """The things of a salient kind that ``cooc`` counts :data:`MIN_COUNT` times or more, with
    the settings it saw them in; sorted by word (a fixed order keeps draws deterministic)."""
    lex = lexicon()
    objects = cooc.tables["obj"]
    candidates = {
        w: n
        for w, n in objects.items()
        if n >= MIN_COUNT
        and w in lex["kinds"]
        and w not in lex["never"]
        and not _unnamed(w, lex)  # "beside a tote": one may carry it unnamed
        and w not in lex["craft"]  # a boat, a plane: by water or a runway they may well be
        # there, elsewhere absurd ("a plane window view, behind a gondola": round 10)
    }
    setting_of: dict[str, frozenset[str]] = {}
    totals: dict[str, int] = {}
    for word, settings in SETTING_WORDS.items():
        n = objects.get(word, 0)
        if n:
            setting_of[word] = settings
            for s in settings:
                totals[s] = totals.get(s, 0) + n
    seen: dict[str, dict[str, int]] = {w: {} for w in candidates}
    for pair, n in cooc.tables["scene"].items():
        a, _, b = pair.partition(SEP)
        for thing, other in ((a, b), (b, a)):
            if thing in seen and other in setting_of:
                row = seen[thing]
                for s in setting_of[other]:
                    row[s] = row.get(s, 0) + n
    out = []
    for w in sorted(candidates):
        kind, big = lex["kinds"][w]
        row = seen[w]
        out.append(
            Addable(
                w,
                kind,
                big,
                candidates[w],
                frozenset(
                    s
                    for s, n in row.items()
                    if n >= POSSIBLE_SEEN and n >= POSSIBLE_SHARE * sum(row.values())
                ),
                frozenset(s for s, n in row.items() if n >= TYPICAL_SHARE * totals[s] and n >= 2)
                | lex["typical"].get(w, frozenset()),
                bool(row) and max(row.values()) == max(row.get(s, 0) for s in lex["pet_settings"]),
                sum(n for s, n in row.items() if s not in lex["pet_settings"]),
            )
        )
    # a compound is typical where its head is ("a commuter train" at a station: a train)
    typical = {a.word: a.typical for a in out}
    out = [
        a
        if " " not in a.word or a.word.split()[-1] not in typical
        else replace(a, typical=a.typical | typical[a.word.split()[-1]])
        for a in out
    ]
    thin = frozenset(w for w in candidates if sum(seen[w].values()) < THIN_SEEN)
    return tuple(_placed_by_parent(out, lex["parents"], thin))


#: How far up its WordNet parents a thing looks for one the statistics place somewhere.
PARENT_STEPS = 4


@lru_cache(maxsize=65_536)  # of the lexicon alone: once per word and process
def lineage(word: str) -> tuple[str, ...]:
    """``word``, then its WordNet parents (``object_kinds.json``'s ``parents``), nearest
    first, :data:`PARENT_STEPS` of them at most: "golden retriever", "retriever", "dog", ..."""
    parents, out = lexicon()["parents"], [word]
    while len(out) <= PARENT_STEPS and out[-1] in parents:
        out.append(parents[out[-1]])
    return tuple(out)


#: A thing seen with settings' words fewer times than this is placed by its parent too: a
#: few sightings place it by chance ("a spaniel" seen in a tub twice is still a dog, and may
#: go where a dog goes).
THIN_SEEN = 10


def _placed_by_parent(
    table: list[Addable], parents: dict[str, str], thin: frozenset[str] = frozenset()
) -> list[Addable]:
    """A thing the statistics saw in no setting is possible where its nearest parent of the
    table that they did see somewhere is possible, and typical where it is typical
    (``object_kinds.json``'s ``parents``: "a dachshund" goes where "a dog" goes, and may be
    in the photo where a dog may be); the statistics alone are too few to place each
    breed. A thing they saw in settings only now and then (``thin``) is possible where it
    was seen and where its parent is, a pet if its parent is one. A piece of furniture goes
    out of doors only where the statistics saw it there itself: a couch left on a street is
    no loveseat on a mountain road ("a group of cyclists ride along a winding mountain road,
    in front of a loveseat": blind review round 35)."""
    by_word = {a.word: a for a in table}
    indoors = lexicon()["indoor"]
    out = []
    for a in table:
        parent, steps = parents.get(a.word), 0
        while (not a.possible or a.word in thin) and parent is not None and steps < PARENT_STEPS:
            found = by_word.get(parent)
            if found is not None and found.possible:
                inherited = found.possible & indoors if a.kind == "furniture" else found.possible
                a = replace(
                    a,
                    possible=a.possible | inherited,
                    typical=a.typical | found.typical,
                    home_first=found.home_first,
                    away=max(a.away, found.away),
                )
                break
            parent, steps = parents.get(parent), steps + 1
        out.append(a)
    return out


def addable_in(table: tuple[Addable, ...], settings: frozenset[str]) -> list[tuple[Addable, int]]:
    """The things possible in every one of ``settings`` or all but one (a caption may name a
    setting in passing: "a pony walking near the ocean"; furniture in every one) and typical
    of none, each with how many it fits; indoors nothing big, no vehicle (``outdoor_kinds``)
    and no furniture, no wild animal but on a farm or in the wild where it was seen. With
    no setting named, or too few things seen there (:data:`MIN_POOL`): the things one meets
    anywhere."""
    lex = lexicon()
    if not settings:
        # no setting named: a thing one carries, a bicycle, and an animal the statistics saw
        # at home or on a street (a pet), each seen in some setting; nothing big, no wild
        # animal ("a girl hands a flower to her mother, with a raccoon"), no furniture
        return [
            (a, 0)
            for a in table
            if fits_small(a.word)
            and a.possible  # seen in some setting
            and a.word not in lex["setting_bound"]
            and a.kind not in lex["setting_bound_kinds"]
            and a.kind != "furniture"  # a table, a chair: anywhere, so perhaps there (round 10)
            and not _kept_indoors(a.word, lex)  # a violin: at home
            # a pet seen only at home stays there ("a hot air balloon above a field, beside a
            # gecko", "a boy on a bike, near a gecko": read in the fresh set's output), and one
            # seen away from it now and then (:data:`PET_AWAY_SEEN`)
            and (
                a.kind != "animal"
                or (is_pet(a) and a.possible - lex["pet_settings"] and a.away >= PET_AWAY_SEEN)
            )
        ]

    need = max(1, len(settings) - 1)
    out, seen = [], set()
    for a in table:
        if settings & a.typical or (settings & lex["strict"]) - a.possible:
            continue  # never a town thing by a wild animal ("a bear by a river, near a skateboard")
        if _out_of_place(a, settings):
            continue
        if (
            a.kind == "animal"
            and not is_pet(a)
            and not settings & lex["animal_settings"] & a.possible
        ):
            # a deer, a bear: by a farm or in the wild, never on a street; and only where the
            # statistics saw it ("parked beside a barn, behind a zebra": blind review round 22)
            continue
        n = len(settings & a.possible)
        if n >= (len(settings) if a.kind == "furniture" else need):
            # furniture in every setting named: "the catcher signals the pitcher" names a
            # "plate" too, yet no kitchen table goes there
            out.append((a, n))
            seen.add(a.word)
    if len(out) < MIN_POOL and not settings & lex["strict"]:
        # few things seen there: the things one meets anywhere too (else the few, "a pug"
        # in a dining room, would be every addition there), a thing no pet only where the
        # statistics saw it ("a man shovels snow from his driveway while his son builds a
        # snowman, with a purple suitcase": blind review round 58)
        out += [
            (a, 0)
            for a, _ in addable_in(table, frozenset())
            if a.word not in seen
            and not settings & a.typical
            and not _out_of_place(a, settings)
            and (a.kind == "animal" or settings & a.possible)
        ]
    return out


def _kept_indoors(word: str, lex: dict) -> bool:
    """A musical instrument or a piece of furniture kept indoors (``addable.json``'s
    ``indoor_things``), by the thing, its last word or a WordNet parent (a bongo drum)."""
    kept = lex["indoor_things"]
    return word.split()[-1] in kept or not kept.isdisjoint(lineage(word))


def _out_of_place(a: Addable, settings: frozenset[str]) -> bool:
    """``a`` never goes in ``settings``, whatever the statistics say: indoors nothing big, no
    vehicle (``outdoor_kinds``), no playground thing (``outdoor_things``) and no furniture;
    out of doors nothing kept indoors (``indoor_things``: a violin by a stalled car); no
    animal in a public building (``no_animal_settings``), a pet at home aside."""
    lex = lexicon()
    if _kept_indoors(a.word, lex) and not settings <= lex["indoor"]:
        return True  # "... push a stalled car down the street, next to a small violin"
    if settings & lex["indoor"] and (
        a.kind in lex["outdoor_only"]  # never a truck by a bed, whatever a parse error counted
        or a.big
        or a.word in lex["outdoor_things"]  # a seesaw in a living room (blind review round 55)
        # a room is furnished: a loveseat, a footstool, a desk may be there unnamed (blind
        # review round 52: "a little girl blows out candles ..., beside a loveseat"; rounds
        # 34-37: a bed in a kid's room, a footstool in a bedroom, stools in kitchens)
        or a.kind == "furniture"
    ):
        return True
    # "two nurses push a patient on a stretcher down a hospital hallway, behind a pug"
    return (
        a.kind == "animal"
        and bool(settings & lex["no_animal_settings"])
        and not settings & lex["pet_settings"]
    )


def is_pet(a: Addable) -> bool:
    """An animal the statistics saw most often where pets are (``pet_settings``: at home;
    a hawk or a sea turtle seen in a garden now and then is none: blind review round 16,
    "a kitchen counter cluttered with pots, next to a hawk"), and no big one ("bear" is
    counted at home from teddy bears: never "a rainy street beside a bear", round 14), nor
    one whose name names the wild (an orangutan seen once in a home: "a man shaves his beard
    in front of a bathroom mirror next to an orangutan", read in the written corpus's output)."""
    return (
        not a.big
        and a.home_first
        and bool(a.possible & lexicon()["pet_settings"])
        and "wild" not in SETTING_WORDS.get(a.word, ())
    )


def is_big(word: str) -> bool:
    """A big thing (a vehicle with a motor, a big animal, a tent): never put near a small
    thing or food ("a plate of food next to a bus")."""
    hit = lexicon()["kinds"].get(word)
    return bool(hit and hit[1])


def is_bulky(word: str) -> bool:
    """A thing one carries only by itself (``addable.json``'s ``bulky_classes``: a couch, a
    bicycle, or a big thing of :func:`is_big`): nothing is joined to it in a list, nor it
    to another thing ("two men carry a heavy couch | and a stone statue")."""
    hit = lexicon()["kinds"].get(word)
    return bool(hit and (hit[1] or hit[0] in lexicon()["bulky"])) or (
        object_class(word) in lexicon()["bulky"]
    )


def fits_huge(word: str) -> bool:
    """May be put near a huge thing (a ship, a building, a plane): a big vehicle of the land,
    a car, a truck, a bus; no craft (by a ship more boats may well be), no animal ("a ship at
    the port, beside a moose")."""
    hit = lexicon()["kinds"].get(word)
    return bool(hit) and hit[0] == "vehicle" and hit[1] and word not in lexicon()["craft"]


def is_small(word: str) -> bool:
    """A small thing (things one carries or sits on, a cat, a plaything): never put near a
    building, a vehicle, a tree or a place ("a steeple next to a chair", "a line of taxis
    outside a hotel, in front of a bucket": blind review round 14)."""
    hit = lexicon()["kinds"].get(word)
    return word in lexicon()["small"] or bool(hit and hit[0] in lexicon()["setting_bound_kinds"])


def fits_small(word: str) -> bool:
    """May be put near a small thing or food: a thing one carries, a pet, or what one sits
    at or on (``small``); nothing big, no vehicle ("a plate of food next to a chair", never
    "chicken behind a bed", "fried rice behind a ladder")."""
    hit = lexicon()["kinds"].get(word)
    return not is_big(word) and (
        word in lexicon()["small"] or bool(hit and hit[0] in ("gear", "animal"))
    )


#: Seen this many times as the object of a predicate, or more: a second thing that predicate
#: may take in a list (seen once may be a parse's slip).
JOIN_SEEN = 2


@lru_cache(maxsize=4096)
def joinable(cooc, predicate: str, subject: str) -> tuple[tuple[str, ...], tuple[float, ...]]:
    """The things ``subject`` may take as a second object of ``predicate`` (as counted, one of
    ``addable.json``'s ``join_predicates``): "a man holding an umbrella | and a cup". With
    their weights, sorted by word: the objects the statistics saw :data:`JOIN_SEEN` times or
    more with that predicate from a subject of the same class as ``subject`` (a person, an
    animal: :func:`object_class`; else the same word), by how often (frequency matching per
    role, flattened as :data:`ROLE_FLATTEN`: "a girl eating an apple and a leaf" is a giraffe's).
    Never a person or a thing that is no object (a word of quantity, of place), a thing worn
    or a part (:meth:`Cooc.part_or_worn`)."""
    if predicate not in lexicon()["join"]:
        return (), ()
    head = subject.split()[-1] if subject.strip() else ""
    cls = object_class(subject) or object_class(head)
    counts: dict[str, int] = {}
    for rest, n in cooc.neighbours("spo", 1, predicate).items():
        s, _, o = rest.partition(SEP)
        if (object_class(s) == cls) if cls else s.split()[-1] == head:
            counts[o] = counts.get(o, 0) + n
    out = [
        (w, n**ROLE_FLATTEN)
        for w, n in sorted(counts.items())
        if n >= JOIN_SEEN
        and w not in NOT_OBJECTS
        and w not in lexicon()["never"]  # "eating a hot dog and a lunch"
        and object_class(w) != "person"
        and not cooc.part_or_worn(w)
    ]
    return tuple(w for w, _ in out), tuple(n for _, n in out)


@lru_cache(maxsize=8)
def _predicate_counts(cooc) -> dict[str, int]:
    """How often the statistics say each predicate of ``addable.json``'s ``predicates`` (at
    least once each: a corpus that never says one still may)."""
    counts = dict.fromkeys(lexicon()["predicates"], 1)
    for k, n in cooc.tables["po"].items():
        p = k.partition(SEP)[0]
        if p in counts:
            counts[p] += n
    return counts


def carried(a: Addable) -> bool:
    """A thing one may have with one ("a woman with a dog", "a man with a suitcase"): of
    ``addable.json``'s ``carried_kinds``, not big, and of animals a pet (seen at home or on a
    street: never "the catcher signals the pitcher with a fox", round 11)."""
    lex = lexicon()
    return a.kind in lex["carried"] and not a.big and (a.kind != "animal" or is_pet(a))


def predicates(cooc, said: str, person: bool) -> tuple[list[str], list[float]]:
    """The predicates connect may place a new thing by that ``said`` (the caption in lower
    case between spaces) does not say, with their weights; "with" only where ``person``
    (a person has the new thing with them: :func:`carried`)."""
    counts = _predicate_counts(cooc)
    only = lexicon()["person_only"]
    preds = [p for p in counts if f" {p} " not in said and (person or p not in only)]
    return preds, [float(counts[p]) for p in preds]


@lru_cache(maxsize=8)
def attribute_share(cooc) -> float:
    """The share of the things the captions name that carry an attribute (how often connect
    gives its new thing one), at most a half."""
    objects = sum(cooc.tables["obj"].values()) or 1
    described = sum(cooc.tables["attr"].values())
    return min(0.5, described / objects)


#: The exponent of a thing's count in connect's draws (what it adds, a second subject, a
#: thing joined in a list): 0, every thing possible there alike. By its count, a thing
#: possible almost anywhere ("a dog") would be added far more often than captions name it,
#: the word a text-only model learns; even by a fourth root of its count, the few things
#: possible in the commonest settings led (with 53,675 captions counted, a cat beside a plate
#: of food was 9.1 % of the fresh set's additions; 5.4 % drawn alike).
FLATTEN = 0.0
#: The exponent of a thing's count where connect joins it to a list or names it as a second
#: subject: a fourth root (frequency matching per role, flattened), among the few things
#: the statistics saw in that role.
ROLE_FLATTEN = 0.25


def weight(a: Addable) -> float:
    """How often connect draws ``a`` where it may (:data:`FLATTEN`)."""
    return a.count**FLATTEN
