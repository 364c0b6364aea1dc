"""English inflection for edited captions: a/an, noun plurals, verb forms.

Regular forms by rule; for the words of the bundled statistics whose form is not the rules',
the form ``data/word_forms.json`` holds (:func:`_tabled_form`): the commonest in English
(``wordfreq``) of ``lemminflect``'s forms (irregular ones included: "broken", "bought",
"emitted", "controlling", "businessmen", "bookshelves") and the rules' one, chosen when the
statistics are built (``tools/build_negative_stats.py``), so that neither library loads in a
run. The rules alone made words that do not exist ("breaked", "emiting", "glasseses"), and
the library lists British spellings and misspellings too ("leant", "controling"). A few
exception lists come first: mass nouns, plurals
that captions write otherwise than the library's first ("fish", "cacti"), and participles of
the sense captions mean ("lain", not "lied"). When a form cannot be found in the caption the
realiser falls back to a template rather than guess.
"""

from __future__ import annotations

import re
from functools import lru_cache

from sgprep.lexicon import words

#: Words spelt with a vowel but said with a consonant ("a unicorn", "a one-way sign") and
#: words spelt with a consonant but said with a vowel ("an hour").
_CONSONANT_SOUND = re.compile(r"^(uni|use|usu|uti|ure|uku|eu|ewe|one|once|ufo|u-)")
_VOWEL_SOUND = re.compile(r"^(hour|honest|honou?r|heir|herb)")

_IRREGULAR_PLURALS = {
    "man": "men",
    "woman": "women",
    "child": "children",
    "person": "people",
    "foot": "feet",
    "tooth": "teeth",
    "goose": "geese",
    "mouse": "mice",
    "ox": "oxen",
    "die": "dice",
    "sheep": "sheep",
    "deer": "deer",
    "fish": "fish",
    "moose": "moose",
    "bison": "bison",
    "aircraft": "aircraft",
    "series": "series",
    "species": "species",
    "people": "people",
    "knife": "knives",
    "leaf": "leaves",
    "shelf": "shelves",
    "wolf": "wolves",
    "loaf": "loaves",
    "half": "halves",
    "life": "lives",
    "wife": "wives",
    "calf": "calves",
    "scarf": "scarves",
    "potato": "potatoes",
    "tomato": "tomatoes",
    "hero": "heroes",
    "cactus": "cacti",
}
_IRREGULAR_SINGULARS = {v: k for k, v in _IRREGULAR_PLURALS.items()}
_THIRD_PERSON = {"be": "is", "have": "has", "do": "does", "go": "goes"}
#: Agreeing auxiliaries: singular -> plural.
AUX_PLURAL = {"is": "are", "was": "were", "has": "have", "does": "do"}
AUX_SINGULAR = {v: k for k, v in AUX_PLURAL.items()}
ARTICLES = frozenset({"a", "an"})


@lru_cache(maxsize=4096)
def indefinite_article(word: str) -> str:
    w = word.lower()
    if _VOWEL_SOUND.match(w):
        return "an"
    if _CONSONANT_SOUND.match(w):
        return "a"
    return "an" if w[:1] in set("aeiou") else "a"


#: Mass nouns: no plural form ("grass", not "grasses").
UNCOUNTABLE = words("uncountable_nouns")


@lru_cache(maxsize=1)
def _word_forms() -> dict[str, dict[str, str]]:
    """``data/word_forms.json``: by tag (NNS, VBZ, VBG, VBN), the words whose form is not the
    rules' (built by ``tools/build_negative_stats.py`` from lemminflect and wordfreq)."""
    import json
    from pathlib import Path

    path = Path(__file__).resolve().parent / "data" / "word_forms.json"
    return json.loads(path.read_text(encoding="utf-8"))["forms"]


def _tabled_form(word: str, tag: str, ruled: str) -> str:
    """The form of ``word`` for ``tag``: the table's where it has one (the word's form is
    not the rules'), in ``word``'s case; else ``ruled``."""
    found = _word_forms()[tag].get(word.lower())
    return ruled if found is None else _match_case(word, found)


def ruled_forms(word: str) -> dict[str, str]:
    """What the rules alone make of ``word``, by tag (what the table is built against)."""
    return {
        "NNS": _regular_plural(word),
        "VBZ": _ruled_third(word),
        "VBG": _ruled_gerund(word),
        "VBN": _ruled_participle(word),
    }


@lru_cache(maxsize=4096)
def plural(noun: str) -> str:
    n = noun.lower()
    if n in UNCOUNTABLE:
        return noun
    if n in _IRREGULAR_PLURALS:
        return _match_case(noun, _IRREGULAR_PLURALS[n])
    if " " in n:  # "teddy bear": the last word takes the plural
        head, _, last = noun.rpartition(" ")
        return f"{head} {plural(last)}"
    return _tabled_form(noun, "NNS", _regular_plural(noun))


