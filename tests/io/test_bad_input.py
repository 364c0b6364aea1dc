"""Bad input never crashes a run and never vanishes: each case becomes a failure row with a
reason (or a usage error for bad flags), the run goes on, and the stats count it."""

from __future__ import annotations

import io
import os
import tarfile
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from sgprep.io.images import ImageError, inspect_image
from tests.conftest import index_rows, jpeg_bytes, run_cli, shard_stats


def _png(image: Image.Image, **kw) -> bytes:
    buf = io.BytesIO()
    image.save(buf, format="PNG", **kw)
    return buf.getvalue()


@pytest.fixture(scope="module")
def bad_images(photos) -> dict[str, bytes]:
    real = photos["coffee"]
    rgb = Image.open(io.BytesIO(real)).convert("RGB")
    palette = rgb.convert("P", palette=Image.Palette.ADAPTIVE, colors=16)
    palette.info["transparency"] = 0
    cmyk = io.BytesIO()
    rgb.convert("CMYK").save(cmyk, format="JPEG")
    return {
        "good": real,
        "corrupt": b"this is not an image at all" * 10,
        "truncated": real[: len(real) // 2],
        "zero": b"",
        "cmyk": cmyk.getvalue(),
        "sixteen": _png(
            Image.fromarray((np.arange(64 * 48, dtype=np.uint16) * 19).reshape(48, 64))
        ),
        "palette_alpha": _png(palette),
        "one_pixel": jpeg_bytes(Image.new("RGB", (1, 1), (200, 10, 10))),
        "bomb": _png(Image.new("1", (10_000, 10_000))),  # 100 Mpx, a few kB on disk
    }


EXPECTED_IMAGE_REASONS = {
    "good": None,
    "cmyk": None,
    "sixteen": None,
    "palette_alpha": None,
    "one_pixel": None,
    "corrupt": "image_corrupt",
    "truncated": "image_truncated",
    "zero": "image_empty",
    "bomb": "image_too_large",
}


def test_inspect_image_says_what_is_wrong(bad_images):
    for name, data in bad_images.items():
        expected = EXPECTED_IMAGE_REASONS[name]
        if expected is None:
            info = inspect_image(data)
            assert info.width >= 1 and info.height >= 1, name
        else:
            with pytest.raises(ImageError) as err:
                inspect_image(data)
            assert err.value.reason == expected, (name, err.value.message)
    assert inspect_image(bad_images["cmyk"]).mode == "CMYK"
    assert inspect_image(bad_images["sixteen"]).mode.startswith("I")
    assert inspect_image(bad_images["palette_alpha"]).mode == "P"


def test_bad_images_in_a_folder_become_failure_rows(tmp_path, bad_images):
    folder = tmp_path / "images"
    folder.mkdir()
    for name, data in bad_images.items():
        ext = "png" if data[:4] == b"\x89PNG" else "jpg"
        (folder / f"{name}.{ext}").write_bytes(data)
        (folder / f"{name}.txt").write_text(f"a photo named {name}")
    out = tmp_path / "out"
    run_cli("parse", "--input", folder, "--output", out, "--no-progress")
    rows = {r["key"]: r for r in index_rows(out)}
    assert set(rows) == set(bad_images), "every input image has a row"
    for name, expected in EXPECTED_IMAGE_REASONS.items():
        assert rows[name]["reason"] == expected, (name, rows[name]["error"])
        if expected:
            assert rows[name]["stage"] == "read" and rows[name]["error"]
    # valid but unusual images pass through byte for byte
    import webdataset as wds

    tar_samples = {
        s["__key__"]: s for s in wds.WebDataset(str(out / "00000.tar"), shardshuffle=False)
    }
    assert tar_samples["cmyk"]["jpg"] == bad_images["cmyk"]
    assert tar_samples["sixteen"]["png"] == bad_images["sixteen"]
    stats = shard_stats(out)[0]
    assert stats["failed"] == 4 and stats["ok"] == 5
    assert stats["failures"]["read/image_too_large"] == 1


def test_bad_captions_in_a_table(tmp_path):
    table = tmp_path / "cc.tsv"
    lines = [
        b"http://a/1.jpg\tA red apple to the left of a blue car",
        b"http://a/2.jpg\t",
        b"http://a/3.jpg\t   \t",
        b"http://a/4.jpg\t" + b"word " * 20_000,
        b"http://a/5.jpg\tcaf\xe9 au lait in latin-1",
        b"http://a/6.jpg\ta dog\tand a stray tab",
        b"http://a/7.jpg\tA man is on the left of the dog",
    ]
    table.write_bytes(b"\n".join(lines) + b"\n")
    out = tmp_path / "out"
    run_cli("parse", "--input", table, "--output", out, "--no-progress")
    rows = index_rows(out)
    assert len(rows) == len(lines)
    reasons = [r["reason"] for r in rows]
    assert reasons == [
        None,
        "caption_empty",
        "bad_row",
        "caption_too_long",
        "not_utf8",
        "bad_row",
        None,
    ]
    assert all(r["error"] for r in rows if r["reason"])
    assert rows[0]["sg"] and rows[-1]["sg"]
    stats = shard_stats(out)[0]
    assert (stats["samples"], stats["ok"], stats["failed"]) == (7, 2, 5)


def test_empty_and_whitespace_captions_in_a_txt(tmp_path):
    table = tmp_path / "captions.txt"
    table.write_bytes(b"a cat on a mat\n\n   \n\xff\xfe\n")
    out = tmp_path / "out.jsonl"
    run_cli("parse", "--input", table, "--output", out, "--no-progress")
    import json

    records = [json.loads(line) for line in out.read_text().splitlines()]
    assert [r["reason"] for r in records] == [None, "caption_empty", "caption_empty", "not_utf8"]
    assert records[0]["status"] == "ok" and records[0]["sg"]["entities"]


def _tar(path: Path, members: list[tuple[str, bytes]]) -> None:
    with tarfile.open(path, "w") as tar:
        for name, data in members:
            info = tarfile.TarInfo(name)
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))


