"""Read an sgprep output in a trainer: shard URLs, sample counts, a WebDataset pipeline that a
torch ``DataLoader`` consumes, and a reference collate.

    import sgprep.data as sd
    from torch.utils.data import DataLoader

    pipeline = sd.webdataset("out", negatives="caption", boxes="normalized", transform=preprocess)
    loader = DataLoader(pipeline, batch_size=64, num_workers=8, persistent_workers=True,
                        collate_fn=sd.Collate(seed=0))
    for epoch in range(epochs):
        pipeline.set_epoch(epoch)                  # another order, other negatives
        for batch in loader:
            batch["image"], batch["caption"], batch["negative"], batch["has_negative"]
            batch["boxes"], batch["box_mask"]      # (B, N, 4) padded, (B, N) True for real boxes

The order is shuffled and spread (no batch holds two captions of one image; see
:mod:`sgprep.data_order`); ``Collate(extras=...)`` adds the scene graph, entity and pair boxes,
sub-graph positives and mined distractor images (:mod:`sgprep.data_batch`). docs/training.md
has a loop per seed method.

Each sample of the pipeline is a dict (see :func:`to_sample`): the image turned upright (its
EXIF orientation applied, so pixels and ``det.json``'s boxes agree) and RGB, the caption, the
negatives asked for and the positive each falsifies, the boxes (normalised to [0, 1] of the
upright image, or pixels), their labels and scores, and the scene graph. A sample without
``det.json`` (detect did not run, or the output predates it) has no boxes, never a missing key;
one without negatives has an empty list. Nothing here needs sgprep's models: only the files of
the output.
"""

from __future__ import annotations

import hashlib
import io
import json
from collections.abc import Callable, Iterable, Iterator
from functools import partial
from pathlib import Path
from typing import Any

from sgprep import data_order as order
from sgprep.data_batch import EXTRAS as EXTRAS
from sgprep.data_batch import add_extras, check_extras, padded
from sgprep.data_mined import Distractors, add_distractors
from sgprep.io.card import SIZES
from sgprep.io.images import IMAGE_EXTENSIONS
from sgprep.schema import OutputDir

#: negatives= choices: the caption's own (what NegCLIP-style losses contrast with the caption),
#: every negative of every positive, or none.
NEGATIVES = ("caption", "all", "none")
BOXES = ("normalized", "pixels", "none")


def _stats_files(out: Path) -> list[Path]:
    return OutputDir(out).stats_files()


def sizes(out: str | Path) -> dict[str, int]:
    """``{"00000.tar": ok samples, ...}`` of the finished shards, from their stats files: the
    samples this module yields (with ``shared_images`` every caption, joined to its image,
    where ``sizes.json`` counts only the samples that hold an image, which is what open_clip
    sees); ``sizes.json`` where the stats files are gone (tars copied without them)."""
    out = Path(out)
    found = {}
    for path in _stats_files(out):
        stats = json.loads(path.read_text())
        tars = [n for n in stats.get("files", {}) if n.endswith(OutputDir.TAR_SUFFIXES)]
        found[tars[0] if tars else f"{stats['shard']}.tar"] = stats["ok"]
    if found:
        return found
    try:
        return json.loads((out / SIZES).read_text())
    except FileNotFoundError:
        raise FileNotFoundError(
            f"{out} holds no finished sgprep shard (NNNNN_stats.json)"
        ) from None


def urls(out: str | Path) -> list[str]:
    """The paths of the finished shards' tars (``.tar``, or ``.tar.gz`` with ``compression:
    gzip``), in order (a WebDataset shard list)."""
    out = Path(out)
    return [str(out / name) for name in sorted(sizes(out))]


def num_samples(out: str | Path) -> int:
    return sum(sizes(out).values())


def _pick_image(sample: dict[str, Any]) -> tuple[str | None, bytes | None]:
    for ext in sorted(sample):
        if ext in IMAGE_EXTENSIONS:
            return ext, sample[ext]
    return None, None


