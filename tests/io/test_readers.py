"""Each input format is read into the same samples: keys, captions, images, failures."""

from __future__ import annotations

import csv
import json

import pyarrow as pa
import pyarrow.parquet as pq

from sgprep.io.readers import detect_format, resolve_inputs
from tests.io.read_helpers import read_samples


def _captions(spec, fmt=None):
    return [
        (s.key, s.caption, s.failure and s.failure.reason) for s in read_samples(str(spec), fmt)
    ]


def test_cc12m_headerless_tsv_and_cc3m_order(tmp_path):
    cc12m = tmp_path / "cc12m.tsv"
    cc12m.write_text('http://x/1.jpg\tA "quoted" dog <PERSON> on a sofa\nhttp://x/2.jpg\ta cat\n')
    got = list(read_samples(str(cc12m)))
    assert [s.caption for s in got] == ['A "quoted" dog <PERSON> on a sofa', "a cat"]
    assert got[0].meta["url"] == "http://x/1.jpg"
    cc3m = tmp_path / "cc3m.tsv"
    cc3m.write_text("a red bus\thttps://x/3.jpg\n")
    assert [s.caption for s in read_samples(str(cc3m))] == ["a red bus"]


def test_csv_with_header_and_images(tmp_path, photos):
    (tmp_path / "img").mkdir()
    (tmp_path / "img" / "c.jpg").write_bytes(photos["coffee"])
    table = tmp_path / "t.csv"
    with table.open("w", newline="") as fh:
        writer = csv.writer(fh)
        writer.writerow(["key", "caption", "image"])
        writer.writerow(["c1", "a cup, on a saucer", "img/c.jpg"])
        writer.writerow(["c2", "missing image", "img/nope.jpg"])
    got = list(read_samples(str(table)))
    assert [(s.key, s.caption) for s in got] == [
        ("c1", "a cup, on a saucer"),
        ("c2", "missing image"),
    ]
    assert got[0].image == photos["coffee"] and got[0].image_ext == "jpg"
    assert got[1].failure.reason == "image_unreadable"


def test_jsonl_and_parquet(tmp_path):
    jl = tmp_path / "a.jsonl"
    jl.write_text('{"key": "k1", "text": "a dog"}\n[1, 2]\nnot json\n')
    assert _captions(jl) == [("k1", "a dog", None), ("", None, "bad_row"), ("", None, "bad_row")]
    pq.write_table(
        pa.table({"id": [7, 8], "caption": ["a bird", "a tree"], "url": ["u1", "u2"]}),
        tmp_path / "b.parquet",
    )
    assert _captions(tmp_path / "b.parquet") == [("7", "a bird", None), ("8", "a tree", None)]


def test_coco_layout(tmp_path, photos):
    root = tmp_path / "coco"
    (root / "annotations").mkdir(parents=True)
    (root / "val2017").mkdir()
    (root / "val2017" / "000000000042.jpg").write_bytes(photos["chelsea"])
    ann = {
        "images": [
            {"id": 42, "file_name": "000000000042.jpg", "width": 451, "height": 300},
            {"id": 43, "file_name": "gone.jpg"},
        ],
        "annotations": [
            {"id": 1, "image_id": 42, "caption": "a cat"},
            {"id": 2, "image_id": 42, "caption": "an orange cat"},
            {"id": 3, "image_id": 43, "caption": "lost"},
            {"id": 4, "image_id": 99, "caption": "no image entry"},
        ],
    }
    (root / "annotations" / "captions_val2017.json").write_text(json.dumps(ann))
    assert detect_format(resolve_inputs(str(root))) == "coco"
    got = list(read_samples(str(root)))
    assert [(s.key, s.caption) for s in got][:2] == [("42_1", "a cat"), ("42_2", "an orange cat")]
    assert got[0].image == photos["chelsea"]
    assert [s.failure.reason for s in got[2:]] == ["image_missing", "image_missing"]


def test_img2dataset_failed_downloads_are_kept(tmp_path, photos):
    import io
    import tarfile

    with tarfile.open(tmp_path / "00000.tar", "w") as tar:
        for name, data in [
            ("000000000.jpg", photos["rocket"]),
            ("000000000.txt", b"a rocket"),
            ("000000000.json", b'{"url": "http://x/r.jpg"}'),
        ]:
            info = tarfile.TarInfo(name)
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
    pq.write_table(
        pa.table(
            {
                "key": ["000000000", "000000001"],
                "caption": ["a rocket", "gone"],
                "status": ["success", "failed_to_download"],
                "error_message": [None, "HTTP 404"],
            }
        ),
        tmp_path / "00000.parquet",
    )
    got = list(read_samples(str(tmp_path)))
    assert got[0].caption == "a rocket" and got[0].meta["url"] == "http://x/r.jpg"
    assert (got[1].key, got[1].failure.reason, got[1].failure.message) == (
        "000000001",
        "source_failed",
        "HTTP 404",
    )


def test_gzipped_shards_are_read(tmp_path):
    import io
    import tarfile

    for name in ("00000.tar.gz", "00001.tgz"):
        with tarfile.open(tmp_path / name, "w:gz") as tar:
            data = f"caption of {name}".encode()
            info = tarfile.TarInfo(f"k{name[:5]}.txt")
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
    assert detect_format(resolve_inputs(str(tmp_path))) == "wds"
    assert _captions(tmp_path) == [
        ("k00000", "caption of 00000.tar.gz", None),
        ("k00001", "caption of 00001.tgz", None),
    ]
