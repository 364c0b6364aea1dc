"""Hostile input (issue 12, reader side): every case is built here, run through the real CLI
or the real reader, and must end as the exact failure rows named, never as a crash, a lost
sample, an "ok" sample missing its image, or a sample escaping the output."""

from __future__ import annotations

import csv
import io
import json
import os
import resource
import signal
import subprocess
import sys
import tarfile
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from PIL import Image

from sgprep.io import readers
from sgprep.io.images import ImageError, inspect_image
from sgprep.io.readers import InputError, detect_format, input_format, reader, resolve_inputs
from tests.conftest import index_rows, run_cli

PARSE = ("parse", "--parser", "spacy", "--no-progress")


def _png(size=(8, 8), color=(200, 30, 30), mode="RGB") -> bytes:
    buf = io.BytesIO()
    Image.new(mode, size, color).save(buf, format="PNG")
    return buf.getvalue()


def _image(fmt: str) -> bytes:
    buf = io.BytesIO()
    Image.new("RGB", (16, 12), (10, 120, 200)).save(buf, format=fmt)
    return buf.getvalue()


def _member(name: str, data: bytes = b"", kind: bytes = tarfile.REGTYPE, link: str = ""):
    info = tarfile.TarInfo(name)
    info.type, info.linkname = kind, link
    info.size = len(data) if kind == tarfile.REGTYPE else 0
    return info, data


def _tar(path: Path, members) -> Path:
    with tarfile.open(path, "w") as tar:
        for item in members:
            info, data = item if isinstance(item[0], tarfile.TarInfo) else _member(*item)
            tar.addfile(info, io.BytesIO(data) if info.size else None)
    return path


def _parse(inp, out, *flags) -> list[dict]:
    """The index of a parse; a run whose every sample failed is allowed here (these tests
    read the failure rows; tests/exec/test_budget.py checks that such a run exits 1)."""
    run_cli(*PARSE, "-i", inp, "-o", out, "--max-failed-share", "1", *flags)
    return index_rows(out)


def _reasons(rows) -> list[tuple[str, str | None]]:
    return [(r["key"], r["reason"]) for r in rows]


def _peak_rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


# -- 2. huge tar members are never read ------------------------------------------------------


def test_sparse_tar_with_an_8gb_member_is_not_read(tmp_path):
    """A tar whose member claims 8 GB, stored sparse (a few KB on disk): the member fails
    ``member_too_large`` unread, the samples around it go through, memory stays flat."""
    path = tmp_path / "00000.tar"
    big = 8_000_000_000
    with path.open("wb") as fh:
        for name, data in [("k0.txt", b"a cat on a mat")]:
            info, _ = _member(name, data)
            fh.write(info.tobuf(tarfile.GNU_FORMAT) + data.ljust(512, b"\0"))
        info = tarfile.TarInfo("k1.jpg")
        info.size = big
        fh.write(info.tobuf(tarfile.GNU_FORMAT))
        fh.seek(big, os.SEEK_CUR)  # a hole: the 8 GB are never on disk
        for name, data in [("k1.txt", b"a dog"), ("k2.txt", b"a red bus on a street")]:
            info, _ = _member(name, data)
            fh.write(info.tobuf(tarfile.GNU_FORMAT) + data.ljust(512, b"\0"))
        fh.write(b"\0" * 1024)
    assert os.stat(path).st_blocks * 512 < 1_000_000, "the test tar must be sparse"
    before = _peak_rss_mb()  # the reader alone, before the CLI loads a parser
    assert len(list(reader("wds").records(path))) == 3
    assert _peak_rss_mb() - before < 100
    rows = _parse(path, tmp_path / "out")
    assert _reasons(rows) == [("k0", None), ("k1", "member_too_large"), ("k2", None)]
    assert "8,000,000,000 bytes" in rows[1]["error"] and rows[1]["caption"] is None


