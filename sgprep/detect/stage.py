"""The detect stage: image -> object boxes (top-N) and pair boxes (top-M) in ``det``.

Images are decoded and letterboxed in a thread pool; while the detector works on one batch,
the next batch (when the stage is driven by ``run``) is already being decoded.
"""

from __future__ import annotations

from collections import Counter

import numpy as np

from sgprep.detect.base import DetectSettings, Detector, make_detector, pick_backend, unletterbox
from sgprep.detect.decode import Decoder, DecodeError, Frame
from sgprep.detect.link import entity_boxes
from sgprep.detect.pairs import top_pairs
from sgprep.config import RunContext
from sgprep.exec.stage import Resources, Stage
from sgprep.schema import Box, Detections, Sample

COORD_DECIMALS = 2  # 1/100 pixel: finer than any detector, and stable bytes
SCORE_DECIMALS = 5


class DetectStage(Stage):
    name = "detect"
    Settings = DetectSettings
    provides = frozenset({"det"})
    needs_images = True

    def __init__(self, settings: DetectSettings | None = None,
                 context: RunContext | None = None):
        super().__init__(settings, context)
        self.detector: Detector | None = None  # made in setup(): it imports the backend
        self._decoder: Decoder | None = None
        self._next: dict[int, list[Sample]] = {}
        self._counts: Counter[str] = Counter()
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
                f'pip install "sgprep[detect]"') from None

    def setup(self) -> None:
        self.detector = make_detector(self.settings)
        self.detector.threads = self.threads
        self.detector.setup()
        s = self.settings
        decoders = s.decode_workers
        if self.threads is not None and "decode_workers" not in s.model_fields_set:
            decoders = min(decoders, self.threads)  # the default follows the granted cores
        self._decoder = Decoder(decoders, s.imgsz, self.context.max_image_pixels,
                                prepare=self.detector.prepare)
        self._counts = Counter()

    def run(self, samples, on_batch=None):
        """Stage.run, with each batch's successor queued for decoding while it is detected."""
        todo = [s for s in samples if s.ok]
        batches = [todo[k:k + self.batch_size] for k in range(0, len(todo), self.batch_size)]
        self._next = {id(b[0]): nxt for b, nxt in zip(batches, batches[1:])}
        try:
            return super().run(samples, on_batch)
        finally:
            self._next = {}
            for sample in todo:  # anything queued but never taken
                if self._decoder is not None:
                    self._decoder.discard(id(sample))

    def _queue(self, batch: list[Sample]) -> None:
        for sample in batch:
            if sample.image is not None:
                self._decoder.submit(id(sample), sample.image)

    def process_batch(self, batch: list[Sample]) -> list[Sample]:
        if self.detector is None:
            raise RuntimeError("DetectStage.setup() must run before process_batch()")
        self._queue(batch)
        if batch:
            self._queue(self._next.pop(id(batch[0]), []))
        frames: list[tuple[Sample, Frame]] = []
        for sample in batch:
            if sample.image is None:
                self._fail(sample, "no_image", "sample has no image to detect objects in")
                continue
            got = self._decoder.result(id(sample))
            if isinstance(got, DecodeError):
                self._fail(sample, got.reason, got.message)
            else:
                frames.append((sample, got))
        rows = self.detector.infer([frame.input for _, frame in frames])
        if len(rows) != len(frames):
            raise RuntimeError(f"detector returned {len(rows)} results for {len(frames)} images")
        for (sample, frame), found in zip(frames, rows):
            sample.det = self._detections(frame, found)
            if sample.sg is not None:
                links = entity_boxes(sample.sg, sample.det.objects)
                sample.det.entity_boxes = links
                self._counts["entities_linked"] += sum(b is not None for b in links)
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
            Box(xyxy=tuple(float(v) for v in box), score=float(score),
                cls=int(cls), label=det.labels.get(int(cls), str(int(cls))))
            for box, score, cls in zip(xyxy, scores, found[:, 5])
        ]
        return Detections(
            width=frame.width, height=frame.height, detector=det.model_name,
            weights_sha256=det.weights_sha256, backend=det.name, objects=objects,
            pairs=top_pairs(objects, self.settings.top_pairs))

    def teardown(self) -> None:
        if self._decoder is not None:
            self._decoder.close()
            self._decoder = None
        if self.detector is not None:
            self.detector.teardown()
            self.detector = None

    def stats(self) -> dict[str, int]:
        return dict(self._counts)
