"""sgprep.data: the reader API a trainer uses, on an output with everything that breaks the
default collate: ragged and missing boxes, samples without negatives, EXIF-rotated photos and
four image formats."""

from __future__ import annotations

import io
import json

import pytest

from tests.train_helpers import HEIGHT, RED_BOX, SAMPLES, WIDTH, write_output

torch = pytest.importorskip("torch")
pytest.importorskip("webdataset")

import sgprep.data as sd  # noqa: E402


@pytest.fixture(scope="module")
def output(tmp_path_factory):
    return write_output(tmp_path_factory.mktemp("train") / "out")


def test_urls_and_sizes_come_from_sizes_json_or_the_stats(output, tmp_path):
    assert json.loads((output / "sizes.json").read_text()) == {
        "00000.tar": 2,
        "00001.tar": 2,
        "00002.tar": 2,
    }
    assert sd.sizes(output) == {"00000.tar": 2, "00001.tar": 2, "00002.tar": 2}
    assert sd.urls(output) == [str(output / f"0000{i}.tar") for i in range(3)]
    assert sd.num_samples(output) == len(SAMPLES)
    # an output without sizes.json (older, or still being written) counts from its stats files
    bare = tmp_path / "bare"
    bare.mkdir()
    for path in output.glob("0000[01]*"):
        (bare / path.name).write_bytes(path.read_bytes())
    assert sd.sizes(bare) == {"00000.tar": 2, "00001.tar": 2}
    with pytest.raises(FileNotFoundError, match="no finished sgprep shard"):
        sd.sizes(tmp_path)


def test_samples_are_upright_and_their_boxes_sit_on_the_pixels(output):
    samples = {s["key"]: s for s in sd.webdataset(output)}
    assert set(samples) == set(SAMPLES)
    sideways = samples["s0"]
    assert sideways["info"]["image"]["orientation"] == 6  # recorded by the writer
    assert (sideways["info"]["image"]["width"], sideways["info"]["image"]["height"]) == (
        HEIGHT,
        WIDTH,
    )
    for key, s in samples.items():
        image = s["image"]
        assert image.size == (WIDTH, HEIGHT) and image.mode == "RGB", key
        assert s["image_format"] == SAMPLES[key][0]
        if s["boxes"]:
            x1, y1, x2, y2 = s["boxes"][0]
            assert all(0.0 <= v <= 1.0 for v in s["boxes"][0])
            centre = (int((x1 + x2) / 2 * WIDTH), int((y1 + y2) / 2 * HEIGHT))
            red, green, blue = image.getpixel(centre)
            assert red > 180 and green < 80 and blue < 80, f"{key}: box off its object"
    assert samples["s2"]["boxes"] == [] and samples["s2"]["has_det"] is False
    assert samples["s3"]["has_det"] is True and samples["s3"]["boxes"] == []
    pixels = next(iter(sd.webdataset(output, boxes="pixels", shuffle=0)))
    assert pixels["boxes"][0] == list(RED_BOX)


def test_negatives_are_chosen_by_positive_index(output):
    caption_only = {s["key"]: s["negatives"] for s in sd.webdataset(output, decode=False)}
    assert {k: len(v) for k, v in caption_only.items()} == {
        k: n_caption for k, (_, _, _, n_caption, _) in SAMPLES.items()
    }
    every = {s["key"]: s["negatives"] for s in sd.webdataset(output, negatives="all", decode=False)}
    assert {k: len(v) for k, v in every.items()} == {
        k: c + n for k, (_, _, _, c, n) in SAMPLES.items()
    }
    assert all(s["negatives"] == [] for s in sd.webdataset(output, negatives="none", decode=False))
    with pytest.raises(ValueError, match="negatives="):
        sd.webdataset(output, negatives="some")


