"""`sgprep detect` and `sgprep run` with parse then detect (then negatives) through the CLI:
one pass per shard, `sg` and `det` for the same samples; and what happens without weights."""

from __future__ import annotations

import json

import pytest

from tests.conftest import index_rows, run_cli


def _folder(tmp_path, asset_bytes):
    images = tmp_path / "images"
    images.mkdir()
    captions = {
        "bus": "a man standing in front of a blue bus",
        "zidane": "two men in suits next to each other",
    }
    for name, data in asset_bytes.items():
        (images / f"{name}.jpg").write_bytes(data)
        (images / f"{name}.txt").write_text(captions[name])
    return images


def test_detect_command_writes_boxes(tmp_path, asset_bytes, fall_weights):
    images = _folder(tmp_path, asset_bytes)
    out = tmp_path / "boxes"
    run_cli(
        "detect",
        "--images",
        images,
        "--output",
        out,
        "--weights",
        fall_weights,
        "--backend",
        "onnx",
        "--no-progress",
    )
    rows = {r["key"]: r for r in index_rows(out)}
    assert set(rows) == {"bus", "zidane"} and all(r["status"] == "ok" for r in rows.values())
    for key, row in rows.items():
        det = json.loads(row["det"])
        assert det["objects"], f"no person found in {key}"
        assert (det["width"], det["height"]) == (row["image_width"], row["image_height"])
    assert run_cli("validate", out).exit_code == 0


@pytest.mark.slow  # end to end: `make test` runs it, `make test-fast` does not
def test_run_chains_parse_detect_negatives_in_one_pass(tmp_path, asset_bytes, fall_weights):
    images = _folder(tmp_path, asset_bytes)
    pipe = tmp_path / "p.yaml"
    pipe.write_text(
        f"input: {images}\noutput: {tmp_path / 'out'}\nstages:\n"
        f"  parse: {{parser: spacy}}\n"
        f"  detect: {{weights: {fall_weights}, backend: onnx}}\n"
        f"  negatives: {{strategies: [swap, shuffle, replace]}}\n"
    )
    done = run_cli("run", pipe, "--no-progress", "--workers", "1")
    rows = index_rows(tmp_path / "out")
    assert [r["status"] for r in rows] == ["ok", "ok"]
    assert all(r["sg"] and r["det"] and r["neg"] for r in rows)
    for row in rows:  # detect after parse links each entity to a box (or null)
        links = json.loads(row["det"])["entity_boxes"]
        assert len(links) == len(json.loads(row["sg"])["entities"])
    stats = json.loads((tmp_path / "out" / "00000_stats.json").read_text())["stages"]
    assert stats["detect"]["images"] == 2 and stats["parse"]["graphs/spacy"] == 2
    # the fall detector's labels ("Normal", "Fall") name no caption object: the summary says so
    entities = sum(len(json.loads(r["sg"])["entities"]) for r in rows)
    assert stats["detect"]["entities"] == entities and "entities_linked" not in stats["detect"]
    assert f"detect linked none of {entities} caption entities" in " ".join(done.output.split())


def test_missing_weights_stop_the_run_unless_detect_is_optional(
    tmp_path, asset_bytes, monkeypatch, caplog
):
    monkeypatch.setenv("SGPREP_OFFLINE", "1")
    images = _folder(tmp_path, asset_bytes)
    pipe = tmp_path / "p.yaml"
    pipe.write_text(
        f"input: {images}\noutput: {tmp_path / 'out'}\nstages:\n"
        f"  parse: {{parser: spacy}}\n  detect: {{weights: yolov9c.pt}}\n"
    )
    refused = run_cli("run", pipe, "--no-progress", ok=False)
    assert refused.exit_code == 2 and "--weights" in refused.output
    assert not (tmp_path / "out").exists()  # stopped before any work
    pipe.write_text(
        f"input: {images}\noutput: {tmp_path / 'out'}\nstages:\n"
        f"  parse: {{parser: spacy}}\n  detect: {{weights: yolov9c.pt, "
        f"optional: true}}\n"
    )
    run_cli("run", pipe, "--no-progress")
    warnings = [r.getMessage() for r in caplog.records if r.levelname == "WARNING"]
    assert len([w for w in warnings if "stage 'detect' cannot run here" in w]) == 1  # said once
    assert any("--weights PATH" in w for w in warnings)
    rows = index_rows(tmp_path / "out")
    assert all(r["sg"] and r["det"] is None for r in rows)
    stages = json.loads((tmp_path / "out" / "_meta" / "run.json").read_text())["config"]["stages"]
    assert [s["name"] for s in stages] == ["parse"]  # the run records what really ran
    alone = run_cli(
        "detect", "--images", images, "--output", tmp_path / "o3", "--no-progress", ok=False
    )
    assert alone.exit_code == 2 and "--weights PATH" in " ".join(alone.output.split())


def test_an_exif_rotated_photo_is_stored_upright_as_det_json_sees_it(
    tmp_path, asset_bytes, fall_weights
):
    """bus.jpg stored turned a quarter with the EXIF tag a phone writes: with the default
    image_format (keep) it is stored upright, so plain webdataset (what open_clip decodes with)
    shows it the size det.json's boxes are for; the index records the orientation applied."""
    import io

    import numpy as np
    import webdataset as wds
    from PIL import Image

    images = _folder(tmp_path, asset_bytes)
    upright = Image.open(io.BytesIO(asset_bytes["bus"])).convert("RGB")
    exif = Image.Exif()
    exif[0x0112] = 6  # rotate 90 degrees clockwise to view
    buf = io.BytesIO()
    upright.transpose(Image.Transpose.ROTATE_90).save(buf, format="JPEG", quality=95, exif=exif)
    (images / "bus.jpg").write_bytes(buf.getvalue())
    outs = [tmp_path / "a", tmp_path / "b"]
    for out in outs:
        run_cli("detect", "--images", images, "--output", out, "--weights", fall_weights,
                "--backend", "onnx", "--no-progress")  # fmt: skip
    rows = {r["key"]: r for r in index_rows(outs[0])}
    assert json.loads(rows["bus"]["meta"])["orientation_applied"] == 6
    assert "orientation_applied" not in json.loads(rows["zidane"]["meta"])
    assert (rows["bus"]["image_width"], rows["bus"]["image_height"]) == (810, 1080)
    decoded = {s["__key__"]: s for s in wds.WebDataset(str(outs[0] / "00000.tar")).decode("pil")}
    det = decoded["bus"]["det.json"]
    stored = decoded["bus"]["jpg"]
    assert stored.size == (det["width"], det["height"]) == upright.size
    diff = np.abs(np.asarray(stored, dtype=float) - np.asarray(upright, dtype=float)).mean()
    assert diff < 8, "upright, not turned or mirrored"
    assert decoded["bus"]["json"]["image"]["orientation"] is None
    raw = {s["__key__"]: s for s in wds.WebDataset(str(outs[0] / "00000.tar"))}
    assert raw["zidane"]["jpg"] == asset_bytes["zidane"], "an upright photo's bytes are kept"
    assert (outs[0] / "00000.tar").read_bytes() == (outs[1] / "00000.tar").read_bytes()
