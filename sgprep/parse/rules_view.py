"""A cheap view of one parsed doc for the rule layer: each token's part of speech, tag,
dependency, head and lower-case word as plain Python lists, read once per doc.

spaCy makes a new ``Token`` object for every ``doc[i]``, ``tok.head`` and child, and looks a
string up for every ``tok.pos_``; a rule that tests each word's tag reads ~0.1-0.2 µs a word
before it does anything. The rules test the same few attributes first, and most of them fire
on a few % of captions, so they test them here, on lists, and touch ``Token`` objects only
where something may apply (``docs/rule-parser.md``, "Speed").

A view describes the doc as it was when the view was made: whoever changes the doc (a
repair) makes a new one afterwards (:meth:`sgprep.parse.rules.RuleParser._repaired` does).
"""

from __future__ import annotations

from itertools import islice
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # spaCy is imported by rules.load_spacy, the first time it is needed
    from collections.abc import Iterator

    from spacy.tokens import Doc, Token

#: Strings of the hashes (and part-of-speech ids) read so far, shared by all docs: labels
#: and words repeat from caption to caption. Cleared when it grows past the limit.
_NAMES: dict[int, str] = {}
_NAMES_LIMIT = 500_000
_ATTRS: list[int] = []


def _attrs() -> list[int]:
    if not _ATTRS:
        from spacy.attrs import DEP, HEAD, LOWER, POS, TAG

        _ATTRS.extend([POS, TAG, DEP, LOWER, HEAD])
    return _ATTRS


def _names(strings, ids: list[int]) -> list[str]:
    try:
        return list(map(_NAMES.__getitem__, ids))
    except KeyError:
        if len(_NAMES) > _NAMES_LIMIT:
            _NAMES.clear()
        for h in ids:
            if h not in _NAMES:
                _NAMES[h] = strings[h]
        return list(map(_NAMES.__getitem__, ids))


_WRAP, _HALF = 1 << 64, 1 << 63  # to_array gives a head before its token wrapped around


class DocView:
    """Per-token lists of one doc, indexed by token index: ``pos`` (``tok.pos_``), ``tag``
    (``tok.tag_``), ``dep`` (``tok.dep_``), ``head`` (``tok.head.i``), ``lower``
    (``tok.lower_``); and the sets of each (``poses``, ``tags``, ``deps``, ``words``) for a
    rule to ask whether the doc has one at all. ``lemma`` (``tok.lemma_``) and ``children``
    (``[c.i for c in tok.children]``) are made on first use."""

    __slots__ = ("doc", "pos", "tag", "dep", "head", "lower", "poses", "tags", "deps", "words",
                 "_lemma", "_acl", "_children")  # fmt: skip

    def __init__(self, doc: Doc):
        self.doc = doc
        pos, tag, dep, lower, head = doc.to_array(_attrs()).T.tolist()
        n = len(pos)
        names = _names(doc.vocab.strings, pos + tag + dep + lower)
        self.pos, self.tag = names[:n], names[n : 2 * n]
        self.dep, self.lower = names[2 * n : 3 * n], names[3 * n :]
        # a head is an offset from its token, as uint64
        self.head = [i + h if h < _HALF else i + h - _WRAP for i, h in enumerate(head)]
        self.poses = set(self.pos)
        self.tags = set(self.tag)
        self.deps = set(self.dep)
        self.words = set(self.lower)
        self._lemma: list[str] | None = None
        self._acl: list[int] | None = None
        self._children: list[list[int]] | None = None

    @property
    def lemma(self) -> list[str]:
        if self._lemma is None:
            self._lemma = [t.lemma_ for t in self.doc]
        return self._lemma

    @property
    def children(self) -> list[list[int]]:
        """Each token's children (``[c.i for c in tok.children]``), in order."""
        if self._children is None:
            kids: list[list[int]] = [[] for _ in self.head]
            for j, h in enumerate(self.head):
                if h != j:
                    kids[h].append(j)
            self._children = kids
        return self._children

    def __len__(self) -> int:
        return len(self.pos)


def needs(test):
    """Declares when a repair may change a doc: ``test(view, *args)`` (the repair's own
    arguments after the doc) is False only where the repair would leave the doc as it is.
    :meth:`sgprep.parse.rules.RuleParser._repaired` skips the repair there. The test reads
    the view's lists only; it repeats the repair's first, cheapest conditions, and must not
    be stricter than the repair (a test that says False where the repair would change the
    doc changes the graphs)."""

    def declare(repair):
        repair.needs = test
        return repair

    return declare


def acl_participles(view: DocView) -> list[int]:
    """Tokens tagged VBG hung as a clause on a noun (``acl``): "a man in a shirt holding"."""
    if view._acl is None:
        if "VBG" not in view.tags or "acl" not in view.deps:
            view._acl = []
        else:
            tag, dep = view.tag, view.dep
            view._acl = [i for i in range(len(tag)) if tag[i] == "VBG" and dep[i] == "acl"]
    return view._acl


def tree_roots(heads: list[int]) -> list[int] | None:
    """Each token's root (the token its climb over ``heads`` ends at, whose head is itself);
    None where a climb comes back to a token it passed (a cycle) or leaves the doc. Each token
    is climbed from once: linear in the number of tokens."""
    n = len(heads)
    roots = [-1] * n  # -1: not reached yet; -2: on the climb under way
    for start in range(n):
        climb, k = [], start
        while roots[k] == -1:
            h = heads[k]
            if h == k:
                roots[k] = k
                break
            if not 0 <= h < n:
                return None
            roots[k] = -2
            climb.append(k)
            k = h
        top = roots[k]
        if top == -2:
            return None
        for j in climb:
            roots[j] = top
    return roots


def one_tree_per_sentence(roots: list[int]) -> bool:
    """Whether each tree of ``roots`` (:func:`tree_roots`) covers a run of tokens of its own:
    spaCy starts a sentence at each root's leftmost descendant, so trees that interleave make
    sentences with no root or two, and heads that cross them."""
    seen, last = set(), -1
    for root in roots:
        if root != last:
            if root in seen:
                return False
            seen.add(root)
            last = root
    return True


def subtree(tok: Token) -> Iterator[Token]:
    """``tok.subtree``, cut off after as many tokens as the doc has: a walk over children
    ends within the caption's length even where the heads were to close a cycle."""
    return islice(tok.subtree, len(tok.doc))


def conjuncts(tok: Token) -> list[Token]:
    """``tok.conjuncts`` (spaCy's order), with both of its walks (up to the first of the
    coordination, down its conjuncts) bounded by the doc's length."""
    n = len(tok.doc)
    first, steps = tok, n
    while first.dep_ == "conj" and first.head.i != first.i and steps:
        first, steps = first.head, steps - 1
    chain = [first]
    for word in chain:  # grows while it is read: conjuncts of conjuncts
        if len(chain) > n:
            break
        chain += [c for c in word.rights if c.dep_ == "conj"]
    return [w for w in chain[:n] if w.i != tok.i]
