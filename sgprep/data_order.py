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
import heapq
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


#: bytes of each end of an image that its identity digests (all of a smaller image)
_ENDS = 8192


def image_identity(sample: dict[str, Any]) -> bytes | str:
    """What makes two samples share an image: a digest of their image's length and first and
    last 8 KiB (a caption sample of ``shared_images`` has its image joined by then; two other
    images alike in all that would only be spread needlessly); the key for a sample without
    an image."""
    for ext in sorted(sample):
        data = sample[ext]
        if ext in IMAGE_EXTENSIONS and isinstance(data, bytes):
            ends = data if len(data) <= 2 * _ENDS else data[:_ENDS] + data[-_ENDS:]
            return hashlib.blake2b(
                ends, digest_size=16, salt=len(data).to_bytes(16, "big")
            ).digest()
    return sample["__key__"]


def spread(samples: Iterable[dict[str, Any]], distance: int) -> Iterator[dict[str, Any]]:
    """The samples, each held back until ``distance`` samples have passed since the last one
    with its image (oldest first among those free to go). When none is free, because more than
    ``16 * distance`` wait or the stream has ended (an image with more samples than the stream
    has other images cannot be spread that far), the one whose image is freed first goes."""
    if distance <= 1:
        yield from samples
        return
    spreader = _Spreader(distance)
    for sample in samples:
        spreader.add(image_identity(sample), sample)
        while spreader.free:
            yield spreader.take_free()
        if spreader.waiting > 16 * distance:
            yield spreader.take_blocked()
    while spreader.waiting:
        yield spreader.take_free() if spreader.free else spreader.take_blocked()


class _Spreader:
    """:func:`spread`'s state, each step O(log n): the waiting samples by image, a heap of the
    images free to go (by their oldest waiting sample) and, in the order they were last sent,
    the images still too close to their last sample."""

    def __init__(self, distance: int):
        self.distance = distance
        self.queues: dict[Any, deque[tuple[int, dict[str, Any]]]] = {}  # image -> waiting
        self.free: list[tuple[int, Any]] = []  # heap of (arrival of its oldest, image)
        self.blocked: deque[tuple[int, Any]] = deque()  # (position it is free from, image)
        self.last: dict[Any, int] = {}  # image -> position of its last sample, while blocked
        self.arrivals = self.position = self.waiting = 0

    def add(self, image: Any, sample: dict[str, Any]) -> None:
        queue = self.queues.get(image)
        if queue is None:
            queue = self.queues[image] = deque()
            if image not in self.last:
                heapq.heappush(self.free, (self.arrivals, image))
        queue.append((self.arrivals, sample))
        self.arrivals += 1
        self.waiting += 1

    def take_free(self) -> dict[str, Any]:
        return self._send(heapq.heappop(self.free)[1])

    def take_blocked(self) -> dict[str, Any]:
        """The oldest sample of the waiting image that is freed first."""
        for free_from, image in self.blocked:
            if image in self.queues and self.last.get(image) == free_from - self.distance:
                return self._send(image)
        raise AssertionError("samples wait, yet no image is free or blocked")

    def _send(self, image: Any) -> dict[str, Any]:
        queue = self.queues[image]
        _, sample = queue.popleft()
        if not queue:
            del self.queues[image]
        self.waiting -= 1
        self.last[image] = self.position
        self.blocked.append((self.position + self.distance, image))
        self.position += 1
        while self.blocked and self.blocked[0][0] <= self.position:
            free_from, freed = self.blocked.popleft()
            if self.last.get(freed) != free_from - self.distance:
                continue  # sent again since (take_blocked): a later entry stands for it
            del self.last[freed]
            if freed in self.queues:
                heapq.heappush(self.free, (self.queues[freed][0][0], freed))
        return sample