@lru_cache(maxsize=4096)
def _regular_plural(noun: str) -> str:
    n = noun.lower()
    if re.search(r"(s|x|z|ch|sh)$", n):
        return noun + "es"
    if re.search(r"[^aeiou]y$", n):
        return noun[:-1] + "ies"
    return noun + "s"


@lru_cache(maxsize=4096)
def noun_forms(lemma: str) -> frozenset[str]:
    """The forms a head noun may take in a caption ("grasses" too: mass nouns have them)."""
    return frozenset({lemma.lower(), plural(lemma).lower(), _regular_plural(lemma).lower()})


#: Nouns that are plural as they stand ("people are", "glasses are").
ALWAYS_PLURAL = frozenset({"people", "police", "cattle"}) | words("plural_only_nouns")


def is_plural_form(surface: str, lemma: str) -> bool:
    s, lemma = surface.lower(), lemma.lower()
    if s in ALWAYS_PLURAL:
        return True
    if s == lemma:
        return s in _IRREGULAR_SINGULARS and s != _IRREGULAR_SINGULARS[s]
    return s in {plural(lemma).lower(), _regular_plural(lemma).lower()} or s in _IRREGULAR_SINGULARS


@lru_cache(maxsize=4096)
def third_person(verb: str) -> str:
    v = verb.lower()
    if v in _THIRD_PERSON:
        return _THIRD_PERSON[v]
    return _tabled_form(verb, "VBZ", _ruled_third(verb))


def _ruled_third(verb: str) -> str:
    v = verb.lower()
    if re.search(r"(s|x|z|ch|sh|o)$", v):
        return verb + "es"
    if re.search(r"[^aeiou]y$", v):
        return verb[:-1] + "ies"
    return verb + "s"


@lru_cache(maxsize=4096)
def gerund(verb: str) -> str:
    v = verb.lower()
    if v == "be":
        return "being"
    return _tabled_form(verb, "VBG", _ruled_gerund(verb))


def _ruled_gerund(verb: str) -> str:
    v = verb.lower()
    if v.endswith("ie"):
        return verb[:-2] + "ying"
    if v.endswith("e") and not v.endswith(("ee", "ye", "oe")) and len(v) > 2:
        return verb[:-1] + "ing"
    if re.fullmatch(r"[^aeiou]*[aeiou][^aeiouwxy]", v):
        return verb + verb[-1] + "ing"
    return verb + "ing"


_PARTICIPLES = {
    "hold": "held",
    "ride": "ridden",
    "wear": "worn",
    "eat": "eaten",
    "throw": "thrown",
    "catch": "caught",
    "sit": "sat",
    "stand": "stood",
    "lie": "lain",
    "hang": "hung",
    "fly": "flown",
    "see": "seen",
    "make": "made",
    "take": "taken",
    "put": "put",
    "cut": "cut",
    "build": "built",
    "draw": "drawn",
    "write": "written",
    "give": "given",
    "leave": "left",
    "have": "had",
    "be": "been",
    "do": "done",
    "go": "gone",
    "get": "gotten",
    "feed": "fed",
    "lead": "led",
    "bring": "brought",
    "drive": "driven",
    "grow": "grown",
    "shake": "shaken",
}


#: The irregular participles (:data:`_PARTICIPLES`), as words.
IRREGULAR_PARTICIPLES = frozenset(_PARTICIPLES.values())


@lru_cache(maxsize=4096)
def participle(verb: str) -> str:
    """The past participle ("covered", "held"): passives such as "a bench shaded by a tree"."""
    v = verb.lower()
    if v in _PARTICIPLES:
        return _PARTICIPLES[v]
    return _tabled_form(verb, "VBN", _ruled_participle(verb))


def _ruled_participle(verb: str) -> str:
    v = verb.lower()
    if v.endswith("e"):
        return verb + "d"
    if re.search(r"[^aeiou]y$", v):
        return verb[:-1] + "ied"
    if re.fullmatch(r"[^aeiou]*[aeiou][^aeiouwxy]", v):
        return verb + verb[-1] + "ed"
    return verb + "ed"


_FORMS = (("gerund", gerund), ("third", third_person), ("participle", participle), ("base", str))


def verb_form(surface: str, lemma: str) -> str | None:
    """Which form of ``lemma`` the word ``surface`` is (gerund, third, participle, base)."""
    s = surface.lower()
    for form, make in _FORMS:
        if s == make(lemma.lower()):
            return form
    return None


def inflect_verb(lemma: str, form: str) -> str:
    return dict(_FORMS)[form](lemma)


def _match_case(model: str, word: str) -> str:
    return word[:1].upper() + word[1:] if model[:1].isupper() else word