def join_shared_images(samples: Iterable[dict[str, Any]]) -> Iterable[dict[str, Any]]:
    """A WebDataset stage: give a sample written with ``shared_images`` (no image member,
    ``json.image_key`` set) the image of the sample it names, which came just before it in the
    same tar. Put it before any sample shuffle (:func:`webdataset` does)."""
    last: tuple[Any, str, str, bytes] | None = None  # (url, key, ext, bytes)
    for raw in samples:
        ext, data = _pick_image(raw)
        if data is not None:
            last = (raw.get("__url__"), raw["__key__"], ext, data)
        elif last is not None and last[0] == raw.get("__url__"):
            info = _json(raw, "json") or {}
            if info.get("image_key") == last[1]:
                raw = {**raw, last[2]: last[3]}
        yield raw


def decode_image(data: bytes):
    """The image upright (EXIF orientation applied) and RGB, as det.json's boxes see it."""
    from PIL import Image, ImageOps

    with Image.open(io.BytesIO(data)) as img:
        upright = ImageOps.exif_transpose(img)
        return upright.convert("RGB")


def load_image(
    data: bytes, decode: bool = True, transform: Callable[[Any], Any] | None = None
) -> Any:
    """A sample's image as the pipeline gives it: decoded upright and RGB (``decode``), then
    through ``transform``."""
    image = decode_image(data) if decode else data
    return transform(image) if transform is not None else image


def _json(sample: dict[str, Any], ext: str) -> dict[str, Any] | None:
    data = sample.get(ext)
    if data is None:
        return None
    return json.loads(data) if isinstance(data, (bytes, str)) else data


def _negatives(neg: dict[str, Any] | None, caption: str, which: str) -> list[dict[str, Any]]:
    if not neg or which == "none":
        return []
    items = neg.get("negatives", [])
    if which == "all":
        return list(items)
    # the caption's own: by index where the output records it, by text in older outputs
    return [
        n
        for n in items
        if (n.get("positive_index") == 0 if "positive_index" in n else n.get("positive") == caption)
        and n.get("kind") != "mined_image"
    ]


def _boxes(
    det: dict[str, Any] | None, mode: str
) -> tuple[list[list[float]], list[str], list[float]]:
    if not det or mode == "none":
        return [], [], []
    w, h = float(det["width"]), float(det["height"])
    boxes, labels, scores = [], [], []
    for obj in det.get("objects", []):
        x1, y1, x2, y2 = obj["xyxy"]
        boxes.append([x1 / w, y1 / h, x2 / w, y2 / h] if mode == "normalized" else [x1, y1, x2, y2])
        labels.append(obj["label"])
        scores.append(obj["score"])
    return boxes, labels, scores


def _positive_index(negative: dict[str, Any], neg: dict[str, Any]) -> int:
    if "positive_index" in negative:
        index = negative["positive_index"]
        return -1 if index is None else index
    texts = [p["text"] for p in neg.get("positives", [])]  # older outputs: by text
    return texts.index(negative["positive"]) if negative.get("positive") in texts else -1


def to_sample(
    raw: dict[str, Any],
    negatives: str = "caption",
    boxes: str = "normalized",
    transform: Callable[[Any], Any] | None = None,
    decode: bool = True,
) -> dict[str, Any]:
    """A WebDataset sample dict of an sgprep tar -> the trainer's sample dict."""
    ext, data = _pick_image(raw)
    caption = raw["txt"].decode("utf-8") if isinstance(raw.get("txt"), bytes) else raw.get("txt")
    image = load_image(data, decode, transform) if data is not None else None
    neg = _json(raw, "neg.json")
    det = _json(raw, "det.json")
    chosen = _negatives(neg, caption or "", negatives)
    xyxy, labels, scores = _boxes(det, boxes)
    return {
        "key": raw["__key__"],
        "image": image,
        "image_format": ext,
        "caption": caption,
        "negatives": [n["text"] for n in chosen],
        "negative_kinds": [n["kind"] for n in chosen],
        # which of `positives` each negative falsifies (-1: a mined image negative)
        "positive_index": [_positive_index(n, neg) for n in chosen],
        "positives": [p["text"] for p in (neg or {}).get("positives", [])] or [caption],
        "boxes": xyxy,
        "labels": labels,
        "scores": scores,
        "has_det": det is not None,
        "entity_boxes": (det or {}).get("entity_boxes") or [],
        "sg": _json(raw, "sg.json"),
        "info": _json(raw, "json"),
    }


