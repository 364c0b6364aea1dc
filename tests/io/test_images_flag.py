"""``--image-root DIR``: where the images are when the input does not say it (issue 34 item 2): COCO
captions outside COCO's own layout, a table whose image column holds bare file names."""

from __future__ import annotations

import json

from tests.conftest import index_rows, run_cli


def _coco_beside_its_pictures(tmp_path, photos):
    """A COCO captions file next to a folder of its images that COCO's layout does not name."""
    (tmp_path / "pictures").mkdir()
    (tmp_path / "pictures" / "42.jpg").write_bytes(photos["chelsea"])
    (tmp_path / "pictures" / "7.jpg").write_bytes(photos["rocket"])
    ann = {
        "images": [{"id": 42, "file_name": "42.jpg"}, {"id": 7, "file_name": "7.jpg"}],
        "annotations": [
            {"id": 1, "image_id": 42, "caption": "a cat lying on a red blanket"},
            {"id": 2, "image_id": 7, "caption": "a white rocket next to a tower"},
        ],
    }
    data = tmp_path / "data"
    data.mkdir()
    (data / "captions_mine.json").write_text(json.dumps(ann))
    return data / "captions_mine.json", tmp_path / "pictures"


def _statuses(out):
    return sorted((r["status"], r.get("reason")) for r in index_rows(out))


def test_coco_images_elsewhere_are_found_with_images_and_a_run_without_them_fails(tmp_path, photos):
    captions, pictures = _coco_beside_its_pictures(tmp_path, photos)
    lost = run_cli(
        "parse", "-i", captions, "-o", tmp_path / "lost", "--input-format", "coco",
        "--no-progress", "--workers", "1", ok=False,
    )  # fmt: skip
    assert lost.exit_code == 1, lost.output  # every sample failed: no quiet exit 0
    assert _statuses(tmp_path / "lost") == [("failed", "image_missing")] * 2
    out = tmp_path / "found"
    run_cli(
        "parse", "-i", captions, "-o", out, "--input-format", "coco", "--image-root", pictures,
        "--no-progress", "--workers", "1",
    )  # fmt: skip
    assert _statuses(out) == [("ok", None)] * 2
    run = json.loads((out / "_meta" / "run.json").read_text())
    assert run["settings"]["image_root"] == str(pictures.resolve())


def test_a_tables_file_names_are_read_under_images(tmp_path, photos):
    (tmp_path / "pics").mkdir()
    (tmp_path / "pics" / "cat.jpg").write_bytes(photos["chelsea"])
    table = tmp_path / "captions.csv"
    table.write_text("caption,image\na cat lying on a red blanket,cat.jpg\n")
    out = tmp_path / "out"
    run_cli("parse", "-i", table, "-o", out, "--image-root", tmp_path / "pics", "--no-progress")
    assert _statuses(out) == [("ok", None)]
    # an input that says where its images are takes no --image-root
    refused = run_cli(
        "parse", "-i", tmp_path / "pics", "-o", tmp_path / "o2", "--image-root", tmp_path / "pics",
        "--no-progress", ok=False,
    )  # fmt: skip
    assert refused.exit_code != 0 and "--image-root applies to" in refused.output, refused.output


def test_an_unset_images_leaves_the_fingerprint_of_older_outputs():
    from sgprep.config import RunConfig

    config = RunConfig(input="x.csv", output="out", stages=[{"name": "parse"}])
    assert "image_root" not in config.fingerprinted()
    assert config.model_copy(update={"image_root": "pics"}).fingerprint() != config.fingerprint()
