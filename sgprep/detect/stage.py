"""The detect stage: image -> object boxes (top-N) and pair boxes (top-M) in ``det``.

Images are decoded and letterboxed in a thread pool; while the detector works on one batch,
the next batch (when the stage is driven by ``run``) is already being decoded.

Samples whose image bytes are the same (COCO: five captions per image) are decoded and
detected once per shard: the boxes are kept by the image's SHA-256 until the shard ends (the
executor takes the stage's stats then) and copied to each later sample, which gets its own
``entity_boxes``. The cache starts empty with every shard, so a shard's bytes do not depend on
what the worker ran before it, and a rerun of the shard makes the same ones.
"""

from __future__ import annotations

import hashlib
from collections import Counter, OrderedDict

import numpy as np

from sgprep.config import RunContext
from sgprep.detect.base import Detector, DetectSettings, make_detector, pick_backend, unletterbox
from sgprep.detect.decode import DecodeError, Decoder, Frame
from sgprep.detect.link import link
from sgprep.detect.pairs import top_pairs
from sgprep.exec.stage import Resources, Stage
from sgprep.schema import Box, Detections, Sample

COORD_DECIMALS = 2  # 1/100 pixel: finer than any detector, and stable bytes
SCORE_DECIMALS = 5
SEEN_IMAGES = 4096  # detections kept for reuse, by image digest (oldest dropped first)


