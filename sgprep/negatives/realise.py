"""Perturbed graphs -> text: edit the caption in place where the parse gives spans, else a
template ("{attrs} {object} {relation} {attrs} {object}").

An in-place edit changes only the words that the perturbation changed (an attribute, a head
noun, a predicate, or whole noun phrases moved between slots) and then repairs what the change
broke: the article a/an before an edited word, the number of a head noun put into a plural
slot, and the verb after a subject whose number changed (is/are, was/were, has/have, and the
relation's own verb: "get"/"gets"). When a word cannot be found where the graph says it is,
the edit gives up and the template is used; the negative records which.
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from itertools import accumulate, repeat
from typing import NamedTuple

from sgprep.lexicon import keyed, ordered, words
from sgprep.negatives import grammar
from sgprep.negatives.cooc import PLURALIA, singular
from sgprep.negatives.cooc_count import plural_form
from sgprep.negatives.perturbation import (
    Attach,
    Edit,
    MoveNPs,
    Perturbation,
    SetAttribute,
    SetHead,
    SetPredicate,
)
from sgprep.negatives.vocab import relation_type
from sgprep.negatives.words import LIST_SEAMS, PREPOSITIONS, SEAM_WORDS, attribute_type
from sgprep.schema import Entity, SceneGraph

_WORD = re.compile(r"[A-Za-z0-9]+(?:['’-][A-Za-z0-9]+)*")
#: _WORD as one group: ``split`` gives what lies between the words and the words, in turn.
_WORD_SPLIT = re.compile(f"({_WORD.pattern})")
#: Words that may open a noun phrase before the entity's own span and move with it.
DETERMINERS = words("determiners")
NUMBER_WORDS = {n: w for n, w in enumerate(ordered("number_words")) if 2 <= n <= 12}
#: Words before a noun phrase that make it plural whatever its noun's form ("other sheep").
PLURAL_DETERMINERS = words("plural_determiners")
#: First words that are capitalised only because they start the caption.
LOWERABLE = DETERMINERS | set(NUMBER_WORDS.values()) | {"one", "several", "many", "some"}


#: Nouns of quantity: "a row of" before an entity (the parser's list).
QUANTITY_NOUNS = words("quantity_nouns")
#: Other spellings of a normalised preposition, to find it in the caption ("underneath").
SPELLINGS: dict[str, list[str]] = {
    normal: list(spellings) for normal, spellings in keyed("preposition_spellings").items()
}


#: Places a scene has one of: "the" ("in the sky", "on the ground").
UNIQUE_PLACES = words("the_places")


class NoSpanEdit(Exception):
    """The caption does not show the edited words where the graph says: use the template."""


class Disfluent(Exception):
    """The edit would read badly ("out outside the fog"): no negative, counted by reason."""

    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason


class Word(NamedTuple):
    start: int
    end: int
    lower: str


def _ascii_words(text: str) -> list[Word]:
    """The words of an ASCII text, as ``_WORD.finditer`` finds them (:func:`_ascii_index`)."""
    return _ascii_index(text)[0]


def _ascii_index(text: str) -> tuple[list[Word], list[int], list[int]]:
    """The words of an ASCII text, as ``_WORD.finditer`` finds them, their starts and their
    ends, with no match objects and no loop in Python: ``split`` on the pattern as a group
    cuts the text into the stretch before the first word, the word, the stretch after it, and
    so on, and the running sum of their lengths is each word's start, then its end."""
    pieces = _WORD_SPLIT.split(text)
    bounds = list(accumulate(map(len, pieces)))
    starts, ends = bounds[0:-1:2], bounds[1::2]
    return list(map(tuple.__new__, repeat(Word), zip(starts, ends, pieces[1::2]))), starts, ends