def webdataset(
    out: str | Path,
    negatives: str = "caption",
    boxes: str = "normalized",
    transform: Callable[[Any], Any] | None = None,
    shuffle: int = 1000,
    seed: int = 0,
    decode: bool = True,
    spread: int = 256,
    epoch: int = 0,
    distractors: int = 0,
):
    """A WebDataset pipeline (a torch ``IterableDataset``) over the finished shards of ``out``,
    yielding :func:`to_sample` dicts; hand it to a ``DataLoader``: shards are split over its
    workers and over the nodes of a ``torch.distributed`` job. ``shuffle``: a sample shuffle
    buffer of that size, after shuffling the shard order (both drawn from ``seed`` and the
    epoch); 0 keeps file order. ``spread``: no two samples of one image (an image's captions)
    come within ``spread`` samples of each other, so no batch of up to that size holds both
    (see :mod:`sgprep.data_order`); 0 turns it off. ``pipeline.set_epoch(n)`` before each
    epoch's loop draws another order and other negatives (:class:`Collate`), also in
    persistent workers; ``epoch``: the one it starts in. ``transform``: applied in the worker
    to the upright RGB PIL image (open_clip's ``preprocess``, torchvision transforms).
    ``distractors``: up to that many mined distractor images per sample (Cola; the output's
    ``_meta/mined_images.parquet``, see :mod:`sgprep.data_mined`), each with the binding true
    of it and the one true of the sample's image; ``Collate(extras=["distractors"])`` batches
    them. Built
    from webdataset's own stages, so it works with the 0.2 releases that open_clip needs and
    with 1.x."""
    import webdataset as wds

    if negatives not in NEGATIVES:
        raise ValueError(f"negatives={negatives!r}: choose from {NEGATIVES}")
    if boxes not in BOXES:
        raise ValueError(f"boxes={boxes!r}: choose from {BOXES}")
    shards = urls(out)  # read once: each call reads the shards' stats files
    mined = Distractors(out, distractors, seed) if distractors else None
    at = order.Epoch(epoch)
    stages: list[Any] = [wds.SimpleShardList(shards)]
    if shuffle:
        stages.append(partial(order.shuffle_shards, seed=seed, epoch=at))
    stages += [
        wds.split_by_node,
        wds.split_by_worker,
        partial(_say_idle, shards=len(shards), out=str(out)),
        wds.tarfile_to_samples(),
        join_shared_images,
    ]
    if shuffle:
        stages.append(partial(order.shuffle_samples, size=shuffle, seed=seed, epoch=at))
    if spread:
        stages.append(partial(order.spread, distance=spread))
    stages.append(
        partial(
            _samples,
            epoch=at,
            to_sample=partial(
                to_sample, negatives=negatives, boxes=boxes, transform=transform, decode=decode
            ),
        )
    )
    if mined is not None:
        load = partial(load_image, decode=decode, transform=transform)
        stages.append(partial(add_distractors, distractors=mined, load=load))
    pipeline = wds.DataPipeline(*stages)
    pipeline.set_epoch = at  # pipeline.set_epoch(n): shared with the loader's workers
    return pipeline


