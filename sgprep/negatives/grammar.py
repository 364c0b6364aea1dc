"""Small English inflection rules for edited captions: a/an, noun plurals, verb forms.

Rules plus short exception lists, enough for the words scene graphs name; when a form cannot be
found in the caption the realiser falls back to a template rather than guess.
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
#: Verbs that double their last consonant before -ing ("sitting"); the rule below covers
#: regular one-syllable consonant-vowel-consonant verbs, this adds the rest we meet.
_DOUBLING = words("doubling_verbs")
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


@lru_cache(maxsize=4096)
def plural(noun: str) -> str:
    n = noun.lower()
    if n in UNCOUNTABLE:
        return noun
    if n in _IRREGULAR_PLURALS:
        return _match_case(noun, _IRREGULAR_PLURALS[n])
    return _regular_plural(noun)


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
    if v.endswith("ie"):
        return verb[:-2] + "ying"
    if v.endswith("e") and not v.endswith(("ee", "ye", "oe")) and len(v) > 2:
        return verb[:-1] + "ing"
    if v in _DOUBLING or re.fullmatch(r"[^aeiou]*[aeiou][^aeiouwxy]", v):
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


@lru_cache(maxsize=4096)
def participle(verb: str) -> str:
    """The past participle ("covered", "held"): passives such as "a bench shaded by a tree"."""
    v = verb.lower()
    if v in _PARTICIPLES:
        return _PARTICIPLES[v]
    if v.endswith("e"):
        return verb + "d"
    if re.search(r"[^aeiou]y$", v):
        return verb[:-1] + "ied"
    if v in _DOUBLING or re.fullmatch(r"[^aeiou]*[aeiou][^aeiouwxy]", v):
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
