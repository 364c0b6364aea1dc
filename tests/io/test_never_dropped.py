"""Inputs that used to vanish or merge in silence (issue 20, items 16 and 20): odd entries in
an image folder each become a failure row; a CR-only text file is read as lines."""

from __future__ import annotations

import io
import os

from sgprep.io.readers import tables
from tests.conftest import index_rows, run_cli
from tests.io.read_helpers import read_samples


def test_odd_entries_named_like_images_are_failure_rows(tmp_path, photos):
    folder = tmp_path / "imgs"
    folder.mkdir()
    (folder / "a.jpg").write_bytes(photos["coffee"])
    (folder / "a.txt").write_text("a cup of coffee")
    (folder / "b.png").symlink_to(folder / "gone.png")  # a link to nowhere
    (folder / "b.txt").write_text("a caption beside it")
    os.mkfifo(folder / "c.png")
    (folder / "d.png").symlink_to(folder / "d.png")  # a link to itself
    (folder / "e.png").mkdir()  # a folder named like an image
    (folder / "e.txt").write_text("a caption beside it")
    rows = {r["key"]: r for r in (s.model_dump() for s in read_samples(str(folder)))}
    assert sorted(rows) == ["a", "b", "c", "d", "e"]
    assert rows["a"]["failure"] is None
    for key in "bcde":
        assert rows[key]["failure"]["reason"] == "image_unreadable", rows[key]
    out = tmp_path / "out"
    run_cli("parse", "-i", folder, "-o", out, "--no-progress", "--workers", "1")
    assert [(r["key"], r["reason"]) for r in index_rows(out)] == [("a", None)] + [
        (k, "image_unreadable") for k in "bcde"
    ]


def test_cr_only_text_is_read_as_lines(tmp_path):
    text = tmp_path / "mac.txt"
    text.write_bytes(b"a cat on a mat\ra dog on a log\rtwo birds\r\na red car\n")
    captions = [s.caption for s in read_samples(str(text))]
    assert captions == ["a cat on a mat", "a dog on a log", "two birds", "a red car"]
    # reading from any line's cursor gives the rest, as planning and resuming need
    cursors = [c for c, _ in tables.records(text, load=False)]
    assert [s.caption for _, s in tables.records(text, cursors[2])] == captions[2:]
    out = tmp_path / "out"
    run_cli("parse", "-i", text, "-o", out, "--no-progress", "--shard-size", "3")
    assert [r["caption"] for r in index_rows(out)] == captions


def test_a_cr_split_across_read_chunks_is_one_line_ending():
    data = b"ab\r\ncd\ref\n\rg\x0ch\x1c"  # form feeds and separators are not line ends
    for size in range(1, len(data) + 1):
        lines = list(tables._any_newline_lines(io.BytesIO(data), size))
        assert lines == [b"ab\r\n", b"cd\r", b"ef\n", b"\r", b"g\x0ch\x1c"], size