def _samples(
    raws: Iterable[dict[str, Any]], epoch: order.Epoch, to_sample: Callable[..., dict[str, Any]]
) -> Iterator[dict[str, Any]]:
    """:func:`to_sample` of each, stamped with the epoch this stream is in (read once, when
    the worker starts the epoch), which :class:`Collate` draws the negative from."""
    at = epoch.get()
    for raw in raws:
        yield {**to_sample(raw), "epoch": at}


def _say_idle(shard_urls: Iterable[Any], shards: int, out: str) -> Iterator[Any]:
    """The shards of this loader worker, passed on; a worker that got none says so once
    (``num_workers=8`` over 2 shards leaves 6 workers idle, which nothing else tells)."""
    got = 0
    for url in shard_urls:
        got += 1
        yield url
    if not got:
        import warnings

        from torch.utils.data import get_worker_info

        info = get_worker_info()
        if info is not None and info.num_workers > shards:
            warnings.warn(
                f"DataLoader worker {info.id} of {info.num_workers} got no shard of {out}, "
                f"which has {shards}: use num_workers <= {shards} (len(sgprep.data.urls(out)))",
                stacklevel=2,
            )


def _choice(seed: int, key: str, n: int) -> int:
    digest = hashlib.sha256(f"{seed}\x00{key}".encode()).digest()
    return int.from_bytes(digest[:8], "big") % n


class Collate:
    """Batches :func:`to_sample` dicts. One negative per sample, chosen from a hash of
    ``seed``, the sample's epoch and its key (the same in any worker, batch or order):
    :func:`webdataset` stamps each sample with its pipeline's epoch (``pipeline.set_epoch``),
    and ``epoch`` stands in for samples made otherwise. ``has_negative`` is False, and
    ``negative`` "", for a sample that has none. Boxes are padded to the batch's largest
    count: ``boxes`` (B, N, 4) float32, ``box_mask`` (B, N) bool, ``scores`` (B, N). Images
    are stacked when they are tensors of one shape (after a ``transform``), else kept as a
    list. ``extras``: what else the batch carries, from :data:`sgprep.data_batch.EXTRAS`
    (``graph``, ``entity_boxes``, ``pair_boxes``, ``positives``, ``distractors``; see
    there)."""

    def __init__(self, seed: int = 0, epoch: int = 0, extras: Iterable[str] = ()):
        self.seed, self.epoch, self.extras = seed, epoch, check_extras(extras)

    def __call__(self, samples: list[dict[str, Any]]) -> dict[str, Any]:
        import torch

        negative, kind, has = [], [], []
        for s in samples:
            if s["negatives"]:
                epoch = s.get("epoch", self.epoch)
                i = _choice(self.seed * 1_000_003 + epoch, s["key"], len(s["negatives"]))
                negative.append(s["negatives"][i])
                kind.append(s["negative_kinds"][i])
                has.append(True)
            else:
                negative.append("")
                kind.append(None)
                has.append(False)
        boxes, mask = padded([s["boxes"] for s in samples], 4)
        scores, _ = padded([s["scores"] for s in samples])
        images = [s["image"] for s in samples]
        if (
            images
            and all(isinstance(x, torch.Tensor) for x in images)
            and len({tuple(x.shape) for x in images}) == 1
        ):
            images = torch.stack(images)
        batch = {
            "key": [s["key"] for s in samples],
            "image": images,
            "caption": [s["caption"] for s in samples],
            "negative": negative,
            "negative_kind": kind,
            "has_negative": torch.tensor(has, dtype=torch.bool),
            "boxes": boxes,
            "box_mask": mask,
            "scores": scores,
            "labels": [s["labels"] for s in samples],
            "has_det": torch.tensor([s["has_det"] for s in samples], dtype=torch.bool),
        }
        add_extras(batch, samples, self.extras)
        return batch


def collate(samples: Iterable[dict[str, Any]]) -> dict[str, Any]:
    """:class:`Collate` with seed 0, epoch 0."""
    return Collate()(list(samples))
