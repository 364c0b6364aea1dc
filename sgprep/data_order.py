"""The order in which :mod:`sgprep.data` yields samples: shuffled per epoch, and spread so that
no batch holds two captions of one image.

COCO-style inputs have several captions per image, written one after another (the reader keeps
them together so that detect runs once per image and ``shared_images`` stores it once). Read in
that order, or through a shuffle buffer that only mixes them a little, an image's captions share
batches and the image becomes its own contrastive negative. :func:`spread` holds a caption back
until ``distance`` samples have passed since its image's last one; any batch of at most
``distance`` consecutive samples (a ``DataLoader`` batch comes from one worker's stream) then
holds each image once.

The epoch is an :class:`Epoch`: a number in shared memory that ``DataLoader`` workers, persistent
or not, read when they start an epoch; the shuffles and the negative draw are seeded from it.
"""

from __future__ import annotations

import hashlib
import multiprocessing
import random
from collections import deque
from collections.abc import Iterable, Iterator
from typing import Any

from sgprep.io.images import IMAGE_EXTENSIONS


class Epoch:
    """The epoch of a pipeline, in shared memory: set in the main process with
    ``pipeline.set_epoch(n)`` before iterating the loader; read by every ``DataLoader`` worker
    when it starts the epoch, persistent workers included (they keep the dataset object they
    got when they started, so a plain attribute set later never reaches them)."""

    def __init__(self, epoch: int = 0):
        self._value = multiprocessing.RawValue("q", int(epoch))

    def __call__(self, epoch: int) -> None:
        self._value.value = int(epoch)

    def get(self) -> int:
        return int(self._value.value)


def seeded(*parts: Any) -> random.Random:
    """A generator seeded from ``parts`` (the same in any process: no ``hash()``)."""
    digest = hashlib.sha256("\x00".join(map(str, parts)).encode()).digest()
    return random.Random(int.from_bytes(digest[:8], "big"))


def _stream_id() -> tuple[int, int]:
    """(node rank, loader worker id) of this process: the samples' shuffle differs per stream."""
    rank = 0
    try:
        import torch.distributed as dist

        if dist.is_available() and dist.is_initialized():
            rank = dist.get_rank()
        from torch.utils.data import get_worker_info

        info = get_worker_info()
    except ImportError:
        info = None
    return rank, 0 if info is None else info.id


def shuffle_shards(shards: Iterable[Any], seed: int, epoch: Epoch) -> Iterator[Any]:
    """The shard list in an order drawn from the seed and the epoch, the same on every node and
    worker (each then takes its own part of it)."""
    items = list(shards)
    seeded(seed, epoch.get(), "shards").shuffle(items)
    yield from items


def shuffle_samples(samples: Iterable[Any], size: int, seed: int, epoch: Epoch) -> Iterator[Any]:
    """A shuffle buffer of ``size`` samples, seeded from the seed, the epoch and the stream
    (node and worker): each epoch another order, the same one for the same epoch."""
    rng = seeded(seed, epoch.get(), "samples", *_stream_id())
    buffer: list[Any] = []
    for sample in samples:
        buffer.append(sample)
        if len(buffer) >= size:
            i = rng.randrange(len(buffer))
            buffer[i], buffer[-1] = buffer[-1], buffer[i]
            yield buffer.pop()
    rng.shuffle(buffer)
    yield from buffer


def image_identity(sample: dict[str, Any]) -> bytes | str:
    """What makes two samples share an image: a digest of their image bytes (a caption sample
    of ``shared_images`` has its image joined by then); the key for a sample without one."""
    for ext in sorted(sample):
        if ext in IMAGE_EXTENSIONS and isinstance(sample[ext], bytes):
            return hashlib.blake2b(sample[ext], digest_size=16).digest()
    return sample["__key__"]


def spread(samples: Iterable[dict[str, Any]], distance: int) -> Iterator[dict[str, Any]]:
    """The samples, each held back until ``distance`` samples have passed since the last one
    with its image (oldest first among those free to go). When none is free, because more than
    ``16 * distance`` wait or the stream has ended (an image with more samples than the stream
    has other images cannot be spread that far), the one whose image came longest ago goes."""
    if distance <= 1:
        yield from samples
        return
    last: dict[bytes | str, int] = {}  # image -> position of its last sample out
    waiting: deque[tuple[bytes | str, dict[str, Any]]] = deque()
    position = 0

    def pick(force: bool) -> int | None:
        """The oldest free sample; else, with ``force``, the one whose image went longest ago."""
        best, best_at = None, position
        for i, (image, _) in enumerate(waiting):
            at = last.get(image)
            if at is None or position - at >= distance:
                return i
            if at < best_at:
                best, best_at = i, at
        return best if force else None

    def take(i: int) -> dict[str, Any]:
        nonlocal position
        image, sample = waiting[i]
        del waiting[i]
        last[image] = position
        position += 1
        if len(last) > 4 * distance:  # forget images that are far behind
            for old in [k for k, p in last.items() if position - p >= distance]:
                del last[old]
        return sample

    for sample in samples:
        waiting.append((image_identity(sample), sample))
        force = len(waiting) > 16 * distance
        i = pick(force)
        while i is not None:
            yield take(i)
            i = pick(False)
    while waiting:
        yield take(pick(True))
