"""Paths an input names stay inside the input (issue 36): a link out of an image folder, a COCO
``file_name`` with ``..`` or an absolute one, a table's absolute or ``..`` image path each fail as
``read/outside_input``, and are read with ``--allow-outside-paths``."""

from __future__ import annotations

import json

from tests.conftest import index_rows, run_cli


def _reasons(out):
    return [r.get("reason") for r in sorted(index_rows(out), key=lambda r: r["key"])]


def _parse(src, out, *extra):
    return run_cli(
        "parse", "-i", src, "-o", out, "--no-progress", "--workers", "1", *extra, ok=False
    )  # fmt: skip


def _secret(tmp_path, photos):
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.jpg").write_bytes(photos["chelsea"])
    (outside / "secret.txt").write_text("a private caption\n")
    return outside


def test_an_image_folder_link_that_leaves_the_folder_is_refused(tmp_path, photos):
    outside = _secret(tmp_path, photos)
    folder = tmp_path / "photos"
    folder.mkdir()
    (folder / "a.jpg").write_bytes(photos["rocket"])
    (folder / "a.txt").write_text("a rocket on a pad\n")
    (folder / "b.jpg").symlink_to(outside / "secret.jpg")
    (folder / "b.txt").write_text("a cat on a bed\n")
    (folder / "c.jpg").write_bytes(photos["rocket"])
    (folder / "c.txt").symlink_to(outside / "secret.txt")  # the caption leaves it
    _parse(folder, tmp_path / "out")
    assert _reasons(tmp_path / "out") == [None, "outside_input", "outside_input"]
    rows = index_rows(tmp_path / "out")
    assert not any("private" in (r.get("caption") or "") for r in rows)
    _parse(folder, tmp_path / "allowed", "--allow-outside-paths")
    assert _reasons(tmp_path / "allowed") == [None, None, None]


def test_coco_file_names_with_dots_or_absolute_are_refused(tmp_path, photos):
    outside = _secret(tmp_path, photos)
    root = tmp_path / "coco"
    (root / "annotations").mkdir(parents=True)
    (root / "val2017").mkdir()
    (root / "val2017" / "1.jpg").write_bytes(photos["rocket"])
    ann = {
        "images": [
            {"id": 1, "file_name": "1.jpg"},
            {"id": 2, "file_name": "../../outside/secret.jpg"},
            {"id": 3, "file_name": str(outside / "secret.jpg")},
        ],
        "annotations": [
            {"id": 10 + i, "image_id": i, "caption": "a rocket next to a tower"} for i in (1, 2, 3)
        ],
    }
    (root / "annotations" / "captions_val2017.json").write_text(json.dumps(ann))
    _parse(root, tmp_path / "out")
    assert _reasons(tmp_path / "out") == [None, "outside_input", "outside_input"]
    _parse(root, tmp_path / "allowed", "--allow-outside-paths")
    assert _reasons(tmp_path / "allowed") == [None, None, None]


def test_a_tables_absolute_or_dotted_image_paths_are_refused(tmp_path, photos):
    outside = _secret(tmp_path, photos)
    data = tmp_path / "data"
    data.mkdir()
    (data / "ok.jpg").write_bytes(photos["rocket"])
    table = data / "t.csv"
    table.write_text(
        "key,caption,image\n"
        "a,a rocket on a pad,ok.jpg\n"
        "b,a cat on a bed,../outside/secret.jpg\n"
        f"c,a cat on a bed,{outside / 'secret.jpg'}\n"
    )
    _parse(table, tmp_path / "out")
    assert _reasons(tmp_path / "out") == [None, "outside_input", "outside_input"]
    message = {r["key"]: r["error"] for r in index_rows(tmp_path / "out")}["b"]
    assert "--allow-outside-paths" in message
    _parse(table, tmp_path / "allowed", "--allow-outside-paths")
    assert _reasons(tmp_path / "allowed") == [None, None, None]
