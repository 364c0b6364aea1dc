"""sgprep's word lists, as data: what the rule parser (:mod:`sgprep.parse`) and the negatives
(:mod:`sgprep.negatives`) know of English words, each list written once.

The lists live in this package's ``*.json`` files, one file per topic. Each file says where
its words come from (``"source"``) and holds ``"lists"``, by a name unique across the files:

- a list of words (``words``, ``ordered``): ``"colours": ["red", "blue", ...]``, in the order
  the code reads them where that order matters (first match wins, a tuple walked in turn);
- named groups (``keyed``): ``"worn_slots": {"head": ["cap", ...], "face": [...]}``;
- unnamed groups (``groups``): ``"near_synonym_nouns": [["cup", "mug", "glass"], ...]``;
- rows of named fields (``rows``): ``"made_of": [{"materials": [...], "things": [...]}, ...]``,
  where two lists of words go together.

A file may add ``"notes"``: for a list, why it is kept apart from one that looks alike, or
what reads it. A "word" may be several words ("next to", "hot dog"): an entry is one string.

Not here: what is counted or derived rather than written (``negatives/data/default_cooc.json``,
``related.json``, ``object_kin.json``, ``object_kinds.json`` and the WordNet parts of
``binding_kinds.json``, from corpora and WordNet, rebuilt by ``tools/build_negative_stats.py``), the default vocabulary
(``default_vocab.json``, in the format ``sgprep vocab`` writes), and the hand-written tables of
the negatives that are more than lists (``addable.json``: what connect may add, where and how;
``attribute_groups.json``: groups of states; ``sibling_groups.json``: replace_object's fine
categories; ``binding_kinds.json``'s shades, shapes and materials), which are data already, each naming its source; ``tests/test_lexicon.py`` checks
that none of them repeats a list of this package. Nor grammar's inflection tables
(``negatives/grammar.py``: irregular plurals, participles), which are its logic.

Each list is read once per process (cached); the results are immutable (a frozenset, a tuple,
a mapping of tuples), so no caller can change another's words. ``tests/test_lexicon.py``
checks that no module of sgprep holds a word table of its own, that no two lists are the
same, that every file names its source and that every list is read.
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from types import MappingProxyType
from typing import Any

__all__ = ["files", "groups", "keyed", "lists", "ordered", "rows", "words"]


def files() -> dict[str, dict[str, Any]]:
    """Every lexicon file, parsed: its name (``"people.json"``) -> its content."""
    return dict(_files())


@cache
def _files() -> dict[str, dict[str, Any]]:
    out = {}
    for entry in sorted(resources.files(__name__).iterdir(), key=lambda e: e.name):
        if entry.name.endswith(".json"):
            out[entry.name] = json.loads(entry.read_text(encoding="utf-8"))
    return out


@cache
def lists() -> dict[str, Any]:
    """Every list of every file, by its name (as written: lists of strings, or groups)."""
    out: dict[str, Any] = {}
    for name, content in _files().items():
        for key, value in content["lists"].items():
            if key in out:
                raise ValueError(f"lexicon list {key!r} is written twice (again in {name})")
            out[key] = value
    return out


def _get(name: str) -> Any:
    try:
        return lists()[name]
    except KeyError:
        raise KeyError(f"no lexicon list {name!r} (sgprep/lexicon/*.json)") from None


@cache
def ordered(name: str) -> tuple[str, ...]:
    """The words of list ``name``, in their written order."""
    value = _get(name)
    if not isinstance(value, list) or not all(isinstance(w, str) for w in value):
        raise TypeError(f"lexicon list {name!r} is not a list of words")
    return tuple(value)


@cache
def words(name: str) -> frozenset[str]:
    """The words of list ``name``, as a set."""
    return frozenset(ordered(name))


@cache
def keyed(name: str) -> MappingProxyType[str, tuple[str, ...]]:
    """The named groups of ``name``: group -> its words, groups in their written order."""
    value = _get(name)
    if not isinstance(value, dict):
        raise TypeError(f"lexicon list {name!r} is not a mapping of groups")
    return MappingProxyType({k: tuple(v) for k, v in value.items()})


@cache
def groups(name: str) -> tuple[tuple[str, ...], ...]:
    """The unnamed groups of ``name``, each a tuple of words, in their written order."""
    value = _get(name)
    if not isinstance(value, list) or not all(isinstance(g, list) for g in value):
        raise TypeError(f"lexicon list {name!r} is not a list of groups")
    return tuple(tuple(g) for g in value)


@cache
def rows(name: str) -> tuple[MappingProxyType[str, tuple[str, ...]], ...]:
    """The rows of ``name``, in their written order: each field -> its words."""
    value = _get(name)
    if not isinstance(value, list) or not all(isinstance(r, dict) for r in value):
        raise TypeError(f"lexicon list {name!r} is not a list of rows")
    return tuple(MappingProxyType({k: tuple(v) for k, v in r.items()}) for r in value)
