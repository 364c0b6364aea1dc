"""``run_stats``: the per-sample table, the summary, the terminal table, and an HTML report that
a real browser (headless Chromium) renders with its plots; the hard negatives per kind (figures,
a seeded sample beside the positives, refusals by reason)."""

from __future__ import annotations

import json
import re
import shutil
import subprocess

import pyarrow.parquet as pq
import pytest
from PIL import Image
from rich.console import Console
from stats_helpers import detections, entity, graph, sample, write_dataset

from sgprep.schema import Negative, Negatives, Positive, Sample
from sgprep.stats.negatives import negative_kinds
from sgprep.stats.properties import connect, index_files
from sgprep.stats.report import render, run_stats

PERSON = ("person", (0, 0, 400, 400), 0.9)
DOG = ("dog", (400, 300, 500, 400), 0.8)
MAN_DOG = "a tall man walking a black dog"
FLUFFY = "a small brown fluffy dog"


def negatives(
    caption: str,
    *negs: tuple[str, str, str] | tuple[str, str, str, str],
    subgraphs: tuple[str, ...] = (),
) -> Negatives:
    """neg.json of a caption: (kind, text, realisation[, positive]) per negative."""
    return Negatives(
        positives=[
            Positive(text=caption, kind="caption"),
            *(Positive(text=t, kind="subgraph", realisation="span_extract") for t in subgraphs),
        ],
        negatives=[
            Negative(
                text=text,
                kind=kind,
                strategy=kind.split("_")[0],
                realisation=how,
                positive=rest[0] if rest else caption,
            )
            for kind, text, how, *rest in negs
        ],
    )


def with_negatives(s: Sample, caption: str, neg: Negatives) -> Sample:
    s.caption, s.neg = caption, neg
    return s


@pytest.fixture(scope="module")
def dataset(tmp_path_factory, png):
    shards = [
        [
            with_negatives(
                sample(
                    "a",
                    graph(entity("man", "tall"), entity("dog", "black")),
                    detections(PERSON, DOG),
                    png,
                ),
                MAN_DOG,
                negatives(
                    MAN_DOG,
                    ("swap_attribute", "a black man walking a tall dog", "span_edit"),
                    (
                        "connect",
                        "a tall man walking a black dog next to a small red car",
                        "template",
                    ),
                    ("replace_attribute", "a short man", "span_edit", "a tall man"),
                    subgraphs=("a tall man",),
                ),
            ),
            sample("b", graph(entity("woman")), detections(PERSON, DOG), png),
            Sample(key="c", source="hand").fail("read", "image_corrupt", "bad bytes"),
        ],
        [
            with_negatives(
                sample("d", graph(entity("dog", "small", "brown", "fluffy")), detections(DOG), png),
                FLUFFY,
                negatives(
                    FLUFFY,
                    ("replace_object", "a small brown fluffy cat <3", "span_edit"),
                    ("connect", "a small brown fluffy dog on a bench", "span_edit"),
                ),
            ),
            sample("e", graph(entity("cat"), entity("sofa")), None, png),
            Sample(key="f", source="hand", caption="x").fail("parse", "no_entities", "nothing"),
        ],
    ]
    root = write_dataset(tmp_path_factory.mktemp("report") / "out", shards)
    # the per-stage counters the executor adds to each shard's stats file
    # and the negatives stage's refusals: a reason of today and one it may add, shown alike
    for n, counters in enumerate(
        [
            {
                "detect": {"images": 2, "boxes": 4},
                "parse": {"graphs": 2},
                "negatives": {
                    "rejected/symmetric_relation": 3,
                    "rejected/implausible_pair": 2,
                    "graphs": 1,
                },
            },
            {
                "detect": {"images": 1, "boxes": 1},
                "negatives": {"rejected/symmetric_relation": 1, "graphs": 1},
            },
        ]
    ):
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
    assert summary.multi_object_captions == 0.5  # a and e of a, b, d, e
    assert summary.multi_object_images == pytest.approx(2 / 3)  # a, b of a, b, d
    assert summary.attributes_per_entity == pytest.approx(5 / 6)  # 2 + 0 + 3 + 0 over 6 entities
    assert summary.salient_only == 0.5  # b yes, a no; d has one label
    assert summary.coverage == pytest.approx((1 + 0.5 + 1) / 3)
    assert summary.stages == {
        "detect": {"boxes": 5, "images": 3},
        "parse": {"graphs": 2},
        "negatives": {
            "graphs": 2,
            "rejected/implausible_pair": 2,
            "rejected/symmetric_relation": 4,
        },
    }


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
        pytest.skip(
            "headless Chromium is not installed (Debian: apt-get install -y chromium); "
            "CI installs it"
        )
    shot = tmp_path / "report.png"
    subprocess.run(
        [
            browser,
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--hide-scrollbars",
            "--window-size=1200,2400",
            f"--screenshot={shot}",
            f"file://{summary.report_path}",
        ],
        check=True,
        capture_output=True,
        timeout=120,
        cwd=tmp_path,
    )
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
    assert (result.samples, result.ok, result.coverage, result.multi_object_captions) == (
        0,
        0,
        None,
        None,
    )
    assert pq.read_table(tmp_path / "_meta" / "stats.parquet").num_rows == 0
    assert "n/a (no input)" in open(result.report_path, encoding="utf-8").read()


