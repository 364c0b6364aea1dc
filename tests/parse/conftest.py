"""The rule parser, loaded once per test module, for the rule tests."""

from __future__ import annotations

import pytest

from sgprep.parse.base import ParserSettings, make_parser
from sgprep.parse.rules import RuleParser


@pytest.fixture(scope="module")
def parser() -> RuleParser:
    p = make_parser("spacy", ParserSettings(batch_size=64))
    p.setup()
    return p


@pytest.fixture(scope="module")
def surface(parser: RuleParser) -> RuleParser:
    """The same parser writing predicates in their surface form (same model object)."""
    p = RuleParser(ParserSettings(predicate_form="surface"))
    p.nlp = parser.nlp
    return p
