"""What makes a negative invalid, and the reasons counted when one is refused.

A negative must be false for the image. It is refused (and counted as ``rejected/<reason>``)
when it is:
- ``identical_attributes``: a swap of two equal attributes (or of attributes both entities
  already have): the swapped text says the same thing;
- ``identical_objects``: a swap or shuffle of two entities with the same head and attributes;
- ``symmetric_relation``: a shuffle of a symmetric relation ("next to", "near", "with" ...):
  "a cup next to a plate" and "a plate next to a cup" are both true;
- ``same_graph``: any perturbation whose graph means the same as the original (compared as a
  canonical multiset of entities and relations, symmetric relations undirected). Only the
  families that move existing words can do that; see :data:`ALWAYS_CHANGED`;
- ``equal_text``: a realised text equal to its positive (or another positive of the sample)
  after normalisation;
- ``duplicate``: a text already emitted for the same sample;
- ``list_reorder``: a swap or shuffle that only reorders the words of a list of attributes
  ("a black and red helmet" / "a red and black helmet") says the same thing; so does one
  that exchanges two items of one list ("green shorts and a blue shirt") or two things one
  person wears or has ("in a white uniform ... with a dark hat on"), refused in
  :mod:`sgprep.negatives.strategies.shuffle`.

Replacements that may still be true are refused in :mod:`sgprep.negatives.strategies.replace`:
``generic_word`` (a name that says little: "a clock tower" -> "a building"), ``may_be_true``
(a role for who a person is: "a skateboarder" -> "a woman"; clothes worn over one another;
an unspecific verb: "holding a bat" -> "swinging"), ``part_of_whole`` (a part, there with its
whole: "on the building" -> "on the wall"); and by fluency ``article_needed`` ("sitting in
snow" -> "sitting in booth").

Rejections by plausibility (``implausible_*``, ``unknown_object``, ``related_word``,
``no_attested_replacement``) are in :mod:`sgprep.negatives.strategies` and
:mod:`sgprep.negatives.cooc`; by fluency (``doubled_preposition``, ``no_span_edit``) in
:mod:`sgprep.negatives.realise`; by length (``too_long``, ``too_short``) in the stage.
"""

from __future__ import annotations

import re
from functools import lru_cache

from sgprep.lexicon import words
from sgprep.schema import SceneGraph

#: Relations whose two ends can be exchanged without changing the meaning. "with" is here on
#: purpose: "a man with a dog" / "a dog with a man" is too close to call, so it is never
#: shuffled (METHOD.md: better lose a negative than emit a true one).
SYMMETRIC = words("symmetric_relations")
#: Verbs of position that keep a symmetric preposition symmetric ("sitting next to").
STANCE_VERBS = words("symmetric_stance_verbs")

#: Spatial relations and their opposites (each pair both ways; 'under' answers 'on' first).
OPPOSITE_PAIRS = (
    ("to the left of", "to the right of"),
    ("on the left of", "on the right of"),
    ("left of", "right of"),
    ("in front of", "behind"),
    ("above", "below"),
    ("on top of", "under"),
    ("on", "under"),
    ("over", "under"),
    ("inside", "outside"),
    ("at the top of", "at the bottom of"),
    ("into", "out of"),
    ("in", "outside"),
)
OPPOSITES: dict[str, str] = {}
for _a, _b in OPPOSITE_PAIRS:
    OPPOSITES.setdefault(_a, _b)
    OPPOSITES.setdefault(_b, _a)
OPPOSITES["under"] = "on"

#: Families whose graph always differs from the original, so the same-graph check is skipped:
#: a replace puts into one entity (or one relation) a lower-case word that it did not have
#: (the vocabulary is lower-cased on load, and the words it may not take are lower-cased), so
#: that entity's (or relation's) description changes and the multiset with it; connect adds
#: an entity. Swaps and shuffles only move descriptions around and can land on the same graph.
ALWAYS_CHANGED = frozenset({"replace_attribute", "replace_object", "replace_relation", "connect"})

_NON_WORD = re.compile(r"[^\w\s]+")
#: Families that move words already in the caption, and so may only reorder a list.
REORDERING = frozenset({"swap_attribute", "swap_object", "shuffle_relation", "redraw_relation"})
#: Words that join the items of a list.
_LIST_JOINERS = frozenset({"and", "or", "&", "with"})
#: Articles between a list's items ("a man and a woman" / "a woman and a man": round 10).
_ARTICLES = frozenset({"a", "an", "the"})


#: _NON_WORD for ASCII text, as a translation table (a third faster than the regex).
_ASCII_NON_WORD = {c: " " for c in range(128) if _NON_WORD.match(chr(c))}


def normalise(text: str) -> str:
    """Lower case, punctuation as spaces, single spaces: the form texts are compared in."""
    text = text.lower()
    if text.isascii():
        return " ".join(text.translate(_ASCII_NON_WORD).split())
    return " ".join(_NON_WORD.sub(" ", text).split())


@lru_cache(maxsize=4096)
def is_symmetric(predicate: str) -> bool:
    p = " ".join(predicate.lower().split())
    if p in SYMMETRIC:
        return True
    verb, _, tail = p.partition(" ")
    return verb in STANCE_VERBS and tail in SYMMETRIC


def _entity_key(graph: SceneGraph, i: int) -> tuple:
    return entity_key(graph.entities[i])


def entity_key(e) -> tuple:
    return (e.head.lower(), tuple(sorted(a.lower() for a in e.attributes)), (e.count or 1) > 1)


def signature(graph: SceneGraph, keys_by_id: dict[int, tuple] | None = None) -> tuple:
    """The graph's meaning up to entity order: sorted entities and sorted relations over
    entity descriptions, symmetric relations without direction. ``keys_by_id``: descriptions
    of entity objects that the caller keeps alive (ids of freed objects are reused), shared
    between a graph and its perturbations."""
    known = keys_by_id or {}
    keys = [known.get(id(e)) or entity_key(e) for e in graph.entities]
    rels = []
    for r in graph.relations:
        s, o = keys[r.subject], keys[r.object]
        p = " ".join(r.predicate.lower().split())
        if o < s and is_symmetric(p):
            s, o = o, s
        rels.append((s, p, o))
    return tuple(sorted(keys)), tuple(sorted(rels))


def same_entity(graph: SceneGraph, i: int, j: int) -> bool:
    return _entity_key(graph, i) == _entity_key(graph, j)


def reordered_list(positive: str, negative: str, graph: SceneGraph) -> bool:
    """The negative differs from the positive only inside a stretch that holds the same
    words, joined by "and"/"or", or all of them attributes of one entity: a reordered list."""
    a, b = normalise(positive).split(), normalise(negative).split()
    if len(a) != len(b):
        return False
    diff = [k for k, (x, y) in enumerate(zip(a, b)) if x != y]
    if not diff:
        return True
    lo, hi = diff[0], diff[-1] + 1
    if sorted(a[lo:hi]) != sorted(b[lo:hi]):
        return False
    heads = {w for e in graph.entities for w in (e.head.lower(), e.text.lower().split()[-1])}
    if all(w in heads or w in _LIST_JOINERS or w in _ARTICLES for w in a[lo:hi]):
        return True  # "numbers and letters" / "letters and numbers"; "a man and a woman"
    for e in graph.entities:
        words = {w for attr in e.attributes for w in attr.lower().split()} | _LIST_JOINERS
        if all(w in words for w in a[lo:hi]):
            return True
    return False