def test_a_member_claiming_more_than_the_file_holds_is_truncated_not_read(tmp_path):
    path = tmp_path / "00000.tar"
    info = tarfile.TarInfo("k1.jpg")
    info.size = 8_000_000_000
    ok, _ = _member("k0.txt", b"a cat")
    path.write_bytes(
        ok.tobuf(tarfile.GNU_FORMAT)
        + b"a cat".ljust(512, b"\0")
        + info.tobuf(tarfile.GNU_FORMAT)
        + b"\xff" * 4096
    )
    rows = _parse(path, tmp_path / "out")
    assert _reasons(rows) == [("k0", None), ("k1", "tar_truncated")]


class _Zeros:
    """A file object of ``size`` zero bytes that never holds them in memory."""

    def __init__(self, size: int):
        self.left = size

    def read(self, n: int = -1) -> bytes:
        n = self.left if n < 0 else min(n, self.left)
        self.left -= n
        return bytes(n)


def test_gzip_bomb_member_is_not_read(tmp_path):
    """A .tar.gz of about 300 KB unpacking to a 300 MiB member: skipped unread (the stream is
    decompressed to skip it, in bounded memory)."""
    path = tmp_path / "00000.tar.gz"
    size = 300 * 1024 * 1024
    with tarfile.open(path, "w:gz", compresslevel=1) as tar:
        for name, data in [("a.txt", b"a small caption"), ("b.txt", None), ("c.txt", b"a cat")]:
            info = tarfile.TarInfo(name)
            info.size = size if data is None else len(data)
            tar.addfile(info, _Zeros(size) if data is None else io.BytesIO(data))
    assert path.stat().st_size < 3_000_000
    before = _peak_rss_mb()
    assert len(list(reader("wds").records(path))) == 3
    assert _peak_rss_mb() - before < 100
    rows = _parse(path, tmp_path / "out")
    assert _reasons(rows) == [("a", None), ("b", "member_too_large"), ("c", None)]


def test_member_limit_is_a_module_setting(tmp_path, monkeypatch):
    path = _tar(tmp_path / "s.tar", [("a.txt", b"short"), ("b.txt", b"x" * 5000)])
    monkeypatch.setattr(readers, "MAX_MEMBER_BYTES", 4096)
    got = [(s.key, s.failure and s.failure.reason) for _, s in reader("wds").records(path)]
    assert got == [("a", None), ("b", "member_too_large")]


# -- 3, 15. image extensions are safe member names --------------------------------------------


def _wds(out: Path) -> dict[str, dict]:
    samples: dict[str, dict] = {}
    with tarfile.open(out / "00000.tar") as tar:
        for info in tar:
            key, _, ext = info.name.partition(".")
            samples.setdefault(key, {})[ext] = tar.extractfile(info).read()
    return samples


def test_table_image_suffixes_become_safe_extensions(tmp_path):
    """``img.pñg``, a 100-character suffix, an image named ``.txt`` or ``.json``: written under
    the extension of its real format, never clobbering the caption or metadata member;
    bytes that are no image fail the sample, never the run."""
    png, jpeg = _png(), _image("JPEG")
    files = {
        "img.pñg": png,
        "long." + "x" * 100: png,
        "x.txt": jpeg,
        "y.json": png,
        "z.weird": b"just some text",
    }
    for name, data in files.items():
        (tmp_path / name).write_bytes(data)
    table = tmp_path / "t.csv"
    with table.open("w", newline="", encoding="utf-8") as fh:
        w = csv.writer(fh)
        w.writerow(["key", "caption", "image"])
        for i, name in enumerate(files):
            w.writerow([f"k{i}", f"a red square number {i}", name])
    out = tmp_path / "out"
    rows = _parse(table, out)
    assert _reasons(rows) == [
        ("k0", None),
        ("k1", None),
        ("k2", None),
        ("k3", None),
        ("k4", "image_corrupt"),
    ]
    samples = _wds(out)
    assert set(samples["k0"]) == {"png", "txt", "json", "sg.json"} and samples["k0"]["png"] == png
    assert samples["k1"]["png"] == png
    assert samples["k2"]["jpg"] == jpeg and samples["k2"]["txt"] == b"a red square number 2"
    assert samples["k3"]["png"] == png and json.loads(samples["k3"]["json"])["key"] == "k3"


