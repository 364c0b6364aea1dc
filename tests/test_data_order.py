"""sgprep.data's order: no batch holds two captions of one image by default (COCO-style
outputs write an image's captions one after another), and each epoch another order and other
negatives, also in persistent DataLoader workers."""

from __future__ import annotations

from collections import Counter

import pytest

from tests.train_helpers import write_coco_style

torch = pytest.importorskip("torch")
pytest.importorskip("webdataset")

import sgprep.data as sd  # noqa: E402
from sgprep import data_order  # noqa: E402

BATCH = 32


@pytest.fixture(scope="module")
def coco_style(tmp_path_factory):
    return write_coco_style(tmp_path_factory.mktemp("coco") / "out")


def same_image_pairs(keys: list[str]) -> int:
    """Pairs of samples of one image among ``keys`` (``IMAGE_N``)."""
    counts = Counter(k.split("_")[0] for k in keys)
    return sum(n * (n - 1) // 2 for n in counts.values())


def pairs_per_batch(loader) -> float:
    pairs = [same_image_pairs(batch["key"]) for batch in loader]
    return sum(pairs) / len(pairs)


def loader(pipeline, workers=0, **kwargs):
    from torch.utils.data import DataLoader

    return DataLoader(
        pipeline, batch_size=BATCH, num_workers=workers, collate_fn=sd.Collate(), **kwargs
    )


def test_by_default_no_batch_holds_two_captions_of_one_image(coco_style):
    plain = pairs_per_batch(loader(sd.webdataset(coco_style, decode=False, shuffle=0, spread=0)))
    shuffled = pairs_per_batch(loader(sd.webdataset(coco_style, decode=False, spread=0)))
    default = pairs_per_batch(loader(sd.webdataset(coco_style, decode=False)))
    two_workers = pairs_per_batch(loader(sd.webdataset(coco_style, decode=False), workers=2))
    assert plain > 50 and shuffled > 1  # file order: ~6 images of 5 captions a batch
    assert default < 0.5 and two_workers < 0.5, (default, two_workers)
    keys = [k for b in loader(sd.webdataset(coco_style, decode=False), workers=2) for k in b["key"]]
    assert sorted(keys) == sorted(f"{i}_{n}" for i in range(200) for n in range(5))


def test_spread_keeps_an_images_samples_apart_and_drops_none():
    samples = [{"__key__": f"{i}_{n}", "png": bytes([i])} for i in range(40) for n in range(5)]
    out = list(data_order.spread(samples, distance=8))
    assert sorted(s["__key__"] for s in out) == sorted(s["__key__"] for s in samples)
    where: dict[bytes, list[int]] = {}
    for position, s in enumerate(out):
        where.setdefault(s["png"], []).append(position)
    gaps = [b - a for p in where.values() for a, b in zip(p, p[1:])]
    # only the stream's tail, with too few other images left, may come closer
    assert sum(g < 8 for g in gaps) <= 4 * 8 // 8 + 4
    assert list(data_order.spread(samples, distance=0)) == samples
    # one image with more samples than can be spread: all of them still come, in a bounded wait
    crowded = [{"__key__": f"a_{n}", "png": b"a"} for n in range(300)] + samples[:10]
    out = list(data_order.spread(crowded, distance=4))
    assert sorted(s["__key__"] for s in out) == sorted(s["__key__"] for s in crowded)
    # at most 16 x distance wait: another image goes as it comes, not after the whole crowd
    assert out.index(samples[0]) <= 300 - 16 * 4 + 1


def _epoch(pipeline, loaded, epoch: int) -> tuple[list[str], list[str]]:
    pipeline.set_epoch(epoch)
    keys, negatives = [], []
    for batch in loaded:
        keys += batch["key"]
        negatives += batch["negative"]
    return keys, negatives


def test_persistent_workers_reshuffle_and_redraw_negatives_each_epoch(coco_style):
    pipeline = sd.webdataset(coco_style, decode=False, seed=5)
    loaded = loader(pipeline, workers=2, persistent_workers=True)
    first = _epoch(pipeline, loaded, 0)
    second = _epoch(pipeline, loaded, 1)
    again = _epoch(pipeline, loaded, 0)
    assert sorted(first[0]) == sorted(second[0])
    assert first[0] != second[0], "epoch 1 has another order"
    drawn = dict(zip(*first))
    redrawn = dict(zip(*second))
    changed = sum(drawn[k] != redrawn[k] for k in drawn)
    assert changed > len(drawn) / 2, f"{changed} of {len(drawn)} negatives re-drawn"
    assert again == first, "the same epoch and seed give the same order and negatives"
    fresh = sd.webdataset(coco_style, decode=False, seed=5)
    assert _epoch(fresh, loader(fresh, workers=2), 1) == second  # non-persistent workers too