class DetectStage(Stage):
    name = "detect"
    Settings = DetectSettings
    provides = frozenset({"det"})
    needs_images = True

    def __init__(self, settings: DetectSettings | None = None, context: RunContext | None = None):
        super().__init__(settings, context)
        self.detector: Detector | None = None  # made in setup(): it imports the backend
        self._decoder: Decoder | None = None
        self._next: dict[int, list[Sample]] = {}
        self._counts: Counter[str] = Counter()
        # image digest -> its detections (entity_boxes unset) or why it could not be decoded
        self._seen: OrderedDict[bytes, Detections | DecodeError] = OrderedDict()
        self._submitted: dict[bytes, int] = {}  # digest -> id of the sample queued to decode it
        self.threads: int | None = None  # granted by the executor (place); None: all cores

    def resources(self) -> Resources:
        gpu = pick_backend(self.settings) == "torch" and self.settings.device != "cpu"
        return Resources(cpus=1.0, gpus=1.0 if gpu else 0.0)

    def place(self, gpus: int, cpus: int) -> None:
        self.threads = max(1, cpus)

    def check(self) -> None:
        """The weights can be had (a local file, sgprep's cache, or a download when online);
        fetched here, once, in the driver, so workers find them in the cache."""
        from sgprep.detect.weights import check_checkpoint, resolve_weights
        from sgprep.errors import ModelUnavailable

        try:
            check_checkpoint(resolve_weights(self.settings.weights))
        except ImportError as exc:  # no ultralytics: nothing can load or fetch weights
            raise ModelUnavailable(
                f"the detect stage needs the detect extra ({exc.name} is not installed): "
                f'pip install "sgprep[detect]"'
            ) from None

    def setup(self) -> None:
        self.detector = make_detector(self.settings)
        self.detector.threads = self.threads
        self.detector.setup()
        s = self.settings
        decoders = s.decode_workers
        if self.threads is not None and "decode_workers" not in s.model_fields_set:
            decoders = min(decoders, self.threads)  # the default follows the granted cores
        self._decoder = Decoder(
            decoders, s.imgsz, self.context.max_image_pixels, prepare=self.detector.prepare
        )
        self._counts = Counter()
        self._seen.clear()

    def run(self, samples, on_batch=None, budget=None):
        """Stage.run, with each batch's successor queued for decoding while it is detected."""
        todo = [s for s in samples if s.ok]
        batches = list(self._batches(todo, budget))  # as Stage.run cuts them
        self._next = {id(b[0]): nxt for b, nxt in zip(batches, batches[1:])}
        try:
            return super().run(samples, on_batch, budget)
        finally:
            self._next = {}
            self._submitted = {}
            for sample in todo:  # anything queued but never taken
                if self._decoder is not None:
                    self._decoder.discard(id(sample))

    @staticmethod
    def _digest(sample: Sample) -> bytes:
        return hashlib.sha256(sample.image).digest()

    def _queue(self, batch: list[Sample]) -> None:
        """Send each image not yet detected (nor already on its way) to the decoders."""
        for sample in batch:
            if sample.image is None:
                continue
            digest = self._digest(sample)
            if digest not in self._seen and digest not in self._submitted:
                self._submitted[digest] = id(sample)
                self._decoder.submit(id(sample), sample.image)

    def _decoded(self, sample: Sample, digest: bytes) -> Frame | DecodeError:
        queued = self._submitted.pop(digest, None)
        if queued is None:  # its detections were dropped from the cache after it was queued
            queued = id(sample)
            self._decoder.submit(queued, sample.image)
        return self._decoder.result(queued)

    def process_batch(self, batch: list[Sample]) -> list[Sample]:
        if self.detector is None:
            raise RuntimeError("DetectStage.setup() must run before process_batch()")
        self._queue(batch)
        if batch:
            self._queue(self._next.pop(id(batch[0]), []))
        waiting: list[tuple[Sample, bytes]] = []
        known: dict[bytes, Detections | DecodeError] = {}  # images this shard has seen before
        fresh: dict[bytes, Frame | DecodeError] = {}  # images new to this shard, first seen here
        for sample in batch:
            if sample.image is None:
                self._fail(sample, "no_image", "sample has no image to detect objects in")
                continue
            digest = self._digest(sample)
            if digest in self._seen:
                known[digest] = self._seen[digest]
            elif digest not in fresh:
                fresh[digest] = self._decoded(sample, digest)
            waiting.append((sample, digest))
        frames = [(d, got) for d, got in fresh.items() if not isinstance(got, DecodeError)]
        rows = self.detector.infer([frame.input for _, frame in frames])
        if len(rows) != len(frames):
            raise RuntimeError(f"detector returned {len(rows)} results for {len(frames)} images")
        new: dict[bytes, Detections | DecodeError] = dict(fresh)
        for (digest, frame), found in zip(frames, rows):
            new[digest] = self._detections(frame, found)
        for digest, result in new.items():
            self._seen[digest] = result
            while len(self._seen) > SEEN_IMAGES:
                self._seen.popitem(last=False)
        known.update(new)
        for sample, digest in waiting:
            result = known[digest]
            if new.pop(digest, None) is None:  # not the first sample of an image new here
                self._counts["images_reused"] += 1
            if isinstance(result, DecodeError):
                self._fail(sample, result.reason, result.message)
                continue
            sample.det = result.model_copy(deep=True)
            if sample.sg is not None:
                links = link(sample.sg, sample.det.objects)
                sample.det.entity_boxes = links.boxes
                self._counts["entities"] += len(links.boxes)
                self._counts["entities_linked"] += sum(b is not None for b in links.boxes)
                self._counts["spatial_relations_linked"] += links.placed
                self._counts["spatial_relations_agree"] += links.agree
            self._counts["images"] += 1
            self._counts["objects"] += len(sample.det.objects)
            self._counts["pairs"] += len(sample.det.pairs)
        return batch

    def _fail(self, sample: Sample, reason: str, message: str) -> None:
        sample.fail(self.name, reason, message)
        self._counts[f"failed/{reason}"] += 1

    def _detections(self, frame: Frame, found: np.ndarray) -> Detections:
        det = self.detector
        found = np.nan_to_num(np.asarray(found, dtype=np.float64)).reshape(-1, 6)
        found = found[: self.settings.top_objects]
        xyxy = unletterbox(found[:, :4], frame.input) * np.tile(frame.scale, 2)
        xyxy[:, [0, 2]] = np.clip(xyxy[:, [0, 2]], 0, frame.width)
        xyxy[:, [1, 3]] = np.clip(xyxy[:, [1, 3]], 0, frame.height)
        xyxy = np.round(xyxy, COORD_DECIMALS)
        scores = np.round(np.clip(found[:, 4], 0.0, 1.0), SCORE_DECIMALS)
        objects = [
            Box(
                xyxy=tuple(float(v) for v in box),
                score=float(score),
                cls=int(cls),
                label=det.labels.get(int(cls), str(int(cls))),
            )
            for box, score, cls in zip(xyxy, scores, found[:, 5])
        ]
        return Detections(
            width=frame.width,
            height=frame.height,
            detector=det.model_name,
            weights_sha256=det.weights_sha256,
            backend=det.name,
            objects=objects,
            pairs=top_pairs(objects, self.settings.top_pairs),
        )

    def teardown(self) -> None:
        if self._decoder is not None:
            self._decoder.close()
            self._decoder = None
        if self.detector is not None:
            self.detector.teardown()
            self.detector = None

    def stats(self) -> dict[str, int]:
        return dict(self._counts)

    def take_stats(self) -> dict[str, int]:
        """The shard's counts; the executor takes them when the shard ends, so the images seen
        are forgotten here too (see the module's docstring)."""
        self._seen.clear()
        return super().take_stats()