def test_avif_is_an_image_in_folders_and_tars(tmp_path):
    from sgprep.io.images import IMAGE_EXTENSIONS

    if "avif" not in IMAGE_EXTENSIONS:
        pytest.skip("this Pillow cannot open AVIF")
    avif = _image("AVIF")
    folder = tmp_path / "folder"
    folder.mkdir()
    (folder / "a.avif").write_bytes(avif)
    (folder / "a.txt").write_text("a blue square")
    rows = _parse(folder, tmp_path / "o1")
    assert _reasons(rows) == [("a", None)] and rows[0]["image_width"] == 16
    shards = tmp_path / "shards"
    shards.mkdir()
    _tar(shards / "00000.tar", [("k.avif", avif), ("k.txt", b"a blue square")])
    rows = _parse(shards, tmp_path / "o2")
    assert _reasons(rows) == [("k", None)] and rows[0]["image_height"] == 12
    assert _wds(tmp_path / "o2")["k"]["avif"] == avif


# -- 16. --max-image-pixels raises the limit too ---------------------------------------------


def test_max_image_pixels_can_raise_pillows_limit(tmp_path):
    big = _png((10_000, 10_000), 1, mode="1")  # 100 Mpx, a few kB
    with pytest.raises(ImageError) as err:
        inspect_image(big)
    assert err.value.reason == "image_too_large"
    assert inspect_image(big, 200_000_000).width == 10_000
    folder = tmp_path / "f"
    folder.mkdir()
    (folder / "big.png").write_bytes(big)
    (folder / "big.txt").write_text("a white wall")
    assert _reasons(_parse(folder, tmp_path / "o1")) == [("big", "image_too_large")]
    rows = _parse(folder, tmp_path / "o2", "--max-image-pixels", "200000000")
    assert _reasons(rows) == [("big", None)] and rows[0]["image_width"] == 10_000
    # and the limit goes down again for the next run in the same process
    with pytest.raises(ImageError):
        inspect_image(big)


# -- 4. a corrupt parquet among good tables ---------------------------------------------------


def test_corrupt_parquet_among_text_tables(tmp_path):
    inp = tmp_path / "in"
    inp.mkdir()
    (inp / "a.txt").write_text("a cat on a mat\n")
    (inp / "b.txt").write_text("a dog under a table\n")
    (inp / "c.parquet").write_bytes(b"PAR1" + b"\x13garbage" * 50 + b"PAR1")
    (inp / "d.txt").write_text("a bird in a tree\n")
    rows = _parse(inp, tmp_path / "out")
    assert [r["reason"] for r in rows] == [None, None, "source_unreadable", None]
    assert rows[2]["source"].endswith("c.parquet") and "c.parquet" in rows[2]["error"]


def test_parquet_captions_that_are_not_text(tmp_path):
    """Lists, structs and numbers are not captions; a NaN key is no key."""
    path = tmp_path / "t.parquet"
    pq.write_table(
        pa.table(
            {
                "caption": ["a cat", "a dog", "a bird", "a fish"],
                "key": [1.0, float("nan"), 3.0, 4.0],
            }
        ),
        path,
    )
    rows = [s for _, s in reader("table").records(path)]
    assert [s.key for s in rows][1] == ""
    out = _parse(path, tmp_path / "out")
    assert out[1]["key"] == "000000001" and "NaN" not in out[1]["meta"]
    assert json.loads(out[1]["meta"]) == {"key": None}
    for column, values in {"list": [["a", "b"]], "struct": [{"x": "a dog"}], "int": [7]}.items():
        path = tmp_path / f"{column}.parquet"
        pq.write_table(pa.table({"caption": values}), path)
        rows = _parse(path, tmp_path / f"out_{column}")
        assert _reasons(rows) == [("000000000", "caption_invalid")], column
        assert "not text" in rows[0]["error"]


# -- 5. COCO with bad records -----------------------------------------------------------------