def test_collate_pads_boxes_and_picks_one_negative_per_sample_by_seed(output):
    samples = sorted(sd.webdataset(output, decode=False), key=lambda s: s["key"])
    batch = sd.Collate(seed=3)(samples)
    assert batch["boxes"].shape == (6, 3, 4) and batch["box_mask"].shape == (6, 3)
    assert batch["box_mask"].sum(1).tolist() == [1, 3, 0, 0, 2, 0]
    assert batch["boxes"][~batch["box_mask"]].abs().sum() == 0  # padding is zeros
    assert batch["has_negative"].tolist() == [True, False, True, False, True, True]
    for s, negative, has in zip(samples, batch["negative"], batch["has_negative"].tolist()):
        assert (negative in s["negatives"]) if has else negative == ""
    again = sd.Collate(seed=3)(list(reversed(samples)))
    assert list(reversed(again["negative"])) == batch["negative"], "the choice follows the key"
    draws = {tuple(sd.Collate(seed=seed)(samples)["negative"]) for seed in range(8)}
    assert len(draws) > 1, "another seed draws other negatives"


def test_a_dataloader_with_two_workers_runs_an_epoch(output):
    """Ragged boxes, missing negatives and det.json, four image formats, one EXIF rotation:
    the default collate crashes on these; sgprep's collate batches them."""
    from torch.utils.data import DataLoader

    def to_tensor(image):
        return torch.tensor(list(image.getdata()), dtype=torch.uint8).view(HEIGHT, WIDTH, 3)

    loader = DataLoader(
        sd.webdataset(output, transform=to_tensor, shuffle=4, seed=1),
        batch_size=4,
        num_workers=2,
        collate_fn=sd.Collate(seed=0),
    )
    keys = []
    for batch in loader:
        assert batch["image"].shape[1:] == (HEIGHT, WIDTH, 3)
        assert batch["boxes"].shape[:2] == batch["box_mask"].shape
        keys += batch["key"]
    assert sorted(keys) == sorted(SAMPLES), "every sample once"


def test_image_format_jpg_turns_odd_and_sideways_images_into_upright_jpegs():
    from PIL import Image

    from sgprep.io.images import inspect_image
    from sgprep.io.intake import Intake
    from sgprep.schema import Sample
    from tests.train_helpers import image_bytes

    def checked(ext, sideways=False, image_format="jpg"):
        data = image_bytes(ext, sideways)
        sample = Sample(key="k", source="t", caption="c", image=data, image_ext=ext)
        return Intake(image_format=image_format).check(sample), data

    assert inspect_image(image_bytes("jpg", sideways=True)).orientation == 6
    assert inspect_image(image_bytes("jpg")).orientation is None
    for ext, sideways in (("gif", False), ("bmp", False), ("jpg", True)):
        sample, _ = checked(ext, sideways)
        assert sample.ok and sample.image_ext == "jpg" and sample.meta["reencoded_from"] == ext
        assert sample.image_info.format == "JPEG" and sample.image_info.orientation is None
        assert (sample.image_info.width, sample.image_info.height) == (WIDTH, HEIGHT)
        upright = Image.open(io.BytesIO(sample.image)).convert("RGB")
        assert upright.getpixel((8, 12))[0] > 180, "the red box is where det.json says"
    for ext in ("png", "jpg"):
        sample, data = checked(ext)
        assert (
            sample.image == data and sample.image_ext == ext and "reencoded_from" not in sample.meta
        )
    sample, data = checked("gif", image_format="keep")
    assert sample.image == data and sample.image_ext == "gif"


def test_dataset_files_are_recorded_and_a_readme_sgprep_did_not_write_is_kept(tmp_path, caplog):
    from sgprep.io.card import recorded
    from sgprep.io.writers import ShardWriter
    from tests.train_helpers import make_sample

    out = tmp_path / "out"
    out.mkdir()
    (out / "README.md").write_text("my notes\n")

    def write(overwrite):
        writer = ShardWriter(out)
        writer.prepare({"command": "test"}, "fingerprint", overwrite=overwrite)
        sink = writer.open_shard(0)
        sink.add([make_sample("s1")])
        sink.close(stages={})
        writer.finish()
        writer.release()

    write(False)
    assert (out / "README.md").read_text() == "my notes\n"
    assert "sgprep did not write it" in caplog.text
    assert sorted(recorded(out)) == ["sizes.json"]
    (out / "README.md").unlink()
    write(True)  # --overwrite: the recorded sizes.json goes, then both are written and recorded
    assert sorted(recorded(out)) == ["README.md", "sizes.json"]
    assert (out / "README.md").read_text().startswith("---\nconfigs:")
    (out / "sizes.json").write_text("{}\n")  # changed by hand: no longer sgprep's file
    write(True)
    assert (out / "sizes.json").read_text() == "{}\n" and sorted(recorded(out)) == ["README.md"]


