"""COCO's captions of one image: read together, the image stored once (``shared_images``), and
every caption still paired with its image by sgprep.data; gzip shards for text-only outputs."""

from __future__ import annotations

import json
import tarfile

import pytest

from tests.conftest import index_rows, run_cli
from tests.io.read_helpers import read_samples

CAPTIONS = {
    42: ["a cat lying on a red blanket", "an orange cat", "a cat on a bed", "a sleepy cat",
         "a tabby cat resting"],
    7: ["a rocket on a launch pad", "a white rocket", "a rocket next to a tower",
        "a space shuttle", "a rocket under a blue sky"],
}  # fmt: skip


@pytest.fixture
def coco(tmp_path, photos):
    root = tmp_path / "coco"
    (root / "annotations").mkdir(parents=True)
    (root / "val2017").mkdir()
    (root / "val2017" / "42.jpg").write_bytes(photos["chelsea"])
    (root / "val2017" / "7.jpg").write_bytes(photos["rocket"])
    # COCO's files interleave the captions of different images
    annotations = [
        {"id": 100 + 10 * n + (image == 7), "image_id": image, "caption": CAPTIONS[image][n]}
        for n in range(5)
        for image in (42, 7)
    ]
    ann = {
        "images": [{"id": 42, "file_name": "42.jpg"}, {"id": 7, "file_name": "7.jpg"}],
        "annotations": annotations,
    }
    (root / "annotations" / "captions_val2017.json").write_text(json.dumps(ann))
    return root


def test_coco_captions_of_one_image_are_read_together(coco):
    keys = [s.key for s in read_samples(str(coco))]
    assert keys == [f"42_{100 + 10 * n}" for n in range(5)] + [
        f"7_{101 + 10 * n}" for n in range(5)
    ]


def _files(out) -> dict[str, bytes]:
    """The output's files but ``_meta`` (which records the output's own path)."""
    return {p.name: p.read_bytes() for p in sorted(out.iterdir()) if p.is_file()}


def _run(coco, out, *extra):
    run_cli("parse", "--input", coco, "--output", out, "--parser", "spacy", "--no-progress",
            "--workers", "1", "--shared-images", *extra)  # fmt: skip


def test_shared_images_store_each_image_once_and_the_reader_pairs_every_caption(
    coco, tmp_path, photos
):
    import sgprep.data as sd

    out = tmp_path / "out"
    _run(coco, out)
    tar_bytes = (out / "00000.tar").read_bytes()
    assert tar_bytes.count(photos["chelsea"]) == 1
    assert tar_bytes.count(photos["rocket"]) == 1
    with tarfile.open(out / "00000.tar") as tar:
        names = tar.getnames()
        info = json.loads(tar.extractfile("42_110.json").read())
    assert [n for n in names if n.endswith(".jpg")] == ["42_100.jpg", "7_101.jpg"]
    assert info["image_key"] == "42_100"
    assert sum(1 for n in names if n.endswith(".txt")) == 10
    rows = {r["key"]: r for r in index_rows(out)}
    assert rows["42_140"]["image_key"] == "42_100" and rows["42_100"]["image_key"] is None
    assert "jpg" not in json.loads(rows["42_140"]["members"])

    samples = list(sd.webdataset(out, decode=False))
    assert len(samples) == 10 == sd.num_samples(out)
    for s in samples:
        image = photos["chelsea"] if s["key"].startswith("42_") else photos["rocket"]
        assert s["image"] == image, s["key"]
        assert s["caption"] in CAPTIONS[int(s["key"].split("_")[0])]
    # shuffled after the join: still every caption with its own image
    shuffled = list(sd.webdataset(out, decode=False, shuffle=4, seed=3))
    assert sorted(s["key"] for s in shuffled) == sorted(s["key"] for s in samples)
    assert all(
        s["image"] == (photos["chelsea"] if s["key"].startswith("42_") else photos["rocket"])
        for s in shuffled
    )
    assert run_cli("validate", out).exit_code == 0