def test_coco_with_bad_records_fails_them_one_by_one(tmp_path, photos):
    root = tmp_path / "coco"
    (root / "annotations").mkdir(parents=True)
    (root / "val").mkdir()
    (root / "val" / "1.jpg").write_bytes(photos["coffee"])
    ann = {
        "images": [{"id": 1, "file_name": "1.jpg"}, {"file_name": "no_id.jpg"}, "junk"],
        "annotations": [
            {"id": 10, "image_id": 1, "caption": "a cup of coffee"},
            5,
            {"id": 12, "image_id": 1, "caption": 42},
            {"id": 13, "image_id": [1, 2], "caption": "a list id"},
            {"id": 14, "caption": "no image id"},
            {"id": 15, "image_id": 1, "caption": "another cup"},
        ],
    }
    (root / "annotations" / "captions_val.json").write_text(json.dumps(ann))
    (root / "annotations" / "captions_x.json").write_text(
        json.dumps({"images": [], "annotations": None})
    )
    rows = _parse(root, tmp_path / "out")
    assert [(r["source"].rpartition(":")[2], r["reason"]) for r in rows] == [
        ("10", None),  # image 1's captions together (the reader groups them by image)
        ("12", "caption_invalid"),
        ("15", None),
        ("#1", "bad_row"),
        ("13", "bad_row"),
        ("14", "bad_row"),
        (str(root / "annotations" / "captions_x.json"), "source_unreadable"),
    ]
    assert "'annotations' is missing or null, not a list" in rows[-1]["error"]


# -- 6. img2dataset sidecar with non-text captions --------------------------------------------


def test_img2dataset_sidecar_with_int_captions(tmp_path, photos):
    inp = tmp_path / "in"
    inp.mkdir()
    _tar(inp / "00000.tar", [("000.jpg", photos["rocket"]), ("000.txt", b"a rocket")])
    pq.write_table(
        pa.table(
            {
                "key": ["000", "001"],
                "caption": [1, 2],
                "status": ["success", "failed_to_download"],
                "error_message": [None, "HTTP 404"],
            }
        ),
        inp / "00000.parquet",
    )
    rows = _parse(inp, tmp_path / "out")
    assert _reasons(rows) == [("000", None), ("001", "source_failed")]
    assert rows[1]["caption"] is None and json.loads(rows[1]["meta"])["caption"] == 2


# -- 7. unreadable caption files and folders --------------------------------------------------


def _parse_without_root_powers(inp: Path, out: Path) -> list[dict]:
    """Root ignores file modes; run the CLI without CAP_DAC_OVERRIDE so they count."""
    command = [
        sys.executable,
        "-c",
        "from sgprep.cli import app; app()",
        *PARSE,
        "-i",
        str(inp),
        "-o",
        str(out),
    ]
    if os.geteuid() == 0:
        caps = "-dac_override,-dac_read_search"
        command = ["setpriv", f"--bounding-set={caps}", f"--inh-caps={caps}", *command]
    root = Path(__file__).resolve().parents[2]
    env = {**os.environ, "PYTHONPATH": str(root)}
    done = subprocess.run(command, capture_output=True, text=True, timeout=300, env=env, cwd=root)
    assert done.returncode == 0, done.stdout + done.stderr
    return index_rows(out)


def test_unreadable_caption_and_folder_in_an_image_folder(tmp_path):
    inp = tmp_path / "in"
    (inp / "locked").mkdir(parents=True)
    for folder, name in [(inp, "a"), (inp, "b"), (inp / "locked", "c")]:
        (folder / f"{name}.png").write_bytes(_png())
        (folder / f"{name}.txt").write_text(f"a red square {name}")
    (inp / "a.txt").chmod(0)
    (inp / "locked").chmod(0)
    try:
        rows = _parse_without_root_powers(inp, tmp_path / "out")
    finally:
        (inp / "locked").chmod(0o755)
    assert [(r["source"], r["reason"]) for r in rows] == [
        (str(inp / "a.png"), "caption_unreadable"),
        (str(inp / "b.png"), None),
        (str(inp / "locked"), "source_unreadable"),
    ]
    assert "Permission denied" in rows[0]["error"] and "locked" in rows[2]["error"]


