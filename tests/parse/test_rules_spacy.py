"""The rule parser's memoised attribute ruler and lemmatizer (``sgprep.parse.rules_spacy``)
annotate each doc exactly as spaCy's own components do (docs/rule-parser.md, "Speed")."""

from __future__ import annotations

import pytest

from sgprep.parse.base import ParserSettings, make_parser
from sgprep.parse.rules import RuleParser, import_spacy
from sgprep.parse.rules_spacy import Annotators, MemoisedLemmas, MemoisedRuler, annotators

#: Captions with what the ruler's patterns name: contractions and words whose lemma the
#: ruler sets ("n't", "'s", "gonna", "nothin'"), white space, a proper noun, numbers,
#: quotes, a word read as two parts of speech, and plain captions; each twice, so the
#: second reads the memo.
CAPTIONS = [
    "a dog that isn't sleeping on the couch",
    "he's gonna throw the ball, y'know",
    "there's nothin' on the  plate",
    "a man  \n standing next to a red bus",
    "two zebras grazing in a field",
    "New York taxi cabs parked by the curb",
    "a woman in a black shirt is holding an umbrella",
    "the sign says 'STOP' in white letters",
    "3 birds sitting on a wire",
    "pillows on a bed",
    "a cat with green eyes, a pink nose and long white whiskers",
    "I can't see it, they're wearing hats",
    "a cup on the left of the plate",  # "left": a noun here, a verb (leave) below
    "the man left the room",
    # the first words of patterns of two words ("y all", "there are"), then the patterns
    "the letter y on a sign, there seem to be two dogs",
    "y'all sitting on a bench, there are two dogs",
]


@pytest.fixture(scope="module")
def parser() -> RuleParser:
    parser = make_parser("spacy", ParserSettings())
    parser.setup()
    return parser  # type: ignore[return-value]


@pytest.fixture(scope="module")
def stock(parser: RuleParser):
    """The same model loaded again, on its own: spaCy's components as they are."""
    return import_spacy().load(parser.settings.spacy_model, exclude=["ner"])


def annotations(doc) -> list[tuple]:
    return [
        (t.text, t.tag_, t.pos_, str(t.morph), t.lemma_, t.dep_, t.head.i, t.is_sent_start)
        for t in doc
    ]


def test_memoised_components_annotate_as_spacy_does(parser: RuleParser, stock) -> None:
    assert parser._annotators.names == ("attribute_ruler", "lemmatizer")
    texts = CAPTIONS * 2
    ours, theirs = parser._pipe(texts), list(stock.pipe(texts))
    for text, mine, spacy_doc in zip(texts, ours, theirs, strict=True):
        assert annotations(mine) == annotations(spacy_doc), text
    # the ruler set some lemmas itself, which the lemmatizer kept
    assert "not" in [t.lemma_ for t in ours[0]]


def test_the_matcher_runs_only_on_a_doc_with_a_window_not_seen(
    parser: RuleParser, monkeypatch
) -> None:
    ruler: MemoisedRuler = parser._annotators.steps[0]
    parser._pipe(CAPTIONS)
    docs: list = []
    real = ruler.ruler.match
    monkeypatch.setattr(ruler.ruler, "match", lambda doc: docs.append(doc) or real(doc))
    parser._pipe(CAPTIONS + ["two giraffes grazing in a field"])  # words no pattern names
    assert docs == []
    parser._pipe(["let's go"])  # "let" starts a pattern of two words: a new window
    assert len(docs) == 1
    assert [t.lemma_ for t in docs[0]] == ["let", "us", "go"]


