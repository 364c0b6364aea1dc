"""Captions in another language (rule family ``other_language``): the English model reads
"La tour Eiffel sous la pluie" as things and relations ("eiffel -sous la-> pluie"). A caption
whose words are more often the function words of French, Spanish, German, Italian,
Portuguese or Dutch than of English is refused as ``parse/other_language`` before it is
parsed: a failure row that says so, never a graph of foreign words.

The function words are spaCy's own stop-word lists of those languages (``spacy.lang.*``,
data that ships with spaCy, no model needed), less every English stop word; a word English
writes as well ("van", "door", "hat": Dutch and German function words) counts for neither
side unless English's list has it, and a caption needs :data:`MIN_FOREIGN` of them, more
than its English function words, to be refused. A name in English ("the Arc de Triomphe")
is one or two such words among many English ones.
"""

from __future__ import annotations

import re
from functools import lru_cache

#: spaCy's languages whose stop words mark a caption as written in them.
LANGUAGES = ("fr", "es", "de", "it", "pt", "nl")
#: A caption is refused with this many foreign function words or more, and more of them than
#: of English ones.
MIN_FOREIGN = 2
_WORD = re.compile(r"[^\W\d_]+", re.UNICODE)


@lru_cache(maxsize=1)
def _stop_words() -> tuple[frozenset[str], frozenset[str]]:
    """(English stop words, the other languages' less English's)."""
    from importlib import import_module

    english = frozenset(import_module("spacy.lang.en.stop_words").STOP_WORDS)
    foreign: set[str] = set()
    for lang in LANGUAGES:
        foreign |= import_module(f"spacy.lang.{lang}.stop_words").STOP_WORDS
    return english, frozenset(w.lower() for w in foreign) - english


def other_language(text: str) -> tuple[str, str] | None:
    """``("other_language", message)`` where ``text`` reads as another language, else None."""
    english, foreign = _stop_words()
    words = _WORD.findall(text.lower())
    theirs = [w for w in words if w in foreign]
    if len(theirs) < MIN_FOREIGN:
        return None
    ours = sum(w in english for w in words)
    if len(theirs) <= ours:
        return None
    shown = ", ".join(dict.fromkeys(theirs[:6]))
    return (
        "other_language",
        f"the caption reads as another language than English ({shown}): the rule parser "
        "reads English only (--rules-off other_language parses it anyway)",
    )