def test_unreadable_folder_of_tables(tmp_path):
    inp = tmp_path / "in"
    (inp / "locked").mkdir(parents=True)
    (inp / "a.txt").write_text("a cat on a mat\n")
    (inp / "locked" / "b.txt").write_text("a dog\na bird\n")
    (inp / "locked").chmod(0)
    try:
        rows = _parse_without_root_powers(inp, tmp_path / "out")
    finally:
        (inp / "locked").chmod(0o755)
    assert [(r["source"], r["reason"]) for r in rows] == [
        (f"{inp / 'a.txt'}:1", None),
        (str(inp / "locked"), "source_unreadable"),
    ]


# -- 8. images that are not regular files -----------------------------------------------------


def test_table_images_must_be_regular_files_of_bounded_size(tmp_path, monkeypatch):
    os.mkfifo(tmp_path / "fifo.png")
    (tmp_path / "big.png").write_bytes(_png() + b"\0" * 10_000)
    (tmp_path / "ok.png").write_bytes(_png())
    table = tmp_path / "t.jsonl"
    table.write_text(
        "".join(
            json.dumps({"caption": f"a {colour} square", "image": image}) + "\n"
            for colour, image in zip(
                ["red", "blue", "green", "white"], ["fifo.png", "/dev/zero", "big.png", "ok.png"]
            )
        )
    )
    monkeypatch.setattr(readers, "MAX_FILE_BYTES", 5_000)
    signal.alarm(60)  # a FIFO that blocks must fail the test, not hang it
    try:
        rows = _parse(table, tmp_path / "out")
    finally:
        signal.alarm(0)
    assert [r["reason"] for r in rows] == [
        "image_unreadable",
        "outside_input",  # /dev/zero: an absolute path out of the table's folder (issue 36)
        "image_too_large",
        None,
    ]
    assert "not a regular file" in rows[0]["error"]


# -- 9. an unterminated CSV quote -------------------------------------------------------------


def test_unterminated_csv_quote_does_not_swallow_the_rows_after_it(tmp_path):
    table = tmp_path / "t.csv"
    table.write_text(
        'key,caption\na,a cat on a mat\nb,"a dog with a stray quote\n'
        'c,a bird in a tree\nd,a red bus\ne,"a two-line\ncaption, quoted"\n'
    )
    rows = _parse(table, tmp_path / "out")
    assert _reasons(rows) == [
        ("a", None),
        ("000000001", "bad_row"),
        ("c", None),
        ("d", None),
        ("e", None),
    ]
    assert "line 3 opens a quoted field" in rows[1]["error"]
    assert rows[4]["caption"] == "a two-line\ncaption, quoted"
    # a quote closed far away (more than CSV_MAX_RECORD_LINES lines on) is refused too
    lines = ['x,"opens here'] + [f"k{i},caption {i}" for i in range(20)] + ['y,closes" here']
    table.write_text("key,caption\n" + "\n".join(lines) + "\n")
    got = [(s.key, s.failure and s.failure.reason) for _, s in reader("table").records(table)]
    assert got[0] == ("", "bad_row") and got[1:21] == [(f"k{i}", None) for i in range(20)]
    assert len(got) == 22


# -- 10, 11. unsafe and split tar members -----------------------------------------------------


def test_links_fifos_and_devices_in_a_tar_are_failures_never_followed(tmp_path):
    secret = tmp_path / "secret.png"
    secret.write_bytes(_png())
    path = _tar(
        tmp_path / "00000.tar",
        [
            ("a.png", b"", tarfile.SYMTYPE, str(secret)),
            ("a.txt", b"a caption without its image"),
            ("b.txt", b"", tarfile.LNKTYPE, "a.txt"),
            ("c.png", b"", tarfile.FIFOTYPE),
            ("d.png", b"", tarfile.CHRTYPE),
            ("e.png", _png()),
            ("e.txt", b"a red square"),
            ("f.png", b"", tarfile.BLKTYPE),
        ],
    )
    rows = _parse(path, tmp_path / "out")
    assert _reasons(rows) == [
        ("a", "unsafe_member"),
        ("b", "unsafe_member"),
        ("c", "unsafe_member"),
        ("d", "unsafe_member"),
        ("e", None),
        ("f", "unsafe_member"),
    ]
    assert "symlink" in rows[0]["error"] and "hard link" in rows[1]["error"]
    assert "FIFO" in rows[2]["error"] and "device" in rows[3]["error"]
    assert set(_wds(tmp_path / "out")) == {"e"}