class Realiser:
    """Realises perturbations of one graph against its caption (words indexed once)."""

    def __init__(self, text: str, graph: SceneGraph):
        self.text, self.graph = text, graph
        if text.isascii():  # lower-casing keeps every position: lower the text once
            self.words, self._starts, self._ends = _ascii_index(text.lower())
        else:
            self.words = [Word(m.start(), m.end(), m.group().lower()) for m in _WORD.finditer(text)]
            self._starts = [w.start for w in self.words]
            self._ends = [w.end for w in self.words]
        self._np: dict[int, tuple[int, int] | None] = {}
        self._heads: dict[int, Word] = {}
        self._plural: dict[int, bool] = {}

    def realise(self, p: Perturbation, use_template: bool = True) -> tuple[str | None, str]:
        """(text, "span_edit" | "template"), or (None, reason) when no text is made: the
        edit reads badly, or it is impossible and templates are off."""
        self._perturbed = p  # connect's new entity lives only in its graph
        if p.edits:
            try:
                return self.edit(p.edits), "span_edit"
            except NoSpanEdit:
                pass
            except Disfluent as exc:
                return None, exc.reason
        if not use_template:
            return None, "no_span_edit"
        return template(p.graph), "template"

    # --- locating -------------------------------------------------------------------------
    def np_span(self, i: int) -> tuple[int, int]:
        """The entity's span widened to its determiner ("a red cube", "their mother")."""
        if i not in self._np:
            self._np[i] = self._find_np(i)
        span = self._np[i]
        if span is None:
            raise NoSpanEdit(f"entity {i} has no usable span")
        return span

    def _find_np(self, i: int) -> tuple[int, int] | None:
        e = self.graph.entities[i]
        span = e.span
        if span is None or span[1] > len(self.text) or span[0] >= span[1] or span[0] < 0:
            return None
        # a span must hold the entity's own words, whole ("a ca on a dogt" otherwise)
        if not _span_matches(self.text, span, e):
            return None
        start = span[0]
        before = self.word_before(start)
        if before is not None and before.lower in DETERMINERS:
            start = before.start
        return start, span[1]

    def words_in(self, start: int, end: int) -> list[Word]:
        return self.words[bisect_left(self._starts, start) : bisect_right(self._ends, end)]

    def find_phrase(self, phrase: str, start: int, end: int, last: bool = False) -> tuple[int, int]:
        target = phrase.lower().split()
        ws = self.words_in(start, end)
        hits = [
            (ws[k].start, ws[k + len(target) - 1].end)
            for k in range(len(ws) - len(target) + 1)
            if [w.lower for w in ws[k : k + len(target)]] == target
        ]
        if not hits:
            raise NoSpanEdit(f"{phrase!r} not found")
        return hits[-1] if last else hits[0]

    def head_word(self, i: int) -> Word:
        if i not in self._heads:
            self._heads[i] = self._find_head(i)
        return self._heads[i]

    def _find_head(self, i: int) -> Word:
        e = self.graph.entities[i]
        forms = grammar.noun_forms(e.head)
        hits = [w for w in self.words_in(*self.np_span(i)) if w.lower in forms]
        if not hits:
            raise NoSpanEdit(f"head {e.head!r} not found")
        return hits[-1] if not e.text.lower().startswith(e.head.lower()) else hits[0]

    def plural(self, i: int) -> bool:
        if i not in self._plural:
            self._plural[i] = self._is_plural(i)
        return self._plural[i]

    def _is_plural(self, i: int) -> bool:
        e = self.graph.entities[i]
        if e.count is not None:
            return e.count != 1
        try:
            surface = self.text[slice(*_span(self.head_word(i)))]
        except NoSpanEdit:
            return False
        if plural_form(surface, e.head):
            return True
        if grammar.plural(surface).lower() != surface.lower():
            return False
        # a noun whose plural is itself ("sheep", "deer") or a mass noun: its number is the
        # word before it ("as other sheep crowd around": plural, so a lamb put there is
        # "other lambs"; blind review round 9)
        try:
            np_start = self.np_span(i)[0]
        except NoSpanEdit:
            return False
        before = self.word_before(np_start)
        determiner = self.text[np_start : e.span[0]].strip().lower() if e.span else ""
        return determiner in PLURAL_DETERMINERS or (
            before is not None and before.lower in PLURAL_DETERMINERS
        )

    def next_word(self, pos: int) -> Word | None:
        """The word starting at ``pos`` after nothing but spaces, if any."""
        k = bisect_left(self._starts, pos)
        if k == len(self.words):
            return None
        w = self.words[k]
        return w if not self.text[pos : w.start].strip() else None

    def word_before(self, pos: int) -> Word | None:
        """The word ending at ``pos`` before nothing but spaces, if any."""
        k = bisect_right(self._ends, pos) - 1
        if k < 0:
            return None
        w = self.words[k]
        return w if not self.text[w.end : pos].strip() else None

    # --- editing --------------------------------------------------------------------------
    def edit(self, edits: tuple[Edit, ...]) -> str:
        changes: list[tuple[int, int, str]] = []
        for e in edits:
            changes.extend(_EDITORS[type(e)](self, e))
        changes.extend(self._articles(changes))
        return self._apply(changes)

    def _SetAttribute(self, e: SetAttribute) -> list[tuple[int, int, str]]:
        np_start, np_end = self.np_span(e.entity)
        try:
            start, end = self.find_phrase(e.old, np_start, np_end)
        except NoSpanEdit:  # predicative: "the fence is gray", up to the next entity
            later = [s[0] for s in (x.span for x in self.graph.entities) if s and s[0] >= np_end]
            start, end = self.find_phrase(e.old, np_end, min(later, default=len(self.text)))
        return [(start, end, _same_case(self.text[start:end], e.new, start))]

    def _SetHead(self, e: SetHead) -> list[tuple[int, int, str]]:
        w = self.head_word(e.entity)
        start = w.start
        modifiers = e.old.split()[:-1]
        if modifiers:  # a compound goes whole: "a hot dog" -> "a hamburger"
            k = bisect_left(self._starts, w.start)
            before = self.words[max(0, k - len(modifiers)) : k]
            if [x.lower for x in before] != modifiers or before[0].start < self.np_span(e.entity)[
                0
            ]:
                raise NoSpanEdit(f"compound {e.old!r} not found")
            start = before[0].start
        words = e.new.split()
        # the number follows the slot, but "pants" is plural in form only: "white pants and
        # brown shirt" -> "white shirt and brown pants", not "brown shirts"
        if self.plural(e.entity) and singular((e.old.split() or [""])[-1]) not in PLURALIA:
            words[-1] = grammar.plural(words[-1])
        out = [(start, w.end, _same_case(self.text[start : w.end], " ".join(words), start))]
        np_start = self.np_span(e.entity)[0]
        entity_start = self.graph.entities[e.entity].span[0]
        article = self.text[np_start:entity_start]
        if words[-1].lower() in PLURALIA and article.strip().lower() in ("a", "an"):
            # "a blue shirt" -> "blue shorts", never "a blue shorts"
            out.append((np_start, entity_start, ""))
        return out

    def _MoveNPs(self, e: MoveNPs) -> list[tuple[int, int, str]]:
        out = []
        for slot, source in e.placement:
            self._whole_np(slot)
            start, end = self.np_span(slot)
            s0, s1 = self.np_span(source)
            article = self.text[start : self.graph.entities[slot].span[0]].strip().lower()
            body = self.text[self.graph.entities[source].span[0] : s1].lower()
            if (
                article in ("the", "a", "an")
                and body.split(" ", 1)[0] not in LOWERABLE  # "one man": no "the one man"
                and not (article != "the" and self.plural(source))
            ):
                # the slot keeps its article: "black chair in front of the desk" -> "desk in
                # front of the black chair", not "... of black chair"
                start, s0 = self.graph.entities[slot].span[0], self.graph.entities[source].span[0]
            moved = self.text[s0:s1]
            first = moved.split(" ", 1)[0].lower()
            lead = self.word_before(start)
            if lead is not None and lead.lower in PLURAL_DETERMINERS:
                # "as other sheep crowd" with "a lamb" put in: "other a lamb", "other lamb"
                # (blind review round 9)
                if first in LOWERABLE:
                    raise Disfluent("double_determiner")
                if not self.plural(source):
                    raise Disfluent("number_after_determiner")
            if (
                s0 == 0
                and start != 0
                and (first in LOWERABLE or first in self._plain_words(source))
            ):
                moved = moved[:1].lower() + moved[1:]
            out.append((start, end, moved))
            if self.plural(slot) != self.plural(source):
                out.extend(self._agree(slot, end, self.plural(source)))
        return out

    def _whole_np(self, i: int) -> None:
        """Entity i's span holds its whole noun phrase: no colour, size or material word is
        left before it (a parse that kept "brown" out of "a brown horse" would move "horse"
        alone: "a cowboy on a brown a rope swings a horse"; blind review round 5)."""
        span = self.graph.entities[i].span
        before = self.word_before(span[0]) if span is not None else None
        if before is not None and attribute_type(before.lower) != "other":
            raise Disfluent("partial_noun_phrase")
        if before is not None and before.lower == "of":
            # "a row of parked cars": the quantity belongs to the noun phrase; moving "parked
            # cars" alone leaves "a row of a red bicycle" (blind review round 8)
            quantity = self.word_before(before.start)
            if quantity is not None and quantity.lower in QUANTITY_NOUNS:
                raise Disfluent("partial_noun_phrase")

    def _plain_words(self, i: int) -> set[str]:
        e = self.graph.entities[i]
        return {a.lower() for a in e.attributes} | grammar.noun_forms(e.head)

    def _agree(self, slot: int, end: int, plural: bool) -> list[tuple[int, int, str]]:
        """The verb right after a subject noun phrase agrees with its new number."""
        w = self.next_word(end)
        if w is None:
            return []
        table = grammar.AUX_PLURAL if plural else grammar.AUX_SINGULAR
        if w.lower in table:
            return [(w.start, w.end, _same_case(self.text[w.start : w.end], table[w.lower]))]
        for r in self.graph.relations:
            if relation_type(r.predicate) != "action":  # "on" is no verb: never "ons"
                continue
            lemma = r.predicate.split()[0].lower()
            if r.subject == slot and grammar.verb_form(w.lower, lemma) in {"base", "third"}:
                new = lemma if plural else grammar.third_person(lemma)
                return [(w.start, w.end, _same_case(self.text[w.start : w.end], new))]
        return []

    def _SetPredicate(self, e: SetPredicate) -> list[tuple[int, int, str]]:
        r = self.graph.relations[e.relation]
        a, b = sorted([self.np_span(r.subject), self.np_span(r.object)])
        if e.verb:
            for w in self.words_in(a[1], b[0]):
                form = grammar.verb_form(w.lower, e.old)
                if form is None and _lemma(w.lower) == e.old:  # a form the rules miss
                    form = _form_of(w.lower)
                if form is not None:
                    before = self.word_before(w.start)
                    if before is not None and before.lower == "to" and form == "participle":
                        form = "base"  # "to cut": a base form, though "cut" reads as both
                    new = grammar.inflect_verb(e.new, form)
                    return [(w.start, w.end, _same_case(self.text[w.start : w.end], new))]
            raise NoSpanEdit(f"verb {e.old!r} not found")
        for surface in (e.old, *SPELLINGS.get(e.old, ())):
            try:
                start, end = self.find_phrase(surface, a[1], b[0], last=True)
            except NoSpanEdit:
                continue
            before = self.word_before(start)
            if (
                before is not None
                and before.lower in PREPOSITIONS
                and e.new.split()[0] in PREPOSITIONS
            ):
                raise Disfluent("doubled_preposition")  # "out in" -> "out outside"
            return [(start, end, e.new)]
        raise NoSpanEdit(f"{e.old!r} not found")

    def _Attach(self, e: Attach) -> list[tuple[int, int, str]]:
        p = self._perturbed
        new = p.added if p.added is not None else p.graph.entities[e.new_entity]
        phrase = (
            " ".join([*new.attributes, grammar.plural(new.head)])
            if e.bare_plural
            else noun_phrase(new)
        )
        start, end = self.np_span(e.entity)
        tail = len(self.text.rstrip().rstrip(".!").rstrip())
        if e.join:
            self._list_seam(start, end, tail, e.cosubject)
            after = self.next_word(end)
            if e.cosubject and after is not None and after.lower in grammar.AUX_PLURAL:
                # "a dog | is running" -> "a dog and a cat are running"
                verb = _same_case(
                    self.text[after.start : after.end], grammar.AUX_PLURAL[after.lower]
                )
                return [(end, end, f" and {phrase}"), (after.start, after.end, verb)]
            return [(end, end, f" and {phrase}")]
        if e.clause and end < tail:
            after = self.next_word(end)
            if e.predicate == "with" and after is not None and after.lower.endswith("ing"):
                # what a person has with them goes right after them, before what they do,
                # as captions say it: "a man | with a dog | walking on the beach"
                return [(end, end, f" with {phrase}")]
            # at the end after a comma, which makes it the whole scene's: "fans wearing
            # orange shirts, beside a truck"
            return [(tail, tail, f", {predicate_text(e.predicate)} {phrase}")]
        after = self.next_word(end)
        if after is not None and after.lower == "of":  # "a glass | of water": no seam there
            raise NoSpanEdit("the noun phrase goes on after its span")
        # a natural seam only: the end of the caption, or a clause that goes on ("is",
        # "who"). Not before a participle or a preposition, which would read as the new
        # object's: "two young girls near a horse | sitting at a table", "a man near the
        # snow | in a blue shirt", "shoes near a man | laying next to a tie"
        if self.text[end:].lstrip()[:1] in ("'", "’", "-"):  # "the horse | 's mane"
            raise Disfluent("no_seam")
        if end < tail and (after is None or not _seam(after.lower)):
            # no seam right after it (a word, or a comma of a list: "broccoli | , spinach"):
            # the end of the caption, after the whole clause the noun phrase heads ("two
            # young girls sitting at a table | near a horse")
            end = tail
        return [(end, end, f" {predicate_text(e.predicate)} {phrase}")]

    def _list_seam(self, start: int, end: int, tail: int, cosubject: bool = False) -> None:
        """A noun phrase at [start, end) that a second item may join ("an umbrella | and a
        cup"): at the caption's end, or before a preposition or "while"/"as" (:data:`LIST_SEAMS`),
        or, for a second subject, before a word ending in "ing" or "ed" (its participle:
        "a zebra | and an elephant | standing"), and no item of a list already ("a cup and |
        a plate", "a glass | of water", "the horse | 's mane")."""
        before = self.word_before(start)
        if before is not None and before.lower in ("and", "or"):
            raise Disfluent("join_in_list")
        if self.text[:start].rstrip().endswith(","):
            raise Disfluent("join_in_list")
        if end < tail:
            after = self.next_word(end)
            participle = cosubject and after is not None and after.lower.endswith(("ing", "ed"))
            agrees = cosubject and after is not None and after.lower in grammar.AUX_PLURAL
            if after is None or not (participle or agrees or after.lower in LIST_SEAMS):
                raise Disfluent("no_seam")

    def _articles(self, changes: list[tuple[int, int, str]]) -> list[tuple[int, int, str]]:
        """a/an before an edited word follows the new word."""
        out = []
        for start, end, new in changes:
            if start == end or not new or new[0] == " ":
                continue
            w = self.word_before(start)
            if w is not None and w.lower in grammar.ARTICLES:
                article = grammar.indefinite_article(new.split()[0])
                if article != w.lower:
                    out.append((w.start, w.end, _same_case(self.text[w.start : w.end], article)))
        return out

    def _apply(self, changes: list[tuple[int, int, str]]) -> str:
        changes = sorted(set(changes))
        for (_, e0, _), (s1, _, _) in zip(changes, changes[1:]):
            if s1 < e0:
                raise NoSpanEdit("overlapping edits")
        text, pos, parts = self.text, 0, []
        for start, end, new in changes:
            parts += [text[pos:start], new]
            pos = end
        parts.append(text[pos:])
        out = "".join(parts)
        if text[:1].isupper() and out[:1].islower():
            out = out[0].upper() + out[1:]
        return out


