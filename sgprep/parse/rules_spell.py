"""Misspelt nouns and adjectives mended before the caption is parsed again (rule family
``spell``).

A word the small model has never seen ("a giraffee standing under a tree", "mountains behind a
skiier") is still tagged a noun, but its name is no word a reader of the graph or the
negatives can use, and a typo in a function word spoils the parse around it. This family
looks words up in the English frequency dictionary that ships with ``symspellpy`` (82,765
surface forms, plurals and inflections included) and mends a word only where the mending is
unmistakable:

- the word is one spaCy tags a noun or an adjective (or a proper noun written in lower case,
  the small model's tag for many unknown words), of six letters or more (a shorter word is
  one edit from too many words), all letters,
  written in lower case (never a name, an all-caps word or a code), not joined to another
  word by a hyphen, an apostrophe, a slash or a dot, and not quoted ("'kipf'": a name);
- neither the dictionary nor spaCy's lemmatizer tables know it or its lemma (the tables know
  American spellings the dictionary lacks: "airplane", "colored", "donut"), and ``wordfreq``
  (word frequencies of web text, subtitles, books and Wikipedia) finds it rarely (below
  :data:`WEB_WORD`): "matcha", "macarons", "placemat", "hardcourt" are words the dictionary
  lacks, and "matcha" is one edit from "match";
- the words one edit away (edit distance 1 only, the first letter kept: at distance 2,
  "hardcourt" is "hardcore") are ranked by frequency, a plural counted with its singular
  ("giraffe" and "giraffes" are one word), and keep the word's first letter ("tshirt" is
  no "shirt"); the first must be at least :data:`CLEAR` times as frequent as the second
  ("a skiier": skier alone; "a tennis raquet": racquet, but also "raquel", too close);
- the mending is a noun or an adjective in spaCy's tables (or the plural of a noun): "ahainst"
  is "against", which is no noun, so it is left;
- a noun with an "s" that is not its plural, before a noun, is its possessive written without
  the apostrophe: "the womans coat" -> "the woman's coat";
- a noun or adjective run together with an article or a preposition is written apart, where
  the word has one such cut: "on the grounda brown suitcase" -> "on the ground a brown
  suitcase".

The caption is then parsed again with the mended words; the graph's spans still index the
caption (the parser maps them back as it does for written-out shorthand) and the entity's
``text`` is the mended word, as the ``noise`` family's cleaned words are.

The dictionaries are read once per process, when a caption first has a word to look up
(about half a CPU-second, most of it ``wordfreq``'s table; +50 MB).
"""

from __future__ import annotations

from functools import cache
from importlib import resources

from sgprep.lexicon import words

#: how many times more frequent the mending must be than the next word one edit away
CLEAR = 5
#: shortest word that is mended: a word of five letters is one edit from many others
MIN_LETTERS = 6
#: a word that ``wordfreq`` finds this often (Zipf scale: 1.5 is 3 times in 100 million words)
#: is a word, even if the dictionary has not got it ("matcha", "macarons", "placemat")
WEB_WORD = 1.5
#: the word file of ``symspellpy``: one "word count" a line
WORDS = "frequency_dictionary_en_82_765.txt"
#: articles and prepositions a word may be run together with ("grounda brown")
GLUED = words("glued_words")
#: tags of a word that may be mended
_TAGS = frozenset({"NOUN", "ADJ", "PROPN"})
#: characters that join a word to the next or the one before ("sea-doo", "'kipf'", "a/b")
_JOINS = frozenset("-'\u2019\u2018\"`/_")
_QUOTES = frozenset({"'", "''", "``", '"', "\u2018", "\u2019", "\u201c", "\u201d"})


@cache
def _counts() -> dict[str, int]:
    """The dictionary of ``symspellpy`` as a table, word -> count (read once: 0.05 CPU-s)."""
    path = resources.files("symspellpy") / WORDS
    counts: dict[str, int] = {}
    with path.open(encoding="utf-8") as f:
        for line in f:
            word, _, count = line.rstrip("\n").partition(" ")
            if word and count.isdigit():
                counts[word] = int(count)
    if not counts:
        raise RuntimeError(f"symspellpy's dictionary {path} could not be read")
    return counts