def test_a_key_split_apart_in_a_tar_fails_both_pieces(tmp_path):
    path = _tar(
        tmp_path / "00000.tar",
        [
            ("a.txt", b"a cat"),
            ("b.png", _png()),
            ("b.txt", b"a red square"),
            ("a.png", _png()),
            ("c.txt", b"a dog"),
            ("c.txt", b"a dog again"),
        ],
    )
    rows = _parse(path, tmp_path / "out")
    assert [(r["key"].partition("_dup")[0], r["reason"]) for r in rows] == [
        ("a", "split_key"),
        ("b", None),
        ("a", "split_key"),
        ("c", "duplicate_member"),
    ]
    assert "not adjacent" in rows[0]["error"] and "png" in rows[2]["error"]


# -- 12. input detection ----------------------------------------------------------------------


def test_a_readme_beside_image_folders_is_not_a_table(tmp_path):
    (tmp_path / "sub").mkdir()
    (tmp_path / "README.txt").write_text("My photos.\nPlease cite us.\n")
    (tmp_path / "sub" / "x.png").write_bytes(_png())
    (tmp_path / "sub" / "x.txt").write_text("a red square")
    assert detect_format(resolve_inputs(str(tmp_path))) == "images"
    rows = _parse(tmp_path, tmp_path.parent / f"{tmp_path.name}_out")
    assert _reasons(rows) == [("sub_x", None)]


def test_a_glob_over_img2dataset_output_reads_the_tars(tmp_path, caplog):
    inp = tmp_path / "i2d"
    inp.mkdir()
    _tar(inp / "00000.tar", [("000.png", _png()), ("000.txt", b"a red square")])
    pq.write_table(
        pa.table({"key": ["000"], "caption": ["a red square"], "status": ["success"]}),
        inp / "00000.parquet",
    )
    (inp / "00000_stats.json").write_text("{}")
    with caplog.at_level("INFO", logger="sgprep.io.readers"):
        paths, fmt = input_format(str(inp / "*"))
    assert fmt == "wds" and "format wds (detected), 1 file(s)" in caplog.text
    rows = _parse(str(inp / "*"), tmp_path / "out")
    assert _reasons(rows) == [("000", None)]


def test_a_folder_with_several_layouts_is_refused(tmp_path, photos):
    data = tmp_path / "data"
    for sub in ("tables", "i2d", "coco/annotations", "coco/val", "images"):
        (data / sub).mkdir(parents=True)
    (data / "tables" / "c.tsv").write_text("a cat\thttp://x/1.jpg\n")
    _tar(data / "i2d" / "00000.tar", [("0.txt", b"a dog")])
    (data / "coco" / "annotations" / "captions_val.json").write_text(
        json.dumps({"images": [], "annotations": []})
    )
    (data / "images" / "p.png").write_bytes(_png())
    with pytest.raises(InputError) as err:
        detect_format(resolve_inputs(str(data)))
    message = str(err.value)
    assert "--input-format" in message
    for layout in ("table", "wds", "images", "coco"):
        assert layout in message
    result = run_cli(*PARSE, "-i", data, "-o", tmp_path / "out", ok=False)
    assert result.exit_code == 2 and "several layouts" in result.output
    rows = _parse(data / "tables", tmp_path / "out2")  # one of them, named: fine
    assert _reasons(rows) == [("000000000", None)]


# -- low: UTF-16, huge captions ---------------------------------------------------------------


def test_a_utf16_file_says_utf16(tmp_path):
    table = tmp_path / "c.txt"
    table.write_bytes("a cat on a mat\na dog\n".encode("utf-16"))
    rows = _parse(table, tmp_path / "out")
    assert [r["reason"] for r in rows] == ["not_utf8"] and "UTF-16" in rows[0]["error"]


