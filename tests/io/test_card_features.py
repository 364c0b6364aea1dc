"""The dataset card's features come from a file made once per schema version, and its YAML
from libyaml's emitter: both give the card that the models and ``yaml.safe_dump`` give."""

from __future__ import annotations

import json

import pytest
import yaml

from sgprep.io import card
from sgprep.schema import SCHEMA_VERSION, ShardStats


@pytest.fixture(autouse=True)
def _fresh_cache():
    card.annotation_features.cache_clear()
    yield
    card.annotation_features.cache_clear()


def _stats() -> list[ShardStats]:
    members = {ext: 3 for ext in card.ANNOTATION_MODELS} | {"txt": 3, "jpg": 2, "png": 1}
    return [
        ShardStats(shard=f"{n:05d}", samples=4, ok=3, failed=1, members=members) for n in range(3)
    ]


def test_the_made_features_are_the_models_features():
    """Regenerate with `make schemas` (`python -m sgprep.io.card`) when a model or SCHEMA_VERSION changes."""
    made = json.loads(card.FEATURES_FILE.read_bytes())
    assert made["schema_version"] == SCHEMA_VERSION
    assert made["features"] == card.model_features()
    # the order of keys is the card's order too
    assert json.dumps(made["features"]) == json.dumps(card.model_features())
    assert card.annotation_features() == card.model_features()


@pytest.mark.parametrize(
    "content",
    [
        json.dumps({"schema_version": SCHEMA_VERSION - 1, "features": {"json": {"dtype": "x"}}}),
        json.dumps({"schema_version": SCHEMA_VERSION, "features": {"json": {"dtype": "x"}}}),
        "not json",
        None,
    ],
    ids=["older-version", "other-members", "unreadable", "missing"],
)
def test_features_not_made_for_this_version_come_from_the_models(tmp_path, monkeypatch, content):
    path = tmp_path / "card_features.json"
    if content is not None:
        path.write_text(content)
    monkeypatch.setattr(card, "FEATURES_FILE", path)
    assert card.annotation_features() == card.model_features()
    assert "dtype: x\n" not in card.card(_stats(), "0.0")


def test_the_card_is_the_one_made_from_the_models_with_safe_dump(monkeypatch):
    fast = card.card(_stats(), "1.2.3")
    monkeypatch.setattr(card, "DUMPER", yaml.SafeDumper)
    monkeypatch.setattr(card, "annotation_features", card.model_features)
    assert fast == card.card(_stats(), "1.2.3")
    header = yaml.safe_load(fast.split("---\n")[1])
    names = [f["name"] for f in header["dataset_info"][0]["features"]]
    assert names == sorted(_stats()[0].members) + ["__key__", "__url__"]