_EDITORS = {
    kind: getattr(Realiser, "_" + kind.__name__)
    for kind in (SetAttribute, SetHead, MoveNPs, SetPredicate, Attach)
}


def _span(w: Word) -> tuple[int, int]:
    return w.start, w.end


def _same_case(model: str, word: str, pos: int | None = None) -> str:
    """``word`` capitalised as ``model`` was; with ``pos`` given, by position instead: only
    the sentence's first word is capitalised (a capital carried from the source word to the
    middle of a sentence reads "a Shiny flag")."""
    if pos is not None:
        if pos == 0 and model[:1].isupper():
            return word[:1].upper() + word[1:]
        return word if any(c.isupper() for c in word[1:]) else word[:1].lower() + word[1:]
    return word[:1].upper() + word[1:] if model[:1].isupper() else word


def _span_matches(text: str, span: tuple[int, int], e: Entity) -> bool:
    """The span covers whole words and ends with the entity's head in some form."""
    start, end = span
    if (start > 0 and text[start - 1].isalnum()) or (end < len(text) and text[end].isalnum()):
        return False
    words = text[start:end].lower().split()
    if not words:
        return False
    last = words[-1].strip(".,;:!?")
    return last in grammar.noun_forms(e.head) or e.head.lower() in text[start:end].lower()