def test_truncated_tar_duplicates_and_escaping_names(tmp_path, photos):
    shards = tmp_path / "shards"
    shards.mkdir()
    members = []
    for i, name in enumerate(["astronaut", "coffee", "chelsea", "rocket"]):
        members += [(f"{i:04d}.jpg", photos[name]), (f"{i:04d}.txt", f"photo {name}".encode())]
    members += [("0001.jpg", photos["coffee"]), ("0001.txt", b"the same key again")]
    members += [("../../evil.jpg", photos["coffee"]), ("../../evil.txt", b"escape attempt")]
    _tar(shards / "00000.tar", members)
    whole = shards / "full.tar"
    _tar(
        whole,
        [(f"x{i}.txt", f"caption {i}".encode()) for i in range(3)]
        + [("big.jpg", photos["astronaut"]), ("big.txt", b"a big one")],
    )
    data = whole.read_bytes()
    (shards / "00001.tar").write_bytes(data[: len(data) - 20_000])  # cut inside big.jpg
    whole.unlink()

    out = tmp_path / "out"
    run_cli("parse", "--input", shards, "--output", out, "--no-progress")
    rows = index_rows(out)
    reasons = {r["key"]: r["reason"] for r in rows}
    assert reasons["0000"] is None and reasons["0003"] is None
    dup = [r for r in rows if r["reason"] == "duplicate_key"]
    assert len(dup) == 1 and "0001" in dup[0]["error"] and dup[0]["caption"] == "the same key again"
    unsafe = [r for r in rows if r["reason"] == "unsafe_name"]
    assert len(unsafe) == 1
    assert [reasons.get(f"x{i}") for i in range(3)] == [None, None, None]
    assert [r["reason"] for r in rows if r["source"].endswith(":big")] == ["tar_truncated"]
    assert len(rows) == 4 + 1 + 1 + 3 + 1
    # nothing was written outside the output directory
    assert not (tmp_path / "evil.jpg").exists() and not (tmp_path.parent / "evil.jpg").exists()
    assert sorted(p.name for p in out.iterdir()) == [
        "00000.parquet",
        "00000.tar",
        "00000_stats.json",
        "README.md",
        "_meta",
        "sizes.json",
    ]
    assert run_cli("validate", out).exit_code == 0


def test_unreadable_input_path_is_a_usage_error(tmp_path):
    result = run_cli(
        "parse",
        "--input",
        tmp_path / "nope.tsv",
        "--output",
        tmp_path / "o",
        "--no-progress",
        ok=False,
    )
    assert result.exit_code == 2 and "no such file" in result.output


def test_unreadable_file_is_a_failure_row(tmp_path):
    """A file that cannot be opened (a dangling link here: permissions do not stop root,
    who runs CI) ends as a failure row; the other files still go through."""
    (tmp_path / "a.txt").write_text("a cat on a mat\n")
    (tmp_path / "b.txt").symlink_to(tmp_path / "gone.txt")
    out = tmp_path / "out"
    run_cli("parse", "--input", str(tmp_path / "*.txt"), "--output", out, "--no-progress")
    rows = index_rows(out)
    assert [r["reason"] for r in rows] == [None, "input_unreadable"]


