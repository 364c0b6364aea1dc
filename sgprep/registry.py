"""One way to look up a backend by name: a table of ``name -> "module:attribute"`` next to
what it registers (stages, parsers, engines, readers, executors), loaded with :func:`load_entry`.
A module is imported only when its entry is used, so ``sgprep --help`` stays light."""

from __future__ import annotations

import difflib
import importlib
from collections.abc import Iterable, Mapping
from typing import Any


class UnknownEntry(ValueError):
    """A name that is not in a registry; the message suggests the nearest one."""


def did_you_mean(name: str, choices: Iterable[str]) -> str:
    """``"; did you mean 'spacy'?"`` for a near miss, else ``""``."""
    near = difflib.get_close_matches(str(name), list(choices), n=1)
    return f"; did you mean {near[0]!r}?" if near else ""


def check_name(table: Mapping[str, str], name: str, what: str) -> str:
    if name not in table:
        raise UnknownEntry(
            f"{what} {name!r} is not known{did_you_mean(name, table)} "
            f"(choose one of {', '.join(table)})"
        )
    return name


def load_entry(table: Mapping[str, str], name: str, what: str) -> Any:
    """The object that ``table[name]`` names (``"module:attribute"``, or ``"module"`` for the
    module itself), imported now. An unknown name, or an entry whose module is not part of this
    installation, is a :class:`UnknownEntry` saying so."""
    module, _, attr = table[check_name(table, name, what)].partition(":")
    try:
        loaded = importlib.import_module(module)
    except ModuleNotFoundError as exc:
        if exc.name and exc.name.startswith("sgprep"):
            raise UnknownEntry(f"{what} {name!r} is not part of this version of sgprep") from None
        raise
    return getattr(loaded, attr) if attr else loaded