def _seam(word: str) -> bool:
    return word in SEAM_WORDS


def _lemma(word: str) -> str:
    from sgprep.negatives.cooc import lemma

    return lemma(word)


def _form_of(word: str) -> str:
    if word.endswith("ing"):
        return "gerund"
    if word.endswith("ed"):
        return "participle"
    if word.endswith("s"):
        return "third"
    return "base"


def noun_phrase(e: Entity) -> str:
    if e.count is not None and e.count > 1:
        number = NUMBER_WORDS.get(e.count, str(e.count))
        return " ".join([number, *e.attributes, grammar.plural(e.head)])
    words = [*e.attributes, e.head]
    if e.head.lower() in grammar.UNCOUNTABLE or e.head.lower() in UNIQUE_PLACES:
        return " ".join(["the", *words])  # "in the sky", not "in a sky"
    return " ".join([grammar.indefinite_article(words[0]), *words])


def predicate_text(predicate: str) -> str:
    if relation_type(predicate) == "spatial":
        return predicate
    verb, _, rest = predicate.partition(" ")
    return " ".join(filter(None, [grammar.gerund(verb), rest]))


def template(graph: SceneGraph) -> str:
    """ "{attrs} {object} {relation} {attrs} {object}" per relation, other entities on their
    own, joined by "and"."""
    parts, used = [], set()
    for r in graph.relations:
        parts.append(
            f"{noun_phrase(graph.entities[r.subject])} {predicate_text(r.predicate)} "
            f"{noun_phrase(graph.entities[r.object])}"
        )
        used |= {r.subject, r.object}
    parts += [noun_phrase(e) for i, e in enumerate(graph.entities) if i not in used]
    return " and ".join(parts)
