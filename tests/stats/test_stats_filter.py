"""``filter_view``: the criteria keep exactly the right keys, and the view reads back through
``webdataset.WebDataset`` with only those keys, from the real shards."""

from __future__ import annotations

import json

import pyarrow.parquet as pq
import pytest
import webdataset as wds
from stats_helpers import detections, entity, graph, sample, write_dataset

from sgprep.schema import Sample
from sgprep.stats.filter import Criteria, filter_view, open_view, parse_range
from sgprep.stats.report import run_stats

PERSON = ("person", (0, 0, 400, 400), 0.9)
DOG = ("dog", (400, 300, 500, 400), 0.8)
CAR = ("car", (0, 0, 10, 10), 0.7)


@pytest.fixture(scope="module")
def dataset(tmp_path_factory, png):
    shards = [
        [  # caption entities / attributes per entity / coverage / image objects
            sample(
                "k0",
                graph(entity("man", "tall"), entity("dog", "black", "small")),
                detections(PERSON, DOG),
                png,
            ),  # 2 / 1.5 / 1.0 / 2
            sample(
                "k1", graph(entity("woman")), detections(PERSON, DOG, CAR), png
            ),  # 1 / 0 / 1/3 / 3
            Sample(key="k2", source="hand").fail("read", "image_corrupt", "bad"),
        ],
        [
            sample(
                "k3",
                graph(entity("dog", "a", "b", "c", "d"), entity("boy", "e")),
                detections(PERSON, DOG),
                png,
            ),  # 2 / 2.5 / 1.0 / 2
            sample("k4", graph(entity("cat", "grey"), entity("car", "red", "old")), None, png),
        ],  # 2 / 1.5 / null / null
        [
            sample(
                "k5", graph(entity("girl", "young")), detections(PERSON), png
            ),  # 1 / 1 / 1.0 / 1
        ],
    ]
    root = write_dataset(tmp_path_factory.mktemp("filter") / "out", shards)
    run_stats(root, html=False)
    return root


def kept(root, out, **criteria) -> list[str]:
    filter_view(root, out, **criteria)
    return sorted(pq.read_table(out / "index.parquet")["key"].to_pylist())


@pytest.mark.parametrize(
    "criteria, keys",
    [
        ({}, ["k0", "k1", "k3", "k4", "k5"]),  # every ok sample, no failed one
        ({"min_caption_objects": 2}, ["k0", "k3", "k4"]),
        ({"attributes_per_object": "1:2"}, ["k0", "k4", "k5"]),
        ({"attributes_per_object": "2:"}, ["k3"]),
        ({"min_coverage": 0.5}, ["k0", "k3", "k5"]),  # k4 has no detections: null
        ({"min_image_objects": 3}, ["k1"]),
        ({"min_caption_objects": 2, "min_coverage": 0.5, "attributes_per_object": ":2"}, ["k0"]),
    ],
)
def test_filters_keep_exactly_the_right_keys(dataset, tmp_path, criteria, keys):
    assert kept(dataset, tmp_path / "view", **criteria) == keys


def test_view_reads_back_through_webdataset_with_only_the_kept_keys(dataset, tmp_path):
    out = tmp_path / "view"
    result = filter_view(dataset, out, min_caption_objects=2)
    assert (result.kept, result.ok, result.shards) == (3, 5, 2)
    urls = (out / "shards.txt").read_text().split()
    assert urls == [str(dataset.resolve() / "00000.tar"), str(dataset.resolve() / "00001.tar")]
    # the recipe in docs: plain pyarrow + webdataset, no sgprep
    keep = set(pq.read_table(out / "index.parquet", columns=["key"])["key"].to_pylist())
    ds = wds.WebDataset(urls, shardshuffle=False).select(lambda s: s["__key__"] in keep)
    samples = list(ds)
    assert sorted(s["__key__"] for s in samples) == ["k0", "k3", "k4"]
    k0 = next(s for s in samples if s["__key__"] == "k0")
    assert json.loads(k0["sg.json"])["entities"][0]["head"] == "man" and "png" in k0
    # and the helper
    view = open_view(out)
    assert sorted(s["__key__"] for s in view.webdataset()) == ["k0", "k3", "k4"]
    assert view.weights is None
    assert not any(p.suffix == ".tar" for p in out.iterdir())  # no data copied


def test_weights_column_keeps_every_ok_sample_with_a_weight(dataset, tmp_path):
    out = tmp_path / "view"
    result = filter_view(dataset, out, min_coverage=0.5, weights_column="w", reject_weight=0.25)
    table = pq.read_table(out / "index.parquet")
    weights = dict(zip(table["key"].to_pylist(), table["w"].to_pylist()))
    assert weights == {"k0": 1.0, "k1": 0.25, "k3": 1.0, "k4": 0.25, "k5": 1.0}
    assert (result.kept, result.passed) == (5, 3)
    assert open_view(out).weights == weights


def test_stats_file_is_recomputed_when_missing(dataset, tmp_path):
    copy = tmp_path / "copy"
    copy.mkdir()
    for f in dataset.glob("0*"):
        (copy / f.name).write_bytes(f.read_bytes())
    assert kept(copy, tmp_path / "view", min_image_objects=2) == ["k0", "k1", "k3"]


def test_bad_criteria_are_refused(dataset, tmp_path):
    with pytest.raises(ValueError):
        parse_range("3:1")
    with pytest.raises(ValueError):
        Criteria(min_coverage=1.5)
    with pytest.raises(ValueError):
        Criteria(weights_column="key")
    with pytest.raises(ValueError):
        filter_view(dataset, dataset)
