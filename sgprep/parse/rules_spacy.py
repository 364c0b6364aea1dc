"""spaCy's attribute ruler and lemmatizer for the rule parser, memoised: the same
annotations, byte for byte, at a fraction of their cost on short captions.

In the small English pipelines, after the tagger and the parser, the ``attribute_ruler``
turns each tag into a part of speech and morphology (and fixes some words' lemmas), and the
``lemmatizer`` gives each token its lemma. On FACTUAL captions (~6 tokens) they were ~0.14
and ~0.02 ms of spaCy's ~0.68 ms a caption (memoised, ~0.02 ms together): the ruler's
``Matcher`` tries its ~180 patterns at every token, and the lemmatizer walks every token in
Python. What both compute is a function of a few tokens' attributes, and words and tags
repeat from caption to caption:

- the ruler's matches that start at a token depend only on the tokens its patterns can span
  from there (patterns of fixed length, here two tokens at most), and only on what the
  patterns can tell apart of each (the word where a pattern names it, the tag, the
  dependency, white space or not): the matches of each such window are kept, the ruler's
  own ``Matcher`` runs only on a doc with a window not seen before, and the ruler's own
  ``set_annotations`` applies them;
- a token's lemma depends only on its word, part of speech and morphology (the key of
  spaCy's own lemma cache): the lemmas are kept by that key, spaCy's lemmatizer makes those
  of a token not seen before, and a token whose lemma the ruler set keeps it, as in spaCy;
- where no token of a doc may start a pattern of two tokens (most captions), what both leave
  on a token depends on that token alone: it is kept per token, and a doc whose tokens were
  all seen before takes its annotations in one array (:class:`Annotators`).

:func:`annotators` gives the two in the pipeline's order, to run on each doc that
``nlp.pipe`` made without those components (``RuleParser._pipe``). A pipeline whose ruler
reads other attributes or has patterns of variable length, or whose lemmatizer has another
mode, gets none, and runs its own components as before. The pipeline itself is left as it
was loaded (the LLM parser's head finder and the benchmark's bare ``nlp.pipe`` share it).
"""

from __future__ import annotations

#: Pattern keys the memo understands: the word (as written or lower-cased), whether it is
#: white space, its tag and its dependency.
_KEYS = frozenset({"ORTH", "TEXT", "LOWER", "IS_SPACE", "TAG", "DEP"})
#: Lemmatizer modes whose lemma is a function of the word, part of speech and morphology.
_MODES = frozenset({"rule", "lookup", "pos_lookup"})
#: Entries kept before a memo starts again: this bounds its memory (measured: ~0.6 kB an
#: entry of the per-token memo, so ~30 MB at most; FACTUAL's 5,000 captions fill ~5,600).
MEMO_LIMIT = 50_000


def _test(value):
    """A pattern's value for a word, tag or dependency as spaCy's ``Matcher`` tests it:
    ``test(hash, string)``; and the strings it names (``"NN"``, ``{"IN": [...]}``), or
    None for a ``NOT_IN`` or ``REGEX`` test. None for a form the memo does not know."""
    import re

    from spacy.strings import get_string_id

    if isinstance(value, str):
        h = get_string_id(value)
        return (lambda v, s: v == h), [value]
    if not isinstance(value, dict) or len(value) != 1:
        return None
    ((op, arg),) = value.items()
    if op in ("IN", "NOT_IN") and isinstance(arg, list | tuple):
        if not all(isinstance(v, str) for v in arg):
            return None
        hashes = frozenset(map(get_string_id, arg))
        if op == "IN":
            return (lambda v, s: v in hashes), list(arg)
        return (lambda v, s: v not in hashes), None
    if op == "REGEX" and isinstance(arg, str):
        search = re.compile(arg).search
        return (lambda v, s: bool(search(s))), None
    return None


class _Values:
    """What the patterns can tell apart of one attribute's values: a value that a pattern
    names (``"NN"``, ``{"IN": [...]}``) stands for itself; any other value for which of the
    patterns' ``NOT_IN`` and ``REGEX`` tests it passes (:func:`_test`)."""

    def __init__(self):
        self.named: set[int] = set()
        self.tests: list = []
        self.classes: dict[int, object] = {}

    def add(self, value) -> bool:
        """Takes one pattern value; False for a form the memo does not know."""
        from spacy.strings import get_string_id

        found = _test(value)
        if found is None:
            return False
        test, named = found
        if named is None:
            self.tests.append(test)
        else:
            self.named.update(map(get_string_id, named))
        return True

    def of(self, value: int, strings) -> object:
        """The class of a value (a string hash)."""
        found = self.classes.get(value)
        if found is None:
            if len(self.classes) > MEMO_LIMIT:
                self.classes.clear()
            if value in self.named:
                found = value
            else:
                text = strings[value]
                found = tuple(test(value, text) for test in self.tests)
            self.classes[value] = found
        return found


