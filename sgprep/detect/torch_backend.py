"""ultralytics on torch: CUDA with half precision, or CPU in float32.

The network runs in ultralytics' ``AutoBackend`` (layers fused, half precision on CUDA); its
boxes go through one NMS call for the whole batch on the device (``torch_nms``), not
ultralytics' per-image loop. The input is the letterbox every backend shares, sent as uint8
(through pinned memory on CUDA) and made a normalised BCHW tensor on the device; the boxes of
a whole batch come back in one copy.

On a CPU, torch computes with one thread and the images run one at a time, one per stream
(``Detector.streams``, one per granted core): torch's default of a thread per core, beside the
decoder's threads and other workers, oversubscribed the cores and made run times erratic.
Each stream has its own copy of the model: ultralytics' head caches its anchors for the last
input shape, so one model shared by threads running different shapes gives wrong boxes.
"""

from __future__ import annotations

import copy
import queue

import numpy as np

from sgprep.detect.base import Detector, Letterboxed, cuda_available, shape_groups
from sgprep.detect.torch_nms import batch_nms
from sgprep.detect.weights import load_yolo, resolve_weights, sha256_file


class TorchDetector(Detector):
    name = "torch"

    def gpus(self) -> float:
        device = self.settings.device
        if device is None:
            return 1.0 if cuda_available() else 0.0
        return 1.0 if device.startswith("cuda") else 0.0

    def setup(self) -> None:
        import torch

        weights = resolve_weights(self.settings.weights)
        self.weights_sha256 = sha256_file(weights)
        self.model_name = weights.stem
        device = self.settings.device or ("cuda" if torch.cuda.is_available() else "cpu")
        self.device = torch.device(device)
        if self.device.type == "cpu":
            torch.set_num_threads(1)  # process-wide: the streams bring the parallelism
            try:
                torch.set_num_interop_threads(1)
            except RuntimeError:  # settable once per process, before any parallel work
                pass
        self.half = self.device.type == "cuda"
        self._choose_rect(on_gpu=self.half)
        yolo = load_yolo(str(weights))
        self.labels = {int(k): str(v) for k, v in yolo.names.items()}
        from ultralytics.nn.autobackend import AutoBackend

        self.model = AutoBackend(
            model=yolo.model, device=self.device, fp16=self.half, fuse=True, verbose=False
        )
        self.model.eval()
        if getattr(self.model, "end2end", False):
            raise ValueError(
                f"{weights.name} is an end-to-end (NMS-free) model; the detect "
                "stage supports YOLOv5u/v8/v9/v11-style heads"
            )
        self._pinned = None
        size = self.settings.imgsz
        self.model.warmup(imgsz=(1, 3, size, size))
        self._models: queue.SimpleQueue = queue.SimpleQueue()  # one free model per stream
        self._models.put(self.model)
        if not self.half:
            for _ in range(self.streams - 1):
                self._models.put(copy.deepcopy(self.model))
            self._start_streams()

    def infer(self, inputs: list[Letterboxed]) -> list[np.ndarray]:
        if self.device.type == "cpu":
            return self._per_image(lambda x: self._infer_same_shape([x])[0], inputs)
        out: list[np.ndarray] = [np.zeros((0, 6), np.float32)] * len(inputs)
        for group in shape_groups(inputs):
            for k, rows in zip(group, self._infer_same_shape([inputs[k] for k in group])):
                out[k] = rows
        return out

    def _infer_same_shape(self, inputs: list[Letterboxed]) -> list[np.ndarray]:
        import torch

        s = self.settings
        with torch.inference_mode():
            batch = self._to_device(inputs).permute(0, 3, 1, 2)
            batch = (batch.half() if self.half else batch.float()).div_(255.0).contiguous()
            model = self._models.get()  # a model no other thread is running
            try:
                preds = model(batch)
            finally:
                self._models.put(model)
            preds = preds[0] if isinstance(preds, (list, tuple)) else preds
            found = batch_nms(preds, s.conf, s.iou, s.top_objects)
            sizes = [len(f) for f in found]
            rows = torch.cat(found).float().cpu().numpy()
        out, start = [], 0
        for n in sizes:
            out.append(rows[start : start + n][: s.top_objects])
            start += n
        return out

    def _to_device(self, inputs: list[Letterboxed]):
        """The batch as a uint8 (B, S, S, 3) tensor on the device."""
        import torch

        if self.device.type != "cuda":
            return torch.from_numpy(np.stack([x.hwc for x in inputs]))
        shape = (len(inputs), *inputs[0].hwc.shape)
        if (
            self._pinned is None
            or self._pinned.shape[0] < shape[0]
            or tuple(self._pinned.shape[1:]) != shape[1:]
        ):
            self._pinned = torch.empty(shape, dtype=torch.uint8, pin_memory=True)
        staging = self._pinned[: shape[0]]
        np.stack([x.hwc for x in inputs], out=staging.numpy())
        out = staging.to(self.device, non_blocking=True)
        # the next batch reuses the pinned buffer: wait until this copy has left it
        torch.cuda.current_stream(self.device).synchronize()
        return out

    def teardown(self) -> None:
        self._stop_streams()
        self._pinned = None
        self.model = self._models = None
        if self.half:
            import torch

            torch.cuda.empty_cache()