@cache
def _letters() -> str:
    """Every character the dictionary's words are written with."""
    return "".join(sorted({c for word in _counts() for c in word}))


def _one_edit(word: str) -> set[str]:
    """Every string one edit from ``word`` (a letter deleted, inserted or replaced, or two
    neighbours swapped) that keeps its first letter. The mending is looked up a few times in
    a thousand captions, so the strings are made and looked up one by one: ``symspellpy``'s
    own lookup needs an index of deletes that costs ~30 MB and half a CPU-second to build in
    every process; over its dictionary it finds the same words (a test checks it)."""
    letters = _letters()
    out: set[str] = set()
    for i in range(1, len(word) + 1):  # every edit at or after the second letter
        left, right = word[:i], word[i:]
        out.update(left + c + right for c in letters)  # inserted
        if right:
            out.add(left + right[1:])  # deleted
            out.update(left + c + right[1:] for c in letters)  # replaced
            if len(right) > 1:
                out.add(left + right[1] + right[0] + right[2:])  # swapped
    out.discard(word)
    return out


def _web_frequency(word: str) -> float:
    """How often English text on the web, in subtitles, books and Wikipedia writes ``word``
    (``wordfreq``'s Zipf scale: 3 is once in a million words, 0 never)."""
    return _zipf()(word, "en")


@cache
def _zipf():
    """``wordfreq.zipf_frequency``, its English table read once. What ``wordfreq`` imports
    (``langcodes``' tables: about 10,000 containers) lives as long as the process, and the
    collector would walk it on every full pass while the parser runs: 3 % of a parse of short
    captions against bare ``nlp.pipe``, in alternating processes. So once it is read, what
    is alive is collected and then frozen out of the collector's passes (``gc.freeze``, as
    the command line's entry does with its start-up)."""
    import gc

    from wordfreq import zipf_frequency

    zipf_frequency("the", "en")
    gc.collect()
    gc.freeze()
    return zipf_frequency


def _singulars(word: str) -> tuple[str, ...]:
    """What ``word`` may be the plural of ("giraffes" -> giraffe, "boxes" -> box, boxe,
    "berries" -> berry)."""
    if len(word) < MIN_LETTERS or not word.endswith("s") or word.endswith("ss"):
        return ()
    found = [word[:-1]]
    if word.endswith("es"):
        found.append(word[:-2])
    if word.endswith("ies"):
        found.append(word[:-3] + "y")
    return tuple(found)