#: A pattern key's column in :attr:`MemoisedRuler.columns`.
_COLUMN = {"ORTH": 0, "TEXT": 0, "LOWER": 1, "TAG": 2, "DEP": 3, "IS_SPACE": 4}


class MemoisedRuler:
    """An ``AttributeRuler`` whose matches are kept per window of tokens (module doc).

    A token enters a window as what the patterns can tell apart (:class:`_Values`) of its
    word as written and lower-cased, its tag and its dependency, and whether it is white
    space; so windows repeat, and the ruler's ``Matcher`` runs on few docs. A window is
    the token alone where it passes no first token of a longer pattern ("gon" of
    "gon na"), else the token and those after it."""

    def __init__(self, ruler, width: int, values: dict[str, _Values], starts: list):
        from spacy.attrs import DEP, IS_SPACE, LOWER, ORTH, TAG

        self.ruler = ruler
        self.width = width
        self.orth, self.lower = values["ORTH"], values["LOWER"]
        self.tag, self.dep = values["TAG"], values["DEP"]
        self.columns = [ORTH, LOWER, TAG, DEP, IS_SPACE]
        self.starts = starts  # per longer pattern, (column, test) of its first token
        self.starting: dict[tuple, bool] = {}  # a token's classes -> passes a start
        self.size = len(ruler.matcher)
        self.memo: dict[tuple, list[tuple]] = {}

    @classmethod
    def of(cls, ruler) -> MemoisedRuler | None:
        """The memoised ruler; None where a pattern reads another attribute, has an
        operator, or tests a value other than by equality, ``IN``, ``NOT_IN`` or
        ``REGEX``."""
        width, starts = 0, []
        values = {k: _Values() for k in ("ORTH", "LOWER", "TAG", "DEP")}
        for entry in ruler.patterns:
            for pattern in entry["patterns"]:
                if not isinstance(pattern, list) or not pattern:
                    return None
                for spec in pattern:
                    if not set(spec) <= _KEYS:
                        return None
                    for key, value in spec.items():
                        if key == "IS_SPACE":
                            if not isinstance(value, bool):
                                return None
                        elif not values["ORTH" if key == "TEXT" else key].add(value):
                            return None
                if len(pattern) > 1:
                    starts.append(
                        [
                            (4, lambda v, s, b=value: v == b)
                            if key == "IS_SPACE"
                            else (_COLUMN[key], _test(value)[0])
                            for key, value in pattern[0].items()
                        ]
                    )
                width = max(width, len(pattern))
        if width == 0:
            return None
        return cls(ruler, width, values, starts)

    def _starts(self, row: list[int], strings) -> bool:
        """Whether a token (its row of :attr:`columns`) passes the first token of a longer
        pattern."""
        return any(
            all(test(row[col], strings[row[col]] if col < 4 else "") for col, test in start)
            for start in self.starts
        )

    def __call__(self, doc) -> list[bool]:
        """Annotates the doc; says which tokens may start a longer pattern."""
        strings = doc.vocab.strings
        orth, lower, tag, dep = self.orth.of, self.lower.of, self.tag.of, self.dep.of
        rows = doc.to_array(self.columns).tolist()
        tokens = [
            (orth(o, strings), lower(w, strings), tag(t, strings), dep(d, strings), space)
            for o, w, t, d, space in rows
        ]
        starting, width = self.starting, self.width
        windows, flags = [], []
        for i, token in enumerate(tokens):
            starts = starting.get(token)
            if starts is None:
                if len(starting) > MEMO_LIMIT:
                    starting.clear()
                starts = starting[token] = self._starts(rows[i], strings)
            windows.append(tuple(tokens[i : i + width]) if starts else (token,))
            flags.append(starts)
        if len(self.ruler.matcher) != self.size:  # patterns added since: start again
            self.memo.clear()
            self.size = len(self.ruler.matcher)
        memo = self.memo
        try:
            matches = [
                (attr, label, i, i + length)
                for i, window in enumerate(windows)
                for attr, label, length in memo[window]
            ]
            matches.sort()
        except KeyError:
            matches = self.ruler.match(doc)
            if len(memo) > MEMO_LIMIT:
                memo.clear()
            found: list[list[tuple]] = [[] for _ in windows]
            for attr, label, start, end in matches:
                found[start].append((attr, label, end - start))
            memo.update(zip(windows, found))
        self.ruler.set_annotations(doc, matches)
        return flags


