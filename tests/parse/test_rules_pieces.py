"""A caption longer than PIECE_CHARS (only a run that raises --max-caption-chars has one) is
parsed in pieces, a few at a time, so its memory is its graph's, not spaCy's for one huge doc
(issue 36, item 3); every caption the default limit lets in is parsed whole, as before."""

from __future__ import annotations

import pytest

from sgprep.config import RunContext
from sgprep.parse.base import ParseError, ParserSettings, make_parser
from sgprep.parse.rules import PIECE_CHARS, PIECES_AT_ONCE, RuleParser, pieces
from sgprep.schema import SceneGraph

SENTENCES = [
    "A man in a red shirt is riding a brown horse next to a white fence.",
    "Two dogs are sleeping on a blue sofa under a window.",
    "a woman holding an umbrella walks past a yellow taxi",
    "The kitchen has a wooden table with three chairs and a bowl of apples on it!",
    "Is that a cat on the roof of the old barn?",
]


def _long_caption(chars: int) -> str:
    words, k = [], 0
    while sum(map(len, words)) + len(words) < chars:
        words.append(SENTENCES[k % len(SENTENCES)])
        k += 1
    return " ".join(words)


@pytest.fixture(scope="module")
def wide(parser) -> RuleParser:
    """The rule parser of a run whose caption limit is raised to 100,000 characters."""
    p = make_parser("spacy", ParserSettings(batch_size=64), RunContext(max_caption_chars=100_000))
    p.nlp = parser.nlp
    p.setup()
    return p


@pytest.fixture
def piped(monkeypatch) -> list[list[str]]:
    """The texts of every ``nlp.pipe`` call the rule parser makes."""
    calls: list[list[str]] = []
    pipe = RuleParser._pipe

    def spy(self, texts):
        calls.append(list(texts))
        return pipe(self, texts)

    monkeypatch.setattr(RuleParser, "_pipe", spy)
    return calls


def test_pieces_cut_after_sentences_and_cover_the_text():
    text = _long_caption(5000) + "  \n " + "x" * 2500 + " tail"
    spans = pieces(text)
    assert all(0 < b - a <= PIECE_CHARS for a, b in spans)
    assert all(text[a:b] == text[a:b].strip() for a, b in spans)
    assert all(a >= b0 for (_, b0), (a, _) in zip(spans, spans[1:]))
    # nothing but whitespace between them (a word too long to keep whole is cut in two)
    assert "".join(text[a:b].replace(" ", "") for a, b in spans) == "".join(text.split())
    assert all(text[b - 1] in ".!?" for a, b in spans[:2])  # cut after a sentence
    assert pieces("  a short caption  ") == [(2, 17)]
    assert pieces(" " * 5000) == []


def test_a_long_caption_reaches_spacy_in_pieces_a_few_at_a_time(wide, piped):
    caption = _long_caption(9000)
    before = wide.stats()
    (graph,) = wide.parse_batch([caption])
    assert isinstance(graph, SceneGraph) and graph.entities
    texts = [t for call in piped for t in call]
    assert max(map(len, texts)) <= PIECE_CHARS  # before: one text of 9,000 characters
    assert max(map(len, piped)) <= PIECES_AT_ONCE
    after = wide.stats()
    assert after["split"] == before.get("split", 0) + 1
    assert after["pieces"] - before.get("pieces", 0) == len(pieces(caption)) >= 5
    assert after["graphs"] == before.get("graphs", 0) + 1


def test_the_graph_of_a_long_caption_joins_those_of_its_pieces(wide):
    caption = _long_caption(6000)
    (graph,) = wide.parse_batch([caption])
    spans = pieces(caption)
    parts = wide.parse_batch([caption[a:b] for a, b in spans])
    entities, relations = [], []
    for (start, _), part in zip(spans, parts):
        first = len(entities)
        for e in part.entities:
            span = None if e.span is None else (e.span[0] + start, e.span[1] + start)
            entities.append(e.model_copy(update={"span": span}))
        for r in part.relations:
            span = None if r.span is None else (r.span[0] + start, r.span[1] + start)
            relations.append(
                r.model_copy(
                    update={"subject": r.subject + first, "object": r.object + first, "span": span}
                )
            )
    assert graph == SceneGraph(entities=entities, relations=relations, parser="spacy")
    for e in graph.entities:  # spans index the caption
        assert e.span is None or caption[e.span[0] : e.span[1]] == e.text


def test_captions_within_the_limit_are_parsed_whole_as_before(wide, parser, piped):
    ordinary = [*SENTENCES, " ".join(SENTENCES * 8)[:PIECE_CHARS]]
    assert len(ordinary[-1]) == PIECE_CHARS
    graphs = wide.parse_batch(ordinary)
    assert len(piped[0]) == len(ordinary) and len(piped[0][-1]) >= PIECE_CHARS  # one doc each
    assert graphs == parser.parse_batch(ordinary)  # the default limit's parser
    # beside a long caption in the same batch, they keep the same graphs
    mixed = wide.parse_batch([ordinary[0], _long_caption(4000), *ordinary[1:]])
    assert [mixed[0], *mixed[2:]] == graphs


def test_a_blank_long_caption_is_still_empty_and_a_failed_piece_fails_it(wide, monkeypatch):
    (blank,) = wide.parse_batch([" " * 5000])
    assert isinstance(blank, ParseError) and blank.reason == "empty_caption"
    graph = RuleParser._graph

    def failing(self, doc, shift=0, text=None):
        if "umbrella" in doc.text:
            return ParseError("rule_error", "boom")
        return graph(self, doc, shift, text)

    monkeypatch.setattr(RuleParser, "_graph", failing)
    (failed,) = wide.parse_batch([_long_caption(5000)])
    assert isinstance(failed, ParseError) and failed.reason == "rule_error"
    assert "boom" in failed.message and "of the caption" in failed.message