class Speller:
    """Mends misspelt nouns and adjectives of parsed docs (see the module doc)."""

    def __init__(self, known: frozenset[str], nouns: frozenset[str], adjectives: frozenset[str]):
        self.known = known  # every word of spaCy's lemmatizer tables, any part of speech
        self.nouns = nouns
        self.adjectives = adjectives

    @classmethod
    def of(cls, nlp) -> Speller:
        """The speller for ``nlp``'s lemmatizer tables (none: it mends nothing)."""
        try:
            lookups = nlp.get_pipe("lemmatizer").lookups
            index = lookups.get_table("lemma_index")
        except (KeyError, ValueError, AttributeError):
            return cls(frozenset(), frozenset(), frozenset())
        known: set[str] = set()
        for pos in ("noun", "verb", "adj", "adv"):
            known.update(index.get(pos, []))
        if lookups.has_table("lemma_exc"):
            for forms in lookups.get_table("lemma_exc").values():
                known.update(forms)
        nouns = frozenset(index.get("noun", []))
        return cls(frozenset(known), nouns, frozenset(index.get("adj", [])))

    def _unknown(self, token) -> bool:
        """A lower-case noun or adjective neither dictionary knows, standing on its own."""
        text = token.text
        if (
            token.pos_ not in _TAGS
            or len(text) < MIN_LETTERS
            or not text.isalpha()
            or not text.islower()
            or not self.nouns
        ):
            return False
        if text in self.known or token.lemma_.lower() in self.known:
            return False
        if text in _counts():
            return False
        doc = token.doc
        i = token.i
        following = doc[i + 1] if i + 1 < len(doc) else None
        before = doc.text[token.idx - 1] if token.idx else " "
        end = token.idx + len(text)
        after = doc.text[end] if end < len(doc.text) else " "
        owner = following is not None and following.tag_ == "POS"  # "the giraffee's neck"
        if before in _JOINS or (after in _JOINS and not owner):
            return False
        return not (
            (i > 0 and doc[i - 1].text in _QUOTES) or (following and following.text in _QUOTES)
        )

    def _possessive(self, token) -> str | None:
        """A noun with an "s" that is not its plural, before a noun, is its possessive
        written without the apostrophe ("the womans coat" -> woman's; the plural is
        "women")."""
        text, doc = token.text, token.doc
        following = doc[token.i + 1] if token.i + 1 < len(doc) else None
        if (
            text.endswith("s")
            and text[:-1] in self.nouns
            and following is not None
            and following.pos_ == "NOUN"
        ):
            return text[:-1] + "'s"
        return None

    def _run_together(self, word: str) -> str | None:
        """A noun or adjective and an article or preposition written with no space between
        them ("on the grounda brown suitcase" -> "ground a"), where there is one such cut."""
        cuts = []
        for cut in range(1, len(word)):
            first, second = word[:cut], word[cut:]
            word_of = second if first in GLUED else first if second in GLUED else None
            if word_of is not None and self._is_noun_or_adjective(word_of):
                cuts.append(f"{first} {second}")
        return cuts[0] if len(cuts) == 1 else None

    def _is_noun_or_adjective(self, word: str) -> bool:
        if word in self.nouns or word in self.adjectives:
            return True
        return any(stem in self.nouns for stem in _singulars(word))

    def mending(self, word: str) -> str | None:
        """The word ``word`` misspells, or None when that is not clear (module doc)."""
        table = _counts()
        counts = {t: table[t] for t in _one_edit(word) if t in table}
        for term in list(counts):  # a plural is its singular's ("giraffe", "giraffes")
            for stem in _singulars(term):
                if stem in counts and term in counts:
                    counts[stem] += counts.pop(term)
        if not counts:
            return None
        ranked = sorted(counts, key=lambda t: (-counts[t], t))
        best = ranked[0]
        if len(ranked) > 1 and counts[best] < CLEAR * counts[ranked[1]]:
            return None  # "tonue": tone or tongue
        return best if self._is_noun_or_adjective(best) else None

    def edits(self, doc) -> list[tuple[int, int, str]]:
        """``(start, end, word)`` of each word of ``doc`` to mend, in the text's order."""
        found = []
        for token in doc:
            if not self._unknown(token):
                continue
            word = self._possessive(token)
            if word is None and _web_frequency(token.text) < WEB_WORD:
                word = self._run_together(token.text) or self.mending(token.text)
            if word is not None and word != token.text:
                found.append((token.idx, token.idx + len(token.text), word))
        return found


def rewrite(text: str, edits: list[tuple[int, int, str]]) -> tuple[str, list[int]]:
    """``text`` with each ``(start, end, word)`` of ``edits`` written in, and for each
    character of the result the offset of the character of ``text`` it stands for (one more
    entry for the end). Within a mended word, the letters it shares with the old word at
    the end and at the start stand for those letters, the rest for the first letter that
    differs: "giraffe" for "giraffee" ends where it did, "ground a" for "grounda" has
    "ground" on "ground"."""
    pieces: list[str] = []
    offsets: list[int] = []
    last = 0
    for start, end, word in edits:
        pieces.append(text[last:start])
        offsets.extend(range(last, start))
        pieces.append(word)
        offsets.extend(_aligned(text[start:end], word, start))
        last = end
    pieces.append(text[last:])
    offsets.extend(range(last, len(text) + 1))
    return "".join(pieces), offsets


def _aligned(old: str, new: str, start: int) -> list[int]:
    """For each character of ``new``, the offset of the character of ``old`` (which starts
    at ``start``) it stands for."""
    shortest = min(len(old), len(new))
    tail = 0
    while tail < shortest and old[-1 - tail] == new[-1 - tail]:
        tail += 1
    head = 0
    while head < shortest - tail and old[head] == new[head]:
        head += 1
    changed = len(old) - head - tail  # letters of the old word between the two
    found = [start + k for k in range(head)]
    found += [start + head + min(k, max(changed - 1, 0)) for k in range(len(new) - head - tail)]
    found += [start + len(old) - tail + k for k in range(tail)]
    return found
