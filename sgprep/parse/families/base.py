"""What a rule family is: its name, what it does, and where it hooks into the rule parser.

A family (:class:`Family`) is declared in one module of :mod:`sgprep.parse.families`, with
the code it adds. Today's hook points:
- ``repairs``: repairs of the parsed doc (:class:`Repair`), each run at its place in
  :data:`sgprep.parse.families.REPAIR_ORDER` while its family is on.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass


@dataclass(frozen=True)
class Context:
    """What a repair's arguments are made of: the families on, the parser's word index (the
    nouns and the modifiers spaCy's tables know), the verbs of its tables, and its verb
    lemmatiser ("posing" -> "pose")."""

    families: frozenset[str]
    words: tuple[frozenset[str], frozenset[str]]
    verbs: frozenset[str]
    verb_lemma: Callable


def _no_args(context: Context) -> tuple:
    return ()


@dataclass(frozen=True)
class Repair:
    """A repair of the parsed doc: ``run(doc, *args(context)) -> doc``. It runs while its
    family is on; with ``always``, whatever its family, its arguments saying what the family
    changes in it."""

    run: Callable
    args: Callable[[Context], tuple] = _no_args
    always: bool = False


@dataclass(frozen=True)
class Family:
    """A rule family: switched off by naming it in the parse setting ``rules_off``."""

    name: str
    about: str
    repairs: tuple[Repair, ...] = ()