def test_a_huge_failed_caption_is_stored_truncated(tmp_path):
    table = tmp_path / "c.txt"
    table.write_text("a cat on a mat\n" + "word " * 1_000_000 + "\n")
    rows = _parse(table, tmp_path / "out")
    assert [r["reason"] for r in rows] == [None, "caption_too_long"]
    assert len(rows[1]["caption"]) < 1100 and "5,000,000 characters" in rows[1]["caption"]
    assert rows[1]["caption"].startswith("word word")


# -- the planner's invariant under hostile input -----------------------------------------------


def _hostile_inputs(root: Path, photos) -> dict[str, tuple[Path, str]]:
    """A few of the inputs above, side by side: name -> (input, format)."""
    csv_file = root / "t.csv"
    csv_file.write_text(
        'key,caption\na,a cat\nb,"stray quote\nc,a bird\nd,"two\nlines"\n'
        'e,x,y\nf,"long' + "\nfiller" * 12 + '"\ng,last\n'
    )
    tar = _tar(
        root / "00000.tar",
        [
            ("a.txt", b"a cat"),
            ("b.png", _png()),
            ("b.txt", b"a square"),
            ("a.png", _png()),
            ("l.png", b"", tarfile.SYMTYPE, "/etc/passwd"),
            ("l.txt", b"linked"),
            ("big.txt", b"x" * 5000),
            ("deep.json", b"[" * 2000 + b"]" * 2000),
            ("deep.txt", b"a deep one"),
            ("z.txt", b"a bird"),
            ("z.txt", b"again"),
        ],
    )
    coco = root / "coco"
    (coco / "annotations").mkdir(parents=True)
    (coco / "val").mkdir()
    (coco / "val" / "1.jpg").write_bytes(photos["coffee"])
    (coco / "annotations" / "captions_val.json").write_text(
        json.dumps(
            {
                "images": [{"id": 1, "file_name": "1.jpg"}, {"file_name": "x"}],
                "annotations": [
                    {"id": 1, "image_id": 1, "caption": "a cup"},
                    None,
                    {"id": 3, "image_id": [1], "caption": "x"},
                    {"id": 4, "image_id": 1, "caption": 5},
                    {"id": 5, "image_id": 1, "caption": "a cup again"},
                ],
            }
        )
    )
    (coco / "annotations" / "captions_null.json").write_text('{"annotations": null}')
    tables = root / "tables"
    tables.mkdir()
    (tables / "a.txt").write_text("a cat\n\na dog\n")
    (tables / "b.parquet").write_bytes(b"PAR1 not really PAR1")
    (tables / "c.txt").write_bytes("utf16 text\n".encode("utf-16"))
    (tables / "d.jsonl").write_text(
        '{"caption": [1, 2]}\n' + "[" * 100_000 + '\n{"caption": "ok", "key": NaN}\n'
    )
    return {
        "csv": (csv_file, "table"),
        "tar": (tar, "wds"),
        "coco": (coco, "coco"),
        "tables": (tables, "table"),
    }


def test_hostile_inputs_read_the_same_with_and_without_loading_and_from_any_cursor(
    tmp_path, photos, monkeypatch
):
    monkeypatch.setattr(readers, "MAX_MEMBER_BYTES", 4096)
    for name, (path, fmt) in _hostile_inputs(tmp_path, photos).items():
        module = reader(fmt)
        assert detect_format([path]) == fmt, name
        for unit in module.units([path]):
            loaded = [(c, s.key, s.failure and s.failure.reason) for c, s in module.records(unit)]
            planned = [(c, s.key) for c, s in module.records(unit, load=False)]
            assert planned == [(c, k) for c, k, _ in loaded], (name, unit)
            for i, (cursor, _, _) in enumerate(loaded):
                again = [
                    (c, s.key, s.failure and s.failure.reason)
                    for c, s in module.records(unit, cursor)
                ]
                assert again == loaded[i:], (name, unit, cursor)