def test_memo_refuses_patterns_it_cannot_read(stock) -> None:
    nlp = import_spacy().blank("en")
    ruler = nlp.add_pipe("attribute_ruler")
    ruler.add([[{"LOWER": "dog"}, {"POS": "NOUN"}]], {"LEMMA": "x"})
    assert MemoisedRuler.of(ruler) is None  # POS is not among the keys it reads
    ruler = nlp.add_pipe("attribute_ruler", name="other")
    ruler.add([[{"TAG": "NN", "OP": "+"}]], {"LEMMA": "x"})
    assert MemoisedRuler.of(ruler) is None  # an operator: windows of any length
    assert MemoisedRuler.of(stock.get_pipe("attribute_ruler")) is not None
    lookup = nlp.add_pipe("lemmatizer", config={"mode": "lookup", "overwrite": True})
    assert MemoisedLemmas.of(lookup) is None  # overwrites the ruler's lemmas
    assert isinstance(annotators(nlp), Annotators) and annotators(nlp).names == ()


def test_a_window_spans_a_pattern_of_two_words_where_one_may_start() -> None:
    """On an untagged doc every other word looks alike to the patterns below; "gon" and "y"
    may start one, so their windows hold the next word, and "gon x" tells nothing about
    "gon na"."""
    nlp = import_spacy().blank("en")
    ruler = nlp.add_pipe("attribute_ruler")
    ruler.add([[{"LOWER": "gon"}, {"LOWER": "na"}]], {"LEMMA": "go"})
    ruler.add([[{"LOWER": {"REGEX": "^y'?$"}}, {"LOWER": "all"}]], {"LEMMA": "you"})
    ruler.add([[{"LOWER": {"NOT_IN": ["gon", "na"]}}]], {"NORM": "other"})
    memo = MemoisedRuler.of(ruler)
    assert memo is not None
    for text in ["gon x", "gon na", "y x", "y all", "x gon", "gon na gon", "y' all"]:
        mine, theirs = nlp.make_doc(text), ruler(nlp.make_doc(text))
        memo(mine)
        assert [(t.lemma_, t.norm_) for t in mine] == [(t.lemma_, t.norm_) for t in theirs]


def test_a_doc_of_tokens_seen_before_takes_its_annotations_in_one_array(
    parser: RuleParser, stock, monkeypatch
) -> None:
    """A doc whose tokens were all seen (none starting a pattern of two words) is annotated
    from the per-token memo alone, and as spaCy annotates it."""
    annotate = parser._annotators
    parser._pipe(["a red bus parked by the curb", "two dogs in the snow"])
    ruler, lemmas = annotate.steps
    monkeypatch.setattr(annotate, "steps", None)  # neither component may run now
    texts = ["two red dogs parked by the snow", "a bus in the curb"]
    for mine, theirs in zip(parser._pipe(texts), stock.pipe(texts), strict=True):
        assert annotations(mine) == annotations(theirs)
    monkeypatch.setattr(annotate, "steps", [ruler, lemmas])
    for mine, theirs in zip(parser._pipe(["let's go"]), stock.pipe(["let's go"]), strict=True):
        assert annotations(mine) == annotations(theirs)  # "let" may start one: they run
    let = parser.nlp.vocab.strings["let"]
    assert [done for key, done in annotate.memo.items() if key[0] == let] == [None]
    # "is" after "there" is a verb (a pattern of two words), else an auxiliary: what the
    # second caption leaves on it is not kept for the third
    texts = ["the cat is on the table", "there is a cat on the table", "the cat is on the table"]
    for mine, theirs in zip(parser._pipe(texts), stock.pipe(texts), strict=True):
        assert annotations(mine) == annotations(theirs)


def test_a_memo_past_its_limit_starts_again(parser: RuleParser, stock, monkeypatch) -> None:
    from sgprep.parse import rules_spacy

    monkeypatch.setattr(rules_spacy, "MEMO_LIMIT", 3)
    annotate = rules_spacy.annotators(parser.nlp)
    monkeypatch.setattr(parser, "_annotators", annotate)
    for mine, theirs in zip(parser._pipe(CAPTIONS * 2), stock.pipe(CAPTIONS * 2), strict=True):
        assert annotations(mine) == annotations(theirs)
    longest = max(len(doc) for doc in stock.pipe(CAPTIONS))
    assert len(annotate.memo) <= 3 + longest  # cleared, then one doc's tokens added
    assert len(annotate.steps[1].memo) <= 3 + longest
