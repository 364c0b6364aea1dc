"""Co-occurrence statistics of parsed scene graphs: what a plausible negative may say.

The tables and how a graph is counted into them are :mod:`sgprep.negatives.cooc_count`'s
(names, lemmas, predicate keys, :class:`BoundedCounter`); the hand-made word sets and object
classes the judgments back off to are :mod:`sgprep.negatives.cooc_lexicon`'s. Every name of
both is importable from here too.

The judgments (:class:`Cooc`) are deliberately strict: a combination nobody wrote is not
plausible. "A man under a court" is refused when "under | court" was never seen.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from functools import lru_cache
from pathlib import Path
from typing import NamedTuple

# counting and the word sets live in their own modules; re-exported (one import for all)
from sgprep.negatives.cooc_count import (  # noqa: F401
    _COPULA,
    _NOT_NAME,
    _PARTICIPLE_BASES,
    _PARTICLES,
    DEFAULT_RELATED,
    FIXED_EXPRESSIONS,
    MAX_SCENE_OBJECTS,
    NOT_OBJECTS,
    PLURALIA,
    SEP,
    TABLES,
    BoundedCounter,
    CoocTables,
    PlainGraph,
    _modifiers,
    _name,
    _name_parts,
    _name_words,
    _related_file,
    fixed_attributes,
    key,
    known_verbs,
    lemma,
    load_related,
    name,
    name_words,
    plain_from_json,
    plain_graph,
    predicate_key,
    singular,
)
from sgprep.negatives.cooc_lexicon import (  # noqa: F401
    _CLASS_OF,
    ANIMATE_CLASSES,
    CONNECT_SKIP,
    FAR_AWAY,
    FREE_STANDING,
    GENERIC_SIZES,
    LEADING_VERBS,
    LOOK_VERBS,
    MANY_COLOURS,
    NATURAL,
    NEAR_SYNONYMS,
    NEAR_SYNONYMS_WITH,
    NEARBY,
    NON_EXCLUSIVE,
    OBJECT_CLASSES,
    OWN_COLOUR_SEEN,
    OWN_COLOUR_SHARE,
    PAINTED,
    PEOPLE_ONLY_VERBS,
    PROXIMITY,
    RECIPROCAL_VERBS,
    SIZED,
    STANCE_VERBS,
    SUPPORT,
    SWAPPABLE,
    VIEW_RELATIVE,
    WEAK_VERBS,
    YOUNG,
    _similar,
    object_class,
    related_with,
)
from sgprep.negatives.words import attribute_kind, attribute_type, relation_type
from sgprep.schema import SceneGraph

DEFAULT_COOC = Path(__file__).resolve().parent / "data" / "default_cooc.json"
#: A verb the class back-off gives a new object (:meth:`Cooc.judge_by_class`) must have been
#: done to it in this share of its mentions or more, twice at least: one rides a bicycle in
#: many of them, a car in 3 of 1,094 (a parse's "ride" of "ride in").
UNDERGOES_SHARE = 0.01


class _Forms(NamedTuple):
    """What :meth:`Cooc._is_related` compares of a word."""

    lower: str  # the word in lower case
    last: str  # its last word ("" if blank)
    singular: str
    bare: str  # without final s's
    known: bool  # whether the statistics know it
    length: int
    words: frozenset[str]
    kind: str | None  # its object class


class Cooc(CoocTables):
    """Counted tables (:class:`CoocTables`: ``count``, ``merge``, ``to_json``) and the
    plausibility judgments drawn from them."""

    #: :meth:`is_related`'s memo starts again past this many pairs, so a long run over a
    #: large vocabulary does not grow it without end (a pair is some 200 bytes).
    RELATED_MEMO = 200_000

    def __init__(self, max_entries: int = 1_000_000):
        super().__init__(max_entries)
        self.related: dict[str, dict[str, frozenset[str]]] = {}
        self._by_context: dict = {}
        self._pools: dict = {}
        self._related_cache: dict = {}
        self._word_forms: dict = {}

    # --- indexes of the tables, each made once per process -----------------------------------
    #: The indexes :meth:`prepare` makes: by one part of a table's keys (:meth:`neighbours`),
    #: then by name (the ``_index_*`` methods).
    INDEXES: tuple = (
        ("attr", 0),
        ("attr", 1),
        ("po", 0),
        ("po", 1),
        ("scene", 0),
        ("sp", 0),
        ("sp", 1),
        ("spo", 0),
        ("spo", 1),
        ("spo", 2),
        "spo_by_pair",
        "spo_by_class",
        "class_attrs",
        "colours_of",
    )

    def prepare(self) -> Cooc:
        """Make every index of :data:`INDEXES` now (the negatives stage's setup): not within
        the first samples' time budgets, and before the workers fork, which then share them
        rather than each making its own. An index made on first use is the same."""
        for which in self.INDEXES:
            self._index(which)
        return self

    def _index(self, which):
        """The index ``which`` (one of :data:`INDEXES`), made on first use."""
        hit = self._by_context.get(which)
        if hit is None:
            if isinstance(which, tuple):
                hit = self._index_by_part(*which)
            else:
                hit = getattr(self, f"_index_{which}")()
            self._by_context[which] = hit
        return hit

    def _index_by_part(self, table: str, fixed: int) -> dict[str, dict[str, int]]:
        """Part ``fixed`` of each key of ``table`` -> the other parts (joined) -> the count;
        the "scene" table's pairs by either word."""
        idx: dict[str, dict[str, int]] = {}
        for k, n in self.tables[table].items():
            parts = k.split(SEP)
            rest = SEP.join(parts[:fixed] + parts[fixed + 1 :])
            idx.setdefault(parts[fixed], {})[rest] = n
            if table == "scene":
                idx.setdefault(parts[1 - fixed], {})[parts[fixed]] = n
        return idx

    def _index_spo_by_pair(self) -> dict[tuple[str, str], dict[str, int]]:
        idx: dict[tuple[str, str], dict[str, int]] = {}
        for k, n in self.tables["spo"].items():
            subject, p, obj = k.split(SEP)
            idx.setdefault((subject, obj), {})[p] = n
        return idx

    def _index_spo_by_class(self) -> dict[tuple[str, str], dict[str, int]]:
        idx: dict[tuple[str, str], dict[str, int]] = {}
        for k, n in self.tables["spo"].items():
            subject, p, obj = k.split(SEP)
            c = object_class(subject)
            if c is not None:
                row = idx.setdefault((c, obj), {})
                row[p] = row.get(p, 0) + n
        return idx

    def _index_class_attrs(self) -> dict[str, int]:
        table: dict[str, int] = {}
        for k, n in self.tables["attr"].items():
            a, o = k.split(SEP)
            c = self._paint_class(o)
            if c is not None:
                table[key(a, c)] = table.get(key(a, c), 0) + n
        return table

    def _index_colours_of(self) -> dict[str, int]:
        seen: dict[str, set[str]] = {}
        for k in self.tables["attr"]:
            a, o = k.split(SEP)
            if attribute_type(a) == "colour":
                seen.setdefault(o, set()).add(a)
        return {o: len(c) for o, c in seen.items()}

    @classmethod
    def from_json(cls, data: dict, related: dict[str, list[str]] | None = None) -> Cooc:
        c = cls()
        for t in TABLES:
            c.tables[t].update(data.get("tables", {}).get(t, {}))
            c.tables[t].floor = data.get("floors", {}).get(t, 0)
            c.tables[t].pruned = data.get("pruned", {}).get(t, 0)
        c.related = {
            pos: {w: frozenset(ws) for w, ws in table.items()}
            for pos, table in (related or {}).items()
        }
        for pos, groups in NEAR_SYNONYMS.items():
            table = c.related.setdefault(pos, {})
            for group in groups:
                for w in group:
                    table[w] = table.get(w, frozenset()) | (group - {w})
        return c

    # --- judging ----------------------------------------------------------------------------
    def n(self, table: str, *parts: str) -> int:
        return self.tables[table].get(key(*parts), 0)

    def together(self, a: str, b: str) -> int:
        """In how many scenes the statistics saw ``a`` and ``b`` together (the "scene"
        table, whichever order: its index by either word, made once per process)."""
        return self.neighbours("scene", 0, a).get(b, 0)

    def known(self, obj: str) -> bool:
        return self.n("obj", obj) > 0

    def seen_between(self, s: str, o: str, seen: int = 2) -> frozenset[str]:
        """The predicates seen ``seen`` times or more from ``s`` to ``o``, or from the head of
        one to the head of the other (a fixed expression is its own head: a hot dog is no dog,
        "hugging a hot dog" is not "hugging a dog": blind review round 22): those
        :meth:`judge` (strict, ``seen``) passes for this pair. Indexed once per process."""
        idx = self._index("spo_by_pair")
        hs, ho = (x if x in FIXED_EXPRESSIONS else x.split()[-1] for x in (s, o))
        out = {p for p, n in idx.get((s, o), {}).items() if n >= seen}
        return frozenset(out | {p for p, n in idx.get((hs, ho), {}).items() if n >= seen})

    def subjects_of(self, predicate: str, o: str) -> dict[str, int]:
        """The subjects seen with ``predicate`` and object ``o``, with their counts (those
        seen more than once, where any was: seen once may be a parse's slip). Indexed per
        predicate on first use, from the predicate's own triples (no index of every object)."""
        return self._predicate_index(predicate)[0].get(o, {})

    def subjects(self, predicate: str) -> dict[str, int]:
        """The subjects seen with ``predicate``, whatever its object, with their counts (the
        triples' sums; as the "sp" table where nothing was pruned)."""
        return self._predicate_index(predicate)[1]

    def _predicate_index(self, predicate: str) -> tuple[dict[str, dict[str, int]], dict[str, int]]:
        """(object -> subjects, subject -> count) of one predicate, once per process."""
        hit = self._by_context.get(("subjects_of", predicate))
        if hit is None:
            by_object: dict[str, dict[str, int]] = {}
            totals: dict[str, int] = {}
            for rest, n in self.neighbours("spo", 1, predicate).items():
                subject, _, obj = rest.partition(SEP)
                row = by_object.setdefault(obj, {})
                row[subject] = row.get(subject, 0) + n
                totals[subject] = totals.get(subject, 0) + n
            for obj, row in by_object.items():
                if any(n > 1 for n in row.values()):
                    by_object[obj] = {w: n for w, n in row.items() if n > 1}
            hit = self._by_context["subjects_of", predicate] = (by_object, totals)
        return hit

    def by_class(self, s: str, o: str) -> dict[str, int]:
        """The predicates subjects of ``s``'s class were seen with ``o`` (or, if none, with
        its head), with their counts; empty for a subject of no class. Indexed once per
        process."""
        cls = object_class(s)
        if cls is None:
            return {}
        idx = self._index("spo_by_class")
        hit = idx.get((cls, o))
        if hit is None and o.strip():
            hit = idx.get((cls, o.split()[-1]))
        return hit or {}

    def attribute_ok(self, attribute: str, obj: str) -> bool:
        a = attribute.lower()
        if self.known(obj) or " " not in obj:
            return self.n("attr", a, obj) > 0
        return self.n("attr", a, obj.split()[-1]) > 0

    def attribute_ok_by_class(self, attribute: str, obj: str) -> bool:
        """:meth:`attribute_ok`, backed off for colours of made things (:data:`PAINTED`, or
        things of no class seen in :data:`MANY_COLOURS` colours and not natural, such as
        signs, pillows, walls): a colour seen twice on objects of its class may go on any
        ("a blue truck": trucks are vehicles, vehicles are blue; "a red pillow")."""
        if self.attribute_ok(attribute, obj):
            return True
        if attribute.lower() in GENERIC_SIZES and object_class(obj) in SIZED:
            return True  # "a large dog beside a small cat": any animal, vehicle... comes in sizes
        cls = self._paint_class(obj)
        if cls is None or attribute_type(attribute) != "colour" or self.own_colour(obj):
            return False
        return self._index("class_attrs").get(key(attribute.lower(), cls), 0) >= 2

    def own_colour(self, obj: str) -> bool:
        """``obj`` has a colour of its own: seen in colours :data:`OWN_COLOUR_SEEN` times or
        more, one of them :data:`OWN_COLOUR_SHARE` of those times or more (a school bus:
        yellow). Its callers' memos keep the verdicts (a table per name here would grow with
        every name a corpus has)."""
        seen = [
            n for a, n in self.neighbours("attr", 1, obj).items() if attribute_type(a) == "colour"
        ]
        total = sum(seen)
        return total >= OWN_COLOUR_SEEN and max(seen) >= OWN_COLOUR_SHARE * total

    def _paint_class(self, obj: str) -> str | None:
        """The class whose colours ``obj`` may take: its own if made (:data:`PAINTED`), "made"
        for a thing of no class seen in many colours that is not natural, else None."""
        cls = object_class(obj)
        if cls in PAINTED:
            return cls
        head = obj.split()[-1]
        if cls is not None or head in NATURAL:
            return None
        colours = self._index("colours_of")
        return "made" if max(colours.get(obj, 0), colours.get(head, 0)) >= MANY_COLOURS else None

    def judge(
        self,
        s: str,
        predicate: str,
        o: str,
        strict: bool = False,
        seen: int = 1,
        whole: str | None = None,
    ) -> str | None:
        """None if "s predicate o" is plausible: seen as a triple, or (for the heads when a
        compound is unseen; never for ``whole``, a name judged as it is) subject with
        predicate and predicate with object, and an action's verb with that subject. Else the
        reason: ``implausible_agent`` (the subject never does that: "a building pulls a
        train") or ``implausible_relation``."""
        p = predicate_key(predicate)
        hs = s if s == whole else s.split()[-1]
        ho = o if o == whole else o.split()[-1]
        if self.n("spo", s, p, o) >= seen or self.n("spo", hs, p, ho) >= seen:
            return None  # (``seen`` 2: a triple seen once may be a parse's slip)
        if strict:  # a new pairing of two objects the caption has: only what was seen
            return "implausible_relation"
        if relation_type(p) == "action":
            verb = p.split()[0]
            if not (self.n("agent", s, verb) or self.n("agent", hs, verb)):
                return "implausible_agent"
        s_ok = self.n("sp", s, p) or self.n("sp", hs, p)
        o_ok = self.n("po", p, o) or self.n("po", p, ho)
        seen = self.together(s, o) or self.together(hs, ho)
        return None if s_ok and o_ok and seen else "implausible_relation"

    def judge_by_class(self, s: str, predicate: str, o: str) -> str | None:
        """:meth:`judge` (strict), backed off to object classes: for two objects of one class
        (:data:`OBJECT_CLASSES`) that change places, the classes' triple is the caption's own
        ("person | wear | clothing": "a man with white pants and a brown shirt"), so the new
        triple of a third thing with one of them is plausible though this very one was never
        seen. The relation between the two themselves is :meth:`judge_reversed`'s."""
        if self.judge(s, predicate, o, strict=True, seen=2) is None:
            return None
        p = predicate_key(predicate)
        if p in SUPPORT:  # "red cars on a train": "a train on red cars"
            return "implausible_relation"
        if relation_type(p) == "action" and not (
            self.n("agent", s, p.split()[0]) or self.n("agent", s.split()[-1], p.split()[0])
        ):
            # a class does not say what each of its members does: "a horse kicks at a dog that
            # is barking" -> "a dog kicks at a horse that is barking" (blind review round 38)
            return "implausible_agent"
        if (
            relation_type(p) == "action"
            and " " not in p
            and not any(
                self.n("po", p, x) >= max(2, UNDERGOES_SHARE * self.n("obj", x))
                for x in dict.fromkeys((o, o.split()[-1]))
            )
        ):
            # nor what each undergoes as a verb's bare object: "a man riding a green bicycle
            # past a parked blue car" -> "riding a green car" (3 cars ridden in 1,094: blind
            # review round 43); where a preposition comes between, the object is a place
            return "implausible_relation"
        return None if object_class(s) and object_class(o) else "implausible_relation"

    def judge_reversed(self, s: str, predicate: str, o: str) -> str | None:
        """A relation whose two ends changed places ("the man behind the woman" -> "the
        woman behind the man"): :meth:`judge` (strict), backed off to object classes
        (:data:`OBJECT_CLASSES`) where the class says the new triple is plausible though
        this very one was never seen:
        - a relation of where things stand as seen from the camera (:data:`VIEW_RELATIVE`)
          between two free-standing things (:data:`FREE_STANDING`): "the woman behind the
          man", "a bus in front of a car";
        - a stance verb with such a relation, for a person or an animal ("a dog standing
          behind a man");
        - an action between two animate beings that either can do to the other
          (:data:`RECIPROCAL_VERBS`: "a woman looking at a man", "a cat chasing a dog"); an
          animal may not do what only people do ("a dog talking to a man"), a baby only
          look; other verbs only where the new subject was seen doing them ("sheep herding a
          dog": never).
        Support and containment ("a train on red cars") never back off."""
        if self.judge(s, predicate, o, strict=True, seen=2) is None:
            return None
        p = predicate_key(predicate)
        cs, co = object_class(s), object_class(o)
        if p in SUPPORT or cs not in FREE_STANDING or co not in FREE_STANDING:
            return "implausible_relation"
        if p in VIEW_RELATIVE:
            return None
        verb, _, rest = p.partition(" ")
        if relation_type(p) != "action" or cs not in ANIMATE_CLASSES:
            return "implausible_relation" if relation_type(p) != "action" else "implausible_agent"
        if (rest in VIEW_RELATIVE or rest in NEARBY) and verb in STANCE_VERBS:
            return None
        if co not in ANIMATE_CLASSES or set(rest.split()) & SUPPORT:
            # "a man riding a horse": "a horse riding a car"; "a man laying on a cow": "a
            # cow laying on a man"
            return "implausible_relation"
        head = s.split()[-1]
        if not rest and verb in LEADING_VERBS and cs != "person":
            return "implausible_agent"  # "a man walking a dog": "a dog walking a man"
        if any(self._does_to_beings(x, verb) for x in dict.fromkeys((s, head))):
            return None
        if head in YOUNG and verb not in LOOK_VERBS:
            return "implausible_agent"  # "a baby feeding a woman"
        if verb in RECIPROCAL_VERBS and (cs == "person" or verb not in PEOPLE_ONLY_VERBS):
            return None
        return "implausible_agent"

    def _does_to_beings(self, s: str, verb: str) -> bool:
        """The statistics saw ``s`` do ``verb`` twice or more, and at least once to a person
        or an animal, with a preposition or without: a sheep counted as the subject of
        "shear" (a parse of "sheep shearing") never shears a man (blind review round 23), nor
        the wool from one (round 43); a woman throws a frisbee to a man."""
        if self.n("agent", s, verb) < 2:
            return False
        for rest in self.neighbours("spo", 0, s):
            p, _, o = rest.partition(SEP)
            if p.split()[0] == verb and object_class(o) in ANIMATE_CLASSES:
                return True
        return False

    def triple_ok(self, s: str, predicate: str, o: str) -> bool:
        return self.judge(s, predicate, o) is None

    def is_related(self, a: str, b: str, pos: str = "noun") -> bool:
        key = (a, b, pos)
        memo = self._related_cache
        hit = memo.get(key)
        if hit is None:
            if len(memo) >= self.RELATED_MEMO:
                memo.clear()
            hit = memo[key] = self._is_related(a, b, pos)
        return hit

    def _is_related(self, a: str, b: str, pos: str = "noun") -> bool:
        """Synonyms, hypernyms or hyponyms of each other (WordNet, see related.json, and
        :data:`NEAR_SYNONYMS`), by the whole name or by the head: a replacement by one says
        nothing false ("cup" -> "mug", "man" -> "person"). Each word's forms are found once
        (:meth:`_forms`): a pair not seen before costs a few comparisons."""
        fa, fb = self._forms(a), self._forms(b)
        a, b = fa.lower, fb.lower
        if a == b:
            return True
        if not (fa.last and fb.last):
            raise IndexError(f"a blank word: {a!r}, {b!r}")
        if fa.last == fb.last or fa.singular == fb.singular or fa.bare == fb.bare:
            return True
        if not (fa.known and fb.known) and fa.length >= 4 and fb.length >= 4 and _similar(a, b):
            return True  # a typo of the caption corrected: "rcok" -> "rock" is true
        if pos == "noun" and (
            fa.words <= fb.words
            or fb.words <= fa.words
            or (min(fa.length, fb.length) >= 3 and (a in b or b in a) and not (fa.kind and fb.kind))
        ):
            # "baseball player" in "baseball player figure"; "road", "roadside"; but not
            # two words of the object classes: "man" is in "woman"
            return True
        if pos == "adj":  # materials and colours are nouns in WordNet: "iron" is a "metal"
            return self._related(fa, fb, "adj") or self._related(fa, fb, "noun")
        return self._related(fa, fb, pos)

    def _forms(self, word: str) -> _Forms:
        """What :meth:`_is_related` compares of a word (:class:`_Forms`), found once per
        word (bounded)."""
        hit = self._word_forms.get(word)
        if hit is None:
            if len(self._word_forms) >= self.RELATED_MEMO:
                self._word_forms.clear()
            w = word.lower()
            words = w.split()
            hit = self._word_forms[word] = _Forms(
                w,
                words[-1] if words else "",
                singular(w),
                w.rstrip("s"),
                self.known(w),
                len(w),
                frozenset(words),
                object_class(w) if words else None,
            )
        return hit

    def _related(self, fa: _Forms, fb: _Forms, pos: str) -> bool:
        """Related in the WordNet table of ``pos``, by the whole words or their last words
        (``fa``, ``fb``: :meth:`_forms`)."""
        table = self.related.get(pos, {})
        for x, y in ((fa, fb), (fb, fa)):
            rel = table.get(x.lower) or table.get(x.last) or ()
            if y.lower in rel or y.last in rel:
                return True
        return False

    def neighbours(self, table: str, fixed: int, value: str) -> dict[str, int]:
        """Of the keys of ``table`` whose part ``fixed`` is ``value``: the other parts (joined
        by spaces for triples) with their counts ("attr", 1, "plate": the attributes seen
        with a plate). Indexed on first use, once per process."""
        return self._index((table, fixed)).get(value, {})

    def pool(self, kind: str, *context) -> tuple[tuple[str, ...], tuple[int, ...]]:
        """Words seen in a context, sorted, with cumulative counts (made once per process):
        ("attrs_of", obj, type): attributes of a type seen with obj;
        ("end", other, predicate, as_subject): the objects seen at the other end of
        ``predicate`` from ``other``; ("attr", a): objects seen with attribute a; ("scene",
        o): objects seen in a scene with o; ("connect", subject, placed): "predicate|object"
        that a relation from ``subject`` may add. Words seen more than once are preferred:
        seen once may be a parse's slip."""
        key = (kind, *context)
        if key not in self._pools:
            self._pools[key] = _cumulative(getattr(self, f"_options_{kind}")(*context))
        return self._pools[key]

    def is_part(self, obj: str) -> bool:
        """A part of a body by its class, or seen as a part of something: had by it half the
        times it is named ("a wheel"; "a hand", had 333 times in 669 with 63,150 captions
        counted, is one by its class)."""
        return object_class(obj) == "body part" or self.n("po", "have", obj) * 2 >= self.n(
            "obj", obj
        )

    def part_or_worn(self, obj: str) -> bool:
        """Seen as a part of something (:meth:`is_part`) or worn: "a boy near a shirt", "a
        boat near a wheel" read wrong."""
        return self.is_part(obj) or self.n("po", "wear", obj) > 0

    def _options_end(self, other: str, predicate: str, as_subject: bool) -> dict[str, int]:
        out: dict[str, int] = {}
        for rest, n in self.neighbours("spo", 2 if as_subject else 0, other).items():
            parts = rest.split(SEP)
            if (parts[1] if as_subject else parts[0]) == predicate:
                w = parts[0] if as_subject else parts[-1]
                out[w] = out.get(w, 0) + n
        return out

    def _options_attrs_of(self, obj: str, kind: str) -> dict[str, int]:
        return {
            w: n for w, n in self.neighbours("attr", 1, obj).items() if attribute_kind(w) == kind
        }

    def _options_attr(self, attribute: str) -> dict[str, int]:
        return dict(self.neighbours("attr", 0, attribute))

    def _options_scene(self, obj: str) -> dict[str, int]:
        return {w: n for w, n in self.neighbours("scene", 0, obj).items() if w not in NOT_OBJECTS}

    def _options_connect(self, subject: str, placed: bool) -> dict[str, int]:
        out = {}
        for rest, n in self.neighbours("spo", 0, subject).items():
            pred, obj = rest.split(SEP)
            if (
                pred in CONNECT_SKIP
                or (placed and pred not in PROXIMITY)
                or relation_type(pred) == "action"
                or obj in NOT_OBJECTS
                or self.part_or_worn(obj)
                or obj.split()[-1] in PLURALIA
                or obj in ("people", "crowd")
            ):
                continue
            out[rest] = n
        if self.n("po", "have", subject) * 2 < self.n("obj", subject):
            # and objects seen in its scenes, near it (not for parts, which things have:
            # "a hand near a bus")
            for w, n in self._options_scene(subject).items():
                if (
                    w.split()[-1] not in PLURALIA
                    and w not in ("people", "crowd")
                    and self.n("obj", w) >= 3
                    and not self.part_or_worn(w)
                ):
                    out[f"near{SEP}{w}"] = out.get(f"near{SEP}{w}", 0) + n
        return out


def _cumulative(options: dict[str, int]) -> tuple[tuple[str, ...], tuple[int, ...]]:
    if any(n > 1 for n in options.values()):
        options = {w: n for w, n in options.items() if n > 1}
    words = tuple(sorted(options))
    total, cum = 0, []
    for w in words:
        total += options[w]
        cum.append(total)
    return words, tuple(cum)


def build_cooc(graphs: Iterable[SceneGraph], max_entries: int = 1_000_000) -> Cooc:
    c = Cooc(max_entries)
    for g in graphs:
        c.count(g)
    return c


def load_default() -> Cooc:
    return load_cooc(str(DEFAULT_COOC))


@lru_cache(maxsize=8)
def load_cooc(path: str) -> Cooc:
    """Statistics from a JSON file (once per process), with the bundled WordNet relations."""
    return Cooc.from_json(json.loads(Path(path).read_text()), load_related())