def test_shared_images_resume_to_the_same_bytes(coco, tmp_path, photos):
    """Shards of 3 split an image's captions: each shard stores the image again at its first
    caption of it, decided from the shard alone, so a resumed run writes the same bytes."""
    reference, resumed = tmp_path / "reference", tmp_path / "resumed"
    _run(coco, reference, "--shard-size", "3")
    _run(coco, resumed, "--shard-size", "3")
    assert _files(reference) == _files(resumed)
    second = (resumed / "00001.tar").read_bytes()  # 42_130, 42_140, 7_101
    assert second.count(photos["chelsea"]) == 1 and second.count(photos["rocket"]) == 1
    for name in ("00001_stats.json", "00002_stats.json"):  # as a kill mid-run leaves it
        (resumed / name).unlink()
    (resumed / "00002.tar").unlink()
    (resumed / "sizes.json").unlink()
    _run(coco, resumed, "--shard-size", "3")
    assert _files(reference) == _files(resumed)


def test_gzip_shards_are_smaller_and_read_like_tars(tmp_path):
    import sgprep.data as sd
    from sgprep.io.tar import read_block

    captions = tmp_path / "captions.txt"
    lines = [f"a red car parked next to a white house number {i}" for i in range(40)]
    captions.write_text("\n".join(lines) + "\n")
    plain, gz = tmp_path / "plain", tmp_path / "gz"
    for out, extra in ((plain, ()), (gz, ("--compression", "gzip"))):
        run_cli("parse", "--input", captions, "--output", out, "--parser", "spacy",
                "--no-progress", "--workers", "1", *extra)  # fmt: skip
    assert (gz / "00000.tar.gz").stat().st_size < (plain / "00000.tar").stat().st_size / 3
    with tarfile.open(gz / "00000.tar.gz") as tar, tarfile.open(plain / "00000.tar") as ref:
        assert [(m.name, tar.extractfile(m).read()) for m in tar] == [
            (m.name, ref.extractfile(m).read()) for m in ref
        ]
    assert json.loads((gz / "sizes.json").read_text()) == {"00000.tar.gz": 40}
    assert sd.urls(gz) == [str(gz / "00000.tar.gz")]
    assert [s["caption"] for s in sd.webdataset(gz, decode=False, shuffle=0, spread=0)] == lines
    row = index_rows(gz)[7]
    block = read_block(gz / f"{row['shard']}.tar.gz", row["offset"], row["size"])
    assert block[:512].startswith(f"{row['key']}.json".encode())
    assert lines[7].encode() in block
    assert run_cli("validate", gz).exit_code == 0
    # a flipped byte in the compressed data is found
    data = bytearray((gz / "00000.tar.gz").read_bytes())
    data[len(data) // 2] ^= 0xFF
    (gz / "00000.tar.gz").write_bytes(bytes(data))
    assert run_cli("validate", gz, ok=False).exit_code != 0


def test_an_output_with_shared_images_is_input_with_every_image_back(coco, tmp_path, photos):
    """A later stage reading that output gets each caption's image from the sample that holds
    it, not a captions-only sample."""
    out = tmp_path / "out"
    _run(coco, out)
    samples = list(read_samples(str(out)))
    assert [s.failure for s in samples] == [None] * 10
    by_image = {s.key: s.image for s in samples}
    assert all(by_image[f"42_{100 + 10 * n}"] == photos["chelsea"] for n in range(5))
    assert all(by_image[f"7_{101 + 10 * n}"] == photos["rocket"] for n in range(5))


def test_a_shared_images_output_says_what_each_reader_sees(coco, tmp_path):
    """open_clip keeps only the samples that hold an image: sizes.json counts those (so its
    epoch does not wrap around, repeating captions), the card says so and advertises no
    open_clip command; sgprep.data still counts and yields every caption."""
    import sgprep.data as sd

    out, plain = tmp_path / "out", tmp_path / "plain"
    _run(coco, out)
    run_cli("parse", "--input", coco, "--output", plain, "--parser", "spacy", "--no-progress",
            "--workers", "1")  # fmt: skip
    assert json.loads((out / "sizes.json").read_text()) == {"00000.tar": 2}
    assert json.loads((plain / "sizes.json").read_text()) == {"00000.tar": 10}
    assert sd.sizes(out) == {"00000.tar": 10} and sd.num_samples(out) == 10
    assert len(list(sd.webdataset(out, decode=False))) == 10
    card = (out / "README.md").read_text()
    assert "--train-data" not in card and "2 of the 10 samples hold their image" in card
    assert "only the 2 samples with an image" in card and "10 rows, 8 of them with no image" in card
    assert "--train-data 'OUTPUT/00000.tar'" in (plain / "README.md").read_text()
    assert run_cli("validate", out).exit_code == 0
