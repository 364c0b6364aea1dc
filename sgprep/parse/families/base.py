"""What a rule family is: its name, what it does, and where it hooks into the rule parser.

A family (:class:`Family`) is declared in one module of :mod:`sgprep.parse.families`, with
the code it adds. Today's hook points:
- ``clean``: the caption's text cleaned before parsing, in place (it keeps its length);
- ``refuse``: the cleaned text refused before parsing, as a failure with a reason;
- ``write_out``: the text rewritten before parsing, with a map of its characters to the
  text's before;
- ``speller``: a speller of the parser's spaCy pipeline, whose mended texts are parsed again;
- ``repairs``: repairs of the parsed doc (:class:`Repair`), each run at its place in
  :data:`sgprep.parse.families.REPAIR_ORDER` while its family is on;
- ``builder``: functions the graph builder calls at its hook points
  (:data:`sgprep.parse.families.BUILDER_POINTS`), each given the builder first;
- ``format``: functions FACTUAL's string form calls at its hook points
  (:data:`sgprep.parse.families.FORMAT_POINTS`).

The parser reads a hook point's hooks with :func:`sgprep.parse.families.hooks`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field


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
    #: the cleaned text -> (reason, message) where the caption is not parsed at all (it
    #: fails as parse/<reason>), or None
    refuse: Callable[[str], tuple[str, str] | None] | None = None
    #: text -> the text cleaned, of the same length (offsets still index the caption)
    clean: Callable[[str], str] | None = None
    #: text -> (the text rewritten, each of its characters' offset in the text before), or
    #: (text, None) where nothing is rewritten
    write_out: Callable[[str], tuple[str, list[int] | None]] | None = None
    #: spaCy pipeline -> a speller: ``edits(doc)`` -> [(start, end, word)] of the doc's text
    speller: Callable | None = None
    repairs: tuple[Repair, ...] = ()
    #: hook point of the graph builder -> the family's function there (builder, ...) -> ...
    builder: dict[str, Callable] = field(default_factory=dict)
    #: hook point of FACTUAL's string form -> the family's function there
    format: dict[str, Callable] = field(default_factory=dict)
