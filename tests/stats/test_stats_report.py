"""``run_stats``: the per-sample table, the summary, the terminal table, and an HTML report that
a real browser (headless Chromium) renders with its plots."""

from __future__ import annotations

import json
import re
import shutil
import subprocess

import pyarrow.parquet as pq
import pytest
from stats_helpers import detections, entity, graph, sample, write_dataset
from PIL import Image
from rich.console import Console

from sgprep.schema import Sample
from sgprep.stats.report import render, run_stats

PERSON = ("person", (0, 0, 400, 400), 0.9)
DOG = ("dog", (400, 300, 500, 400), 0.8)


@pytest.fixture(scope="module")
def dataset(tmp_path_factory, png):
    shards = [
        [sample("a", graph(entity("man", "tall"), entity("dog", "black")), detections(PERSON, DOG), png),
         sample("b", graph(entity("woman")), detections(PERSON, DOG), png),
         Sample(key="c", source="hand").fail("read", "image_corrupt", "bad bytes")],
        [sample("d", graph(entity("dog", "small", "brown", "fluffy")), detections(DOG), png),
         sample("e", graph(entity("cat"), entity("sofa")), None, png),
         Sample(key="f", source="hand", caption="x").fail("parse", "no_entities", "nothing")],
    ]
    root = write_dataset(tmp_path_factory.mktemp("report") / "out", shards)
    # the per-stage counters the executor adds to each shard's stats file
    for n, counters in enumerate([{"detect": {"images": 2, "boxes": 4}, "parse": {"graphs": 2}},
                                  {"detect": {"images": 1, "boxes": 1}}]):
        path = root / f"{n:05d}_stats.json"
        path.write_text(json.dumps({**json.loads(path.read_text()), "stages": counters}))
    return root


@pytest.fixture(scope="module")
def summary(dataset):
    return run_stats(dataset)


def test_stats_parquet_has_one_row_per_sample(dataset, summary):
    table = pq.read_table(dataset / "_meta" / "stats.parquet")
    assert sorted(table["key"].to_pylist()) == list("abcdef")
    assert set(table["shard"].to_pylist()) == {"00000", "00001"}
    assert {"coverage", "salient_only", "multi_object_image"} <= set(table.column_names)


def test_summary_figures(summary):
    assert (summary.shards, summary.samples, summary.ok, summary.failed) == (2, 6, 4, 2)
    assert summary.failures == {"parse/no_entities": 1, "read/image_corrupt": 1}
    assert summary.graphs == 4 and summary.detections == 3
    assert summary.multi_object_captions == 0.5           # a and e of a, b, d, e
    assert summary.multi_object_images == pytest.approx(2 / 3)  # a, b of a, b, d
    assert summary.attributes_per_entity == pytest.approx(5 / 6)  # 2 + 0 + 3 + 0 over 6 entities
    assert summary.salient_only == 0.5                   # b yes, a no; d has one label
    assert summary.coverage == pytest.approx((1 + 0.5 + 1) / 3)
    assert summary.stages == {"detect": {"boxes": 5, "images": 3}, "parse": {"graphs": 2}}


def test_shard_stats_without_stages_are_fine(tmp_path, png):
    root = write_dataset(tmp_path / "out", [[sample("a", graph(entity("dog")), None, png)]])
    result = run_stats(root, html=False)
    assert result.stages == {} and result.report_path is None
    assert result.multi_object_images is None and result.coverage is None  # no detections at all


def test_terminal_table(summary):
    console = Console(record=True, width=140)
    console.print(render(summary))
    text = console.export_text()
    assert "read/image_corrupt" in text and "detect: boxes" in text
    assert re.search(r"multi-object captions.*50\.0%", text)
    assert re.search(r"salient-only captions.*50\.0%", text)


def test_report_is_self_contained_with_its_plots(summary):
    page = open(summary.report_path, encoding="utf-8").read()
    assert page.count('<img alt="') >= 8
    assert page.count('src="data:image/png;base64,') == page.count("<img")
    assert "http://" not in page and "https://" not in page  # nothing fetched from elsewhere
    for text in ("Position against the favourable ranges", "parse/no_entities", "detect: boxes"):
        assert text in page


def test_report_renders_in_headless_chromium(summary, tmp_path):
    browser = shutil.which("chromium") or shutil.which("chromium-browser")
    if browser is None:
        pytest.skip("headless Chromium is not installed (Debian: apt-get install -y chromium); "
                    "CI installs it")
    shot = tmp_path / "report.png"
    subprocess.run([browser, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                    "--window-size=1200,2400", f"--screenshot={shot}",
                    f"file://{summary.report_path}"],
                   check=True, capture_output=True, timeout=120, cwd=tmp_path)
    image = Image.open(shot).convert("RGB")
    assert image.size == (1200, 2400)
    colours = image.getcolors(maxcolors=1 << 20)
    assert len(colours) > 200  # text alone is a few grey levels; plots bring many colours
    blue = sum(n for n, (r, g, b) in colours if b > 140 and r < 90 and g < 130)
    assert blue > 5000  # the plots' bars (#3b6ea8) are drawn, not broken-image icons
    white = max(n for n, c in colours if c == (255, 255, 255))
    assert white < 0.95 * image.size[0] * image.size[1]


def test_an_empty_directory_gives_an_empty_report(tmp_path):
    result = run_stats(tmp_path)
    assert (result.samples, result.ok, result.coverage, result.multi_object_captions) == (0, 0, None, None)
    assert pq.read_table(tmp_path / "_meta" / "stats.parquet").num_rows == 0
    assert "n/a (no input)" in open(result.report_path, encoding="utf-8").read()