def test_output_with_another_runs_shards_is_refused(tmp_path):
    table = tmp_path / "c.txt"
    table.write_text("a cat on a mat\na dog under a table\n")
    out = tmp_path / "out"
    run_cli("parse", "--input", table, "--output", out, "--no-progress")
    other = run_cli(
        "parse", "--input", table, "--output", out, "--no-progress", "--shard-size", "1", ok=False
    )
    assert other.exit_code == 2 and "--overwrite" in other.output
    run_cli(
        "parse",
        "--input",
        table,
        "--output",
        out,
        "--no-progress",
        "--shard-size",
        "1",
        "--overwrite",
    )
    assert len(shard_stats(out)) == 2
    foreign = tmp_path / "foreign"
    foreign.mkdir()
    (foreign / "00000.tar").write_bytes(b"")
    for flags in ([], ["--overwrite"]):
        refused = run_cli(
            "parse", "--input", table, "--output", foreign, "--no-progress", *flags, ok=False
        )
        assert refused.exit_code == 2 and "did not write" in refused.output
        assert "--overwrite" not in refused.output  # never advice that would delete files
    assert (foreign / "00000.tar").exists()


@pytest.mark.parametrize(
    "flags, message",
    [
        (["--parser", "nonsense"], "not known"),
        (["--shard-size", "0"], "shard-size"),
        (["--input-format", "xml"], "not known"),
    ],
)
def test_bad_flags_are_usage_errors(tmp_path, flags, message):
    table = tmp_path / "c.txt"
    table.write_text("a cat\n")
    result = run_cli(
        "parse", "--input", table, "--output", tmp_path / "o", "--no-progress", *flags, ok=False
    )
    assert result.exit_code == 2 and message in result.output


def test_a_run_that_failed_to_start_does_not_block_a_corrected_rerun(tmp_path):
    table = tmp_path / "c.txt"
    table.write_text("a cat on a mat\n")
    out = tmp_path / "out"
    bad = run_cli(
        "parse",
        "--input",
        table,
        "--output",
        out,
        "--no-progress",
        "--spacy-model",
        "en_core_web_nonexistent",
        ok=False,
    )
    assert bad.exit_code == 2
    run_cli("parse", "--input", table, "--output", out, "--no-progress")  # no --overwrite needed
    assert [r["status"] for r in index_rows(out)] == ["ok"]


def test_an_output_overlapping_the_input_is_refused_and_overwrite_deletes_nothing(tmp_path):
    """The img2dataset layout as both input and output: refused whatever the flags."""
    i2d = tmp_path / "i2d"
    i2d.mkdir()
    _tar(i2d / "00000.tar", [("a.txt", b"a cat on a mat")])
    (i2d / "00000_stats.json").write_text("{}")
    before = sorted(p.name for p in i2d.iterdir())
    for output in (i2d, i2d / "out", tmp_path):
        for flags in ([], ["--overwrite"]):
            result = run_cli("parse", "-i", i2d, "-o", output, "--no-progress", *flags, ok=False)
            assert result.exit_code == 2 and "overlaps --input" in result.output
    assert sorted(p.name for p in i2d.iterdir()) == before


def test_overwrite_removes_only_what_sgprep_wrote(tmp_path):
    table = tmp_path / "c.txt"
    table.write_text("a cat on a mat\n")
    out = tmp_path / "out"
    run_cli("parse", "-i", table, "-o", out, "--no-progress")
    (out / "notes.md").write_text("mine")
    (out / "_meta" / "mine.txt").write_text("mine too")
    run_cli("parse", "-i", table, "-o", out, "--no-progress", "--shard-size", "5", "--overwrite")
    assert (out / "notes.md").read_text() == "mine"
    assert [r["status"] for r in index_rows(out)] == ["ok"]


def test_a_second_run_on_a_locked_output_is_refused(tmp_path):
    import fcntl

    table = tmp_path / "c.txt"
    table.write_text("a cat on a mat\n")
    out = tmp_path / "out"
    (out / "_meta").mkdir(parents=True)
    fd = os.open(out / "_meta" / "lock", os.O_RDWR | os.O_CREAT)
    os.write(fd, b"4242\n")
    fcntl.flock(fd, fcntl.LOCK_EX)  # what a running sgprep holds
    try:
        result = run_cli("parse", "-i", table, "-o", out, "--no-progress", ok=False)
    finally:
        os.close(fd)
    assert result.exit_code == 2 and "another sgprep run (pid 4242)" in result.output
    run_cli("parse", "-i", table, "-o", out, "--no-progress")  # free again: runs


def test_a_linked_sub_folder_of_an_input_folder_is_said_not_skipped_in_silence(tmp_path, caplog):
    """os.walk does not follow a link to a folder: its files are not read, and the run says
    so, with the link's path."""
    given = tmp_path / "captions"
    given.mkdir()
    (given / "a.txt").write_text("a cat on a mat\n")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "b.txt").write_text("a dog on a sofa\n")
    (given / "more").symlink_to(elsewhere)
    out = tmp_path / "out"
    with caplog.at_level("WARNING", logger="sgprep.io.readers"):
        run_cli("parse", "--input", given, "--output", out, "--no-progress")
    assert len(index_rows(out)) == 1
    said = [r.getMessage() for r in caplog.records if "not followed" in r.getMessage()]
    assert said and all(str(given / "more") in message for message in said)
