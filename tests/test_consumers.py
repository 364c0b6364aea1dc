"""sgprep's output read by the real consumers, with no glue: Hugging Face ``datasets`` and
open_clip's own WebDataset loader (the versions of requirements/test.lock)."""

from __future__ import annotations

import io
from types import SimpleNamespace

import pytest
from PIL import Image

from tests.conftest import run_cli
from tests.train_helpers import SAMPLES, image_bytes, write_output


@pytest.fixture(scope="module")
def output(tmp_path_factory):
    return write_output(tmp_path_factory.mktemp("consumers") / "out")


def test_datasets_loads_the_output_directory_with_typed_columns(output, tmp_path, monkeypatch):
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    datasets = pytest.importorskip("datasets")
    ds = datasets.load_dataset(str(output), split="train", cache_dir=str(tmp_path / "hf"))
    assert len(ds) == len(SAMPLES)
    features = ds.features
    for ext in ("jpg", "png", "gif", "bmp"):
        assert isinstance(features[ext], datasets.Image), ext
    # typed from the schemas, never guessed from the first rows (which would make null columns)
    assert features["det.json"]["objects"].feature["xyxy"] == datasets.List(
        datasets.Value("float64")
    )
    assert features["neg.json"]["negatives"].feature["positive_index"] == datasets.Value("int64")
    assert features["json"]["image"]["orientation"] == datasets.Value("int64")
    assert features["txt"] == datasets.Value("string")
    rows = {row["__key__"]: row for row in ds}
    for key, (ext, *_rest) in SAMPLES.items():
        image = rows[key][ext]
        assert isinstance(image, Image.Image) and image.size[0] > 0, f"{key}.{ext} not decoded"
        assert all(
            rows[key][other] is None for other in ("jpg", "png", "gif", "bmp") if other != ext
        )
    assert rows["s2"]["det.json"] is None and len(rows["s1"]["det.json"]["objects"]) == 3
    assert rows["s1"]["neg.json"]["negatives"] == []
    assert rows["s0"]["neg.json"]["negatives"][0]["level"] == "caption"
    index = datasets.load_dataset(
        "parquet",
        data_files=str(output / "*.parquet"),
        split="train",
        cache_dir=str(tmp_path / "hf"),
    )
    assert len(index) == len(SAMPLES) and {"shard", "offset", "size"} <= set(index.column_names)


@pytest.mark.slow
def test_open_clip_reads_the_output_with_no_extra_arguments(tmp_path):
    """open_clip's get_wds_dataset counts the samples from sizes.json (without it, it refuses
    to start without --train-num-samples) and, with --image-format jpg, sees every sample
    (it skips gif and bmp members without a word)."""
    pytest.importorskip("open_clip_train")
    torch = pytest.importorskip("torch")
    from open_clip_train.data import get_wds_dataset

    folder = tmp_path / "images"
    folder.mkdir()
    captions = {}
    for key, (ext, sideways, *_rest) in SAMPLES.items():
        (folder / f"{key}.{ext}").write_bytes(image_bytes(ext, sideways))
        captions[key] = f"a red block on a blue wall number {key[1:]}"
        (folder / f"{key}.txt").write_text(captions[key])
    pipeline = tmp_path / "pipe.yaml"
    pipeline.write_text(
        f"input: {folder}\noutput: {tmp_path / 'out'}\nshard_size: 2\n"
        "stages:\n  parse: {parser: spacy}\n"
    )
    run_cli("run", pipeline, "--image-format", "jpg", "--no-progress", "--workers", "1")
    out = tmp_path / "out"

    args = SimpleNamespace(
        train_data=str(out / "{00000..00002}.tar"),
        val_data=None,
        dataset_resampled=False,
        train_num_samples=None,
        train_data_upsampling_factors=None,
        seed=0,
        batch_size=1,
        world_size=1,
        workers=0,
    )

    def preprocess(image):
        assert image.size == (40, 60), "upright (the EXIF-rotated one too)"
        return torch.zeros(1)

    info = get_wds_dataset(args, preprocess, is_train=True, tokenizer=lambda text: [text])
    assert info.dataloader.num_samples == len(SAMPLES)
    seen = []
    for _images, texts in info.dataloader:
        seen += texts
        if len(seen) == len(SAMPLES):
            break
    assert sorted(seen) == sorted(captions.values()), "every sample, gif and bmp included"
    formats = {
        Image.open(io.BytesIO(p.read_bytes())).format
        for p in folder.glob("s*.*")
        if p.suffix != ".txt"
    }
    assert formats == {"JPEG", "PNG", "GIF", "BMP"}


def test_datasets_and_webdataset_read_gzip_shards(tmp_path, monkeypatch):
    """--compression gzip: `datasets.load_dataset(OUT)` and `sgprep.data.webdataset` read the
    .tar.gz shards of a text-only output, every row, with the graph typed."""
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    datasets = pytest.importorskip("datasets")
    import sgprep.data as sd

    captions = tmp_path / "captions.txt"
    captions.write_text("".join(f"a red cat on a blue mat number {i}\n" for i in range(7)))
    out = tmp_path / "out"
    run_cli("parse", captions, "-o", out, "--compression", "gzip", "--shard-size", "4",
            "--no-progress", "--workers", "1")  # fmt: skip
    assert sorted(p.name for p in out.glob("*.tar*")) == ["00000.tar.gz", "00001.tar.gz"]
    ds = datasets.load_dataset(str(out), split="train", cache_dir=str(tmp_path / "hf"))
    assert len(ds) == 7 and sorted(ds["txt"])[0] == "a red cat on a blue mat number 0"
    assert ds.features["sg.json"]["entities"].feature["text"] == datasets.Value("string")
    samples = list(sd.webdataset(out, decode=False))
    assert len(samples) == 7