def test_flat_negatives_table_per_shard(tmp_path):
    """negatives: {table: true} writes negatives/NNNNN.parquet, one row per negative, which
    sgprep validate checks and --overwrite removes."""
    import pyarrow.parquet as pq

    from tests.conftest import index_rows, run_cli

    captions = tmp_path / "c.txt"
    captions.write_text(
        "a red apple to the left of a blue car\nthis is green and white\n"
        "a man riding a horse in front of a barn\n"
    )
    pipeline = tmp_path / "p.yaml"
    pipeline.write_text(
        f"input: {captions}\noutput: {tmp_path / 'out'}\nshard_size: 2\nstages:\n"
        "  parse: {parser: spacy}\n"
        "  negatives: {strategies: [swap, shuffle, replace, subgraph], table: true,\n"
        "              plausibility: false}\n"
    )
    run_cli("run", pipeline, "--no-progress", "--workers", "1")
    out = tmp_path / "out"
    tables = sorted((out / "negatives").glob("*.parquet"))
    assert [p.name for p in tables] == ["00000.parquet", "00001.parquet"]
    rows = [r for p in tables for r in pq.read_table(p).to_pylist()]
    expected = [
        (r["key"], n["text"], n["positive_index"], n["level"])
        for r in index_rows(out)
        if r["neg"]
        for n in json.loads(r["neg"])["negatives"]
    ]
    assert [(r["key"], r["negative"], r["positive_index"], r["level"]) for r in rows] == expected
    assert len(rows) > 3 and {r["level"] for r in rows} == {"caption", "subgraph"}
    assert run_cli("validate", out).exit_code == 0
    stats_file = out / "00001_stats.json"
    stats = json.loads(stats_file.read_text())
    assert stats["members"] == {"json": 1, "neg.json": 1, "sg.json": 1, "txt": 1}
    stats_file.write_text(json.dumps({**stats, "members": {**stats["members"], "txt": 2}}))
    result = run_cli("validate", out, ok=False)
    assert result.exit_code == 1 and "members" in result.output
    stats_file.write_text(json.dumps(stats))
    tables[0].write_bytes(tables[0].read_bytes()[:-10])
    assert run_cli("validate", out, ok=False).exit_code == 1
    run_cli("run", pipeline, "--no-progress", "--workers", "1", "--overwrite")
    assert run_cli("validate", out).exit_code == 0


def test_a_run_with_images_trainers_skip_says_so(tmp_path, caplog):
    write_output(tmp_path / "out")
    assert "bmp: 1, gif: 1" in caplog.text and "--image-format jpg" in caplog.text


def test_no_dataset_file_is_written_through_a_planted_link(tmp_path):
    from sgprep.io.safefs import LinkRefused
    from sgprep.io.writers import ShardWriter
    from tests.train_helpers import make_sample

    victim = tmp_path / "victim.txt"
    victim.write_text("keep\n")
    out = tmp_path / "out"
    out.mkdir()
    (out / "README.md").symlink_to(victim)
    (out / "sizes.json").symlink_to(victim)
    writer = ShardWriter(out, negatives_table=True)
    writer.prepare({"command": "test"}, "fingerprint", overwrite=False)
    (out / "negatives").symlink_to(tmp_path)
    sink = writer.open_shard(0)
    sink.add([make_sample("s0")])
    with pytest.raises(LinkRefused):
        sink.close(stages={})
    (out / "negatives").unlink()
    sink = writer.open_shard(0)
    sink.add([make_sample("s0")])
    sink.close(stages={})
    writer.finish()
    writer.release()
    assert victim.read_text() == "keep\n"
    assert (out / "README.md").is_symlink() and (out / "sizes.json").is_symlink()
    assert not (tmp_path / "00000.parquet").exists()


