"""Captions in another language (rule family ``other_language``): the English model reads
"La tour Eiffel sous la pluie" as things and relations ("eiffel -sous la-> pluie"). A caption
whose words are more often the function words of French, Spanish, German, Italian,
Portuguese or Dutch than of English is refused as ``parse/other_language`` before it is
parsed: a failure row that says so, never a graph of foreign words.

Two steps, both on data that ships with the packages sgprep needs:
- a first look: :data:`MIN_FOREIGN` words or more of spaCy's stop-word lists of those
  languages (``spacy.lang.*``, no model needed), less every English stop word. Most English
  captions have none or one, and stop here;
- then each word is weighed by ``wordfreq``: a word the web writes far more often in one of
  those languages than in English (:data:`LEANING` on the Zipf scale: "la", "und", "sous",
  "pluie") leans foreign, one written about as often in English or more ("male", "bat", "hat",
  "tour") leans English. A caption with :data:`MIN_FOREIGN` foreign-leaning words or more,
  and more of them than English-leaning ones, is refused. A name in an English caption
  ("the Arc de Triomphe", "al dente") is one or two foreign words among many English ones;
  a short caption of English nouns ("male person swinging baseball bat") has no foreign one.
"""

from __future__ import annotations

import re
from functools import lru_cache

#: spaCy's languages whose stop words mark a caption as written in them.
LANGUAGES = ("fr", "es", "de", "it", "pt", "nl")
#: A caption is refused with this many foreign words or more, and more of them than English
#: ones.
MIN_FOREIGN = 2
#: A word leans foreign where another language writes it this much more often than English
#: (Zipf: 2 is a hundred times), English where English writes it no less than 1 below.
LEANING = 2.0
ENGLISH = 1.0
_WORD = re.compile(r"[^\W\d_]+", re.UNICODE)


@lru_cache(maxsize=1)
def _foreign_stop_words() -> frozenset[str]:
    """The other languages' stop words less English's: the first look."""
    from importlib import import_module

    english = frozenset(import_module("spacy.lang.en.stop_words").STOP_WORDS)
    foreign: set[str] = set()
    for lang in LANGUAGES:
        foreign |= import_module(f"spacy.lang.{lang}.stop_words").STOP_WORDS
    return frozenset(w.lower() for w in foreign) - english


def _leaning(word: str) -> int:
    """1 where ``word`` leans foreign, -1 where it leans English, else 0."""
    from wordfreq import zipf_frequency

    english = zipf_frequency(word, "en")
    other = max(zipf_frequency(word, lang) for lang in LANGUAGES)
    if other - english >= LEANING:
        return 1
    return -1 if other - english < ENGLISH else 0


def other_language(text: str) -> tuple[str, str] | None:
    """``("other_language", message)`` where ``text`` reads as another language, else None."""
    foreign = _foreign_stop_words()
    words = _WORD.findall(text.lower())
    if sum(w in foreign for w in words) < MIN_FOREIGN:
        return None  # the first look: most English captions stop here
    leaning = [_leaning(w) for w in words]
    theirs = [w for w, lean in zip(words, leaning) if lean > 0]
    if len(theirs) < MIN_FOREIGN or len(theirs) <= leaning.count(-1):
        return None
    shown = ", ".join(dict.fromkeys(theirs[:6]))
    return (
        "other_language",
        f"the caption reads as another language than English ({shown}): the rule parser "
        "reads English only (--rules-off other_language parses it anyway)",
    )