def test_hostile_inputs_give_the_same_rows_whatever_the_shard_size(tmp_path, photos, monkeypatch):
    monkeypatch.setattr(readers, "MAX_MEMBER_BYTES", 4096)
    (tmp_path / "in").mkdir()
    for name, (path, _) in _hostile_inputs(tmp_path / "in", photos).items():
        small = _parse(path, tmp_path / f"{name}_1", "--shard-size", "1", "--workers", "1")
        whole = _parse(path, tmp_path / f"{name}_1000", "--shard-size", "1000")
        assert len(list((tmp_path / f"{name}_1").glob("*.parquet"))) == len(small) > 3, name
        placed = ("shard", "offset", "size")  # where a row sits depends on the shard size
        assert [{k: v for k, v in r.items() if k not in placed} for r in small] == [
            {k: v for k, v in r.items() if k not in placed} for r in whole
        ], name
        assert any(r["reason"] for r in whole) and any(r["status"] == "ok" for r in whole), name


def test_images_pillow_cannot_read_are_failures_not_gaps(tmp_path):
    """HEIC without its plugin: a row in a folder, never an ok tar sample without its image."""
    from sgprep.io.images import IMAGE_EXTENSIONS

    if "heic" in IMAGE_EXTENSIONS:
        pytest.skip("this Pillow reads HEIC")
    folder = tmp_path / "f"
    folder.mkdir()
    (folder / "a.heic").write_bytes(b"\0\0\0\x18ftypheic" + b"\0" * 64)
    (folder / "a.txt").write_text("a photo from a phone")
    (folder / "b.png").write_bytes(_png())
    (folder / "b.txt").write_text("a red square")
    assert _reasons(_parse(folder, tmp_path / "o1")) == [("a", "image_unsupported"), ("b", None)]
    _tar(tmp_path / "00000.tar", [("k.heic", b"\0\0\0\x18ftypheic"), ("k.txt", b"a phone photo")])
    assert _reasons(_parse(tmp_path / "00000.tar", tmp_path / "o2")) == [("k", "image_unsupported")]


def test_a_gzipped_tar_named_tar_and_a_glob_over_an_image_folder(tmp_path):
    with tarfile.open(tmp_path / "00000.tar", "w:gz") as tar:
        info, data = _member("k.txt", b"a cat on a mat")
        tar.addfile(info, io.BytesIO(data))
    assert _reasons(_parse(tmp_path / "00000.tar", tmp_path / "o1")) == [("k", None)]
    folder = tmp_path / "f"
    folder.mkdir()
    for name in ("a", "b"):
        (folder / f"{name}.png").write_bytes(_png())
        (folder / f"{name}.txt").write_text(f"a red square {name}")
    rows = _parse(str(folder / "*"), tmp_path / "o2")
    assert [(r["key"], r["caption"]) for r in rows] == [
        ("a", "a red square a"),
        ("b", "a red square b"),
    ]


@pytest.mark.parametrize("fmt", [tarfile.USTAR_FORMAT, tarfile.GNU_FORMAT, tarfile.PAX_FORMAT])
def test_the_fast_header_scan_names_what_tarfile_names(tmp_path, fmt):
    """Split keys are found by a header scan of its own; it must see tarfile's names."""
    from sgprep.io.readers.tars import _member_names

    deep = "d" * 60 + "/" + "e" * 60 + "/k"  # over 100 bytes: ustar prefix, GNU or pax long name
    path = tmp_path / "s.tar"
    with tarfile.open(path, "w", format=fmt) as tar:
        for name, data in [
            (f"{deep}.txt", b"a cat"),
            ("x.txt", b"a dog"),
            (f"{deep}.png", _png()),
            ("café.txt", b"a bird"),
        ]:
            info, data = _member(name, data)
            tar.addfile(info, io.BytesIO(data))
        folder = tarfile.TarInfo("dir")
        folder.type = tarfile.DIRTYPE
        tar.addfile(folder)
    with tarfile.open(path) as tar:
        expected = [m.name for m in tar if not m.isdir()]
    assert list(_member_names(path)) == expected
    got = [(s.key, s.failure and s.failure.reason) for _, s in reader("wds").records(path)]
    assert got == [(deep, "split_key"), ("x", None), (deep, "split_key"), ("café", None)]
