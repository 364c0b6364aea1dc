"""``load_spacy`` builds the tokenizer once, from the pipeline's files: the same tokenizer
as ``spacy.load`` gives (bytes, vocab, tokens, config), where the config names spaCy's own."""

from __future__ import annotations

import pytest

from sgprep.parse.base import DEFAULT_SPACY_MODEL
from sgprep.parse.rules import (
    BARE_TOKENIZER,
    UNUSED_COMPONENTS,
    _saved_tokenizer_only,
    import_spacy,
    load_spacy,
)

TEXTS = [
    "a man doesn't stand next to the dog's bowl at 5 a.m.",
    "see https://example.com/x.jpg :) -- e.g. U.S.A. 's",
    "y'all gonna sit on the 2nd bench, aren't you?",
    "pillows on a bed",
]


def _tokens(nlp) -> list:
    return [
        [(t.text, t.norm_, t.lex.norm_, t.is_stop, t.like_num, t.whitespace_) for t in doc]
        for doc in map(nlp.make_doc, TEXTS)
    ]


def _same_tokenizer(ours, theirs) -> None:
    """Two pipelines just loaded (no text through either yet: texts add to the vocab)."""
    assert len(ours.vocab) == len(theirs.vocab)
    assert ours.tokenizer.to_bytes() == theirs.tokenizer.to_bytes()
    assert _tokens(ours) == _tokens(theirs)
    assert len(ours.vocab) == len(theirs.vocab)
    assert ours.config.to_str() == theirs.config.to_str()


def _fresh(name: str):
    """``load_spacy``'s own load, not the copy it keeps for the process (other tests parse
    with that one)."""
    return load_spacy.__wrapped__(name)


def test_the_packaged_pipeline_gets_the_tokenizer_spacy_load_gives():
    spacy = import_spacy(DEFAULT_SPACY_MODEL)
    assert _saved_tokenizer_only(spacy, DEFAULT_SPACY_MODEL) == {
        "nlp": {"tokenizer": {"@tokenizers": BARE_TOKENIZER}}
    }
    try:
        theirs = spacy.load(DEFAULT_SPACY_MODEL, exclude=list(UNUSED_COMPONENTS))
    except OSError:
        pytest.skip(f"{DEFAULT_SPACY_MODEL} is not installed")
    _same_tokenizer(_fresh(DEFAULT_SPACY_MODEL), theirs)


def test_a_pipeline_folder_and_one_with_its_own_tokenizer(tmp_path):
    spacy = import_spacy("")
    folder = tmp_path / "blank"
    spacy.blank("en").to_disk(folder)
    assert _saved_tokenizer_only(spacy, str(folder))  # spaCy's own tokenizer: built once
    _same_tokenizer(_fresh(str(folder)), spacy.load(folder))

    config = folder / "config.cfg"  # a pipeline that names another tokenizer keeps it
    text = config.read_text()
    assert '@tokenizers = "spacy.Tokenizer.v1"' in text
    config.write_text(text.replace("spacy.Tokenizer.v1", "spacy.Tokenizer.v0"))
    assert _saved_tokenizer_only(spacy, str(folder)) == {}
    (folder / "tokenizer").unlink()  # no saved tokenizer: no override either
    config.write_text(text)
    assert _saved_tokenizer_only(spacy, str(folder)) == {}
    assert _saved_tokenizer_only(spacy, str(tmp_path / "missing")) == {}