class MemoisedLemmas:
    """A ``Lemmatizer`` whose lemmas are kept per word, part of speech and morphology; a
    token not seen before is lemmatised by spaCy's own lemmatizer, as in its ``__call__``
    (which runs on the first doc, to check its tables)."""

    def __init__(self, lemmatizer):
        from spacy.attrs import LEMMA, MORPH, ORTH, POS

        self.lemmatizer = lemmatizer
        self.columns = [ORTH, POS, MORPH, LEMMA]
        self.lemma = [LEMMA]
        self.memo: dict[tuple[int, int, int], int] = {}
        self.checked = False

    @classmethod
    def of(cls, lemmatizer) -> MemoisedLemmas | None:
        if getattr(lemmatizer, "mode", None) not in _MODES or lemmatizer.overwrite:
            return None
        return cls(lemmatizer)

    def __call__(self, doc) -> None:
        import numpy

        rows = doc.to_array(self.columns).tolist()
        if not self.checked:
            self.lemmatizer(doc)
            self.checked = True
            return
        memo = self.memo
        if len(memo) > MEMO_LIMIT:
            memo.clear()
        lemmas = []
        for k, (orth, pos, morph, lemma) in enumerate(rows):
            if not lemma:  # else the ruler set it
                lemma = memo.get((orth, pos, morph))
                if lemma is None:
                    word = self.lemmatizer.lemmatize(doc[k])[0]
                    lemma = memo[orth, pos, morph] = doc.vocab.strings.add(word)
            lemmas.append(lemma)
        doc.from_array(self.lemma, numpy.array(lemmas, dtype="uint64"))


class Annotators:
    """The memoised components of one pipeline, in its order (:func:`annotators`).

    Where no token of a doc may start a longer pattern of the ruler, what the ruler and
    the lemmatizer leave on a token is a function of the token's own word, tag, dependency,
    part of speech, morphology and lemma before them: that too is kept per token, and such
    a doc, all of whose tokens were seen before, takes its annotations in one array. The
    others run the two memoised components (and fill this memo)."""

    def __init__(self, names: tuple[str, ...], steps: list):
        self.names = names  # the components ``nlp.pipe`` leaves to these
        self.steps = steps
        self.memo: dict[tuple, tuple | None] = {}
        self.read: list[int] = []
        self.written: list[int] = []
        if steps:
            from spacy.attrs import DEP, LEMMA, MORPH, ORTH, POS, TAG

            ruler: MemoisedRuler = steps[0]
            writes = {k for attrs in ruler.ruler.attrs for k in attrs} | {LEMMA}
            if writes <= {DEP, LEMMA, MORPH, POS, TAG}:  # token attributes, no extensions
                self.written = sorted(writes)
                self.read = [ORTH, TAG, DEP, POS, MORPH, LEMMA]

    def __call__(self, doc):
        if not self.read:
            for step in self.steps:
                step(doc)
            return doc
        import numpy

        keys = list(map(tuple, doc.to_array(self.read).tolist()))
        memo = self.memo
        try:
            done = [memo[key] for key in keys]
            if None not in done:
                if done:
                    doc.from_array(self.written, numpy.array(done, dtype="uint64"))
                return doc
        except KeyError:
            pass
        ruler, lemmas = self.steps
        starts = ruler(doc)
        lemmas(doc)
        if len(memo) > MEMO_LIMIT:
            memo.clear()
        after = doc.to_array(self.written).tolist()
        for k, key in enumerate(keys):
            if starts[k]:
                memo[key] = None  # its annotations may depend on the next token
            elif k == 0 or not starts[k - 1]:  # none on the token before
                memo[key] = tuple(after[k])
        return doc


def annotators(nlp) -> Annotators:
    """What runs in place of the pipeline's ``attribute_ruler`` and ``lemmatizer``; none
    where they are not its last two components or cannot be memoised (module doc)."""
    names = tuple(nlp.pipe_names[-2:])
    if names != ("attribute_ruler", "lemmatizer"):
        return Annotators((), [])
    ruler = MemoisedRuler.of(nlp.get_pipe("attribute_ruler"))
    lemmas = MemoisedLemmas.of(nlp.get_pipe("lemmatizer"))
    if ruler is None or lemmas is None:
        return Annotators((), [])
    return Annotators(names, [ruler, lemmas])