def test_negatives_per_kind(summary):
    kinds = {k.kind: k for k in summary.negative_kinds}
    assert list(kinds) == sorted(kinds)
    assert {k: v.negatives for k, v in kinds.items()} == {
        "connect": 2,
        "replace_attribute@subgraph": 1,
        "replace_object": 1,
        "swap_attribute": 1,
    }
    connect_ratios = [
        len("a tall man walking a black dog next to a small red car") / len(MAN_DOG),
        len("a small brown fluffy dog on a bench") / len(FLUFFY),
    ]
    assert kinds["connect"].length_ratio == pytest.approx(sum(connect_ratios) / 2)
    assert kinds["connect"].long_share == 1.0 and kinds["connect"].template_share == 0.5
    assert kinds["swap_attribute"].length_ratio == 1.0 and kinds["swap_attribute"].long_share == 0
    # a sub-graph positive's negative is measured against that positive
    sub = kinds["replace_attribute@subgraph"]
    assert sub.length_ratio == pytest.approx(len("a short man") / len("a tall man"))
    assert [(e.key, e.positive, e.negative) for e in sub.examples] == [
        ("a", "a tall man", "a short man")
    ]
    # refusals by reason, any reason the stage records, most frequent first
    assert summary.rejected == {"symmetric_relation": 4, "implausible_pair": 2}
    assert list(summary.rejected) == ["symmetric_relation", "implausible_pair"]


def test_the_sample_of_negatives_is_seeded(tmp_path, png):
    caption = "a red car on a street"
    samples = [
        with_negatives(
            sample(f"s{i:02d}", graph(entity("car", "red")), None, png),
            caption,
            negatives(caption, ("replace_attribute", f"a colour{i} car on a street", "span_edit")),
        )
        for i in range(40)
    ]
    root = write_dataset(tmp_path / "out", [samples[:25], samples[25:]])

    def shown(seed: int) -> list[str]:
        (kind,) = negative_kinds(index_files(root), connect(1), seed=seed, examples=5)
        assert kind.negatives == 40
        return [e.key for e in kind.examples]

    assert shown(0) == shown(0) and len(set(shown(0))) == 5
    assert shown(0) != shown(1)
    assert shown(0) != [f"s{i:02d}" for i in range(5)]  # not simply the first ones


def test_no_negatives_no_section(tmp_path, png):
    root = write_dataset(tmp_path / "out", [[sample("a", graph(entity("dog")), None, png)]])
    result = run_stats(root)
    assert result.negative_kinds == [] and result.rejected == {}
    assert "Hard negatives" not in open(result.report_path, encoding="utf-8").read()


def test_terminal_shows_negatives(summary):
    console = Console(record=True, width=140)
    console.print(render(summary))
    text = console.export_text()
    assert re.search(r"connect\s+│\s+2\s+│\s+1\.\d\d", text)
    assert "a tall man walking a black dog -> a black man walking a tall dog" in text
    assert re.search(r"implausible_pair\s+│\s+2", text)


def test_report_shows_negatives_beside_their_positives(summary):
    page = open(summary.report_path, encoding="utf-8").read()
    section = page[page.index("<h2>Hard negatives</h2>") :]
    for text in (
        "swap_attribute",
        "replace_attribute@subgraph",
        "implausible_pair",
        "symmetric_relation",
        "Candidate negatives the validity rules refused",
    ):
        assert text in section, text
    # the words that changed are marked, in the positive and in the negative
    assert "a <mark>tall</mark> man walking a <mark>black</mark> dog" in section
    assert "a <mark>black</mark> man walking a <mark>tall</mark> dog" in section
    assert "fluffy <mark>cat &lt;3</mark>" in section and "<3" not in section  # escaped


def test_negatives_section_renders_in_headless_chromium(summary, tmp_path):
    browser = shutil.which("chromium") or shutil.which("chromium-browser")
    if browser is None:
        pytest.skip(
            "headless Chromium is not installed (Debian: apt-get install -y chromium); "
            "CI installs it"
        )
    page = open(summary.report_path, encoding="utf-8").read()
    only = tmp_path / "negatives.html"  # the report's head and its negatives section alone
    only.write_text(
        page[: page.index("<h1>")] + page[page.index("<h2>Hard negatives</h2>") :], encoding="utf-8"
    )
    shot = tmp_path / "negatives.png"
    subprocess.run(
        [
            browser,
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--hide-scrollbars",
            "--window-size=1200,2000",
            f"--screenshot={shot}",
            f"file://{only}",
        ],
        check=True,
        capture_output=True,
        timeout=120,
        cwd=tmp_path,
    )
    colours = Image.open(shot).convert("RGB").getcolors(maxcolors=1 << 20)
    marked = sum(n for n, (r, g, b) in colours if (r, g, b) == (0xFD, 0xE8, 0xA6))
    assert marked > 500  # the changed words are highlighted
    red = sum(n for n, (r, g, b) in colours if r > 170 and 60 < g < 110 and b < 90)
    assert red > 300  # the long kind's length-ratio bar (connect, #c8553d)
    blue = sum(n for n, (r, g, b) in colours if b > 140 and r < 90 and g < 130)
    assert blue > 1000  # the other kinds' bars and the refusals' bars


def test_a_detector_that_linked_no_entity_is_warned_about(tmp_path, png, summary):
    assert summary.warnings == []  # shards from before the counter: nothing to say
    root = write_dataset(tmp_path / "out", [[sample("a", graph(entity("dog")), None, png)]])
    path = root / "00000_stats.json"
    counters = {"detect": {"entities": 7, "images": 1, "objects": 3}}  # entities_linked: 0
    path.write_text(json.dumps({**json.loads(path.read_text()), "stages": counters}))
    result = run_stats(root)
    (warning,) = result.warnings
    assert "linked none of 7 caption entities" in warning
    console = Console(record=True, width=200)
    console.print(render(result))
    assert "warning: detect linked none of 7" in console.export_text()
    assert "<b>warning:</b> detect linked none of 7" in open(result.report_path).read()
    counters["detect"]["entities_linked"] = 1
    path.write_text(json.dumps({**json.loads(path.read_text()), "stages": counters}))
    assert run_stats(root, html=False).warnings == []