def test_a_loader_worker_without_a_shard_says_so(monkeypatch):
    """num_workers=8 over 2 shards leaves 6 workers idle (issue 34): each says so."""
    from types import SimpleNamespace

    import torch.utils.data

    from sgprep import data as sd

    monkeypatch.setattr(
        torch.utils.data, "get_worker_info", lambda: SimpleNamespace(id=5, num_workers=8)
    )
    with pytest.warns(UserWarning, match="worker 5 of 8 got no shard of out, which has 2"):
        assert list(sd._say_idle(iter([]), shards=2, out="out")) == []
    assert list(sd._say_idle(iter(["a.tar"]), shards=2, out="out")) == ["a.tar"]  # silent


def test_image_format_keep_stores_sideways_images_upright_in_their_own_format():
    """The default (keep) turns only images with an EXIF orientation upright: a JPEG stays a
    JPEG, a PNG stays a PNG (alpha kept), the same bytes every time; upright ones are kept."""
    from PIL import Image

    from sgprep.io.intake import Intake
    from sgprep.schema import Sample
    from tests.train_helpers import image_bytes, upright

    exif = Image.Exif()
    exif[0x0112] = 8  # "rotate 270 clockwise to view"
    buf = io.BytesIO()
    upright().convert("RGBA").transpose(Image.Transpose.ROTATE_270).save(
        buf, format="PNG", exif=exif
    )
    for data, ext in ((image_bytes("jpg", sideways=True), "jpg"), (buf.getvalue(), "png")):
        runs = [
            Intake().check(Sample(key="k", source="t", caption="c", image=data, image_ext=ext))
            for _ in range(2)
        ]
        sample = runs[0]
        assert sample.ok and sample.image_ext == ext and sample.image == runs[1].image
        assert sample.meta == {"orientation_applied": 6 if ext == "jpg" else 8}
        assert (sample.image_info.width, sample.image_info.height) == (WIDTH, HEIGHT)
        assert sample.image_info.orientation is None
        stored = Image.open(io.BytesIO(sample.image))
        assert stored.size == (WIDTH, HEIGHT) and (ext == "jpg" or stored.mode == "RGBA")
        assert stored.convert("RGB").getpixel((8, 12))[0] > 180, "the red box where det.json says"


def test_to_sample_names_the_positive_of_each_negative_also_in_older_outputs():
    positives = [{"text": "a red cube", "kind": "caption"}, {"text": "a cube", "kind": "subgraph"}]
    negatives = [
        {"text": "a blue cube", "kind": "replace_attribute", "positive": "a red cube"},
        {"text": "a ball", "kind": "replace_object", "positive": "a cube"},
        {"text": "a dog", "kind": "mined_image", "positive": "a red cube", "positive_index": None},
    ]
    raw = {
        "__key__": "k",
        "txt": b"a red cube",
        "neg.json": json.dumps({"positives": positives, "negatives": negatives}).encode(),
    }
    sample = sd.to_sample(raw, negatives="all")
    assert sample["positives"] == ["a red cube", "a cube"]
    assert sample["positive_index"] == [0, 1, -1]
    assert sd.to_sample({"__key__": "k", "txt": b"c"})["positives"] == ["c"]


@pytest.mark.parametrize("orientation", range(2, 9))
def test_every_exif_orientation_is_stored_upright(orientation):
    """Orientations 2-8 (mirrored ones too): the stored PNG is exactly the upright image."""
    from PIL import Image

    from sgprep.io.intake import Intake
    from sgprep.schema import Sample
    from tests.train_helpers import upright

    T = Image.Transpose
    inverse = {2: T.FLIP_LEFT_RIGHT, 3: T.ROTATE_180, 4: T.FLIP_TOP_BOTTOM, 5: T.TRANSPOSE,
               6: T.ROTATE_90, 7: T.TRANSVERSE, 8: T.ROTATE_270}  # fmt: skip
    exif = Image.Exif()
    exif[0x0112] = orientation
    buf = io.BytesIO()
    upright().transpose(inverse[orientation]).save(buf, format="PNG", exif=exif)
    sample = Intake().check(
        Sample(key="k", source="t", caption="c", image=buf.getvalue(), image_ext="png")
    )
    assert sample.ok and sample.meta == {"orientation_applied": orientation}
    stored = Image.open(io.BytesIO(sample.image))
    assert stored.getexif().get(0x0112) is None
    assert stored.convert("RGB").tobytes() == upright().tobytes()
