"""ultralytics on torch: CUDA with half precision, or CPU in float32.

It is fed the shared letterbox as a BCHW tensor already on the device, so ultralytics runs
only the network and its NMS; the pre-processing is the one every backend shares.
"""

from __future__ import annotations

import numpy as np

from sgprep.detect.base import Detector, Letterboxed, cuda_available
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
        self.half = self.device.type == "cuda"
        self.model = load_yolo(str(weights))
        self.labels = {int(k): str(v) for k, v in self.model.names.items()}

    def infer(self, inputs: list[Letterboxed]) -> list[np.ndarray]:
        import torch

        if not inputs:
            return []
        s = self.settings
        with torch.inference_mode():
            batch = torch.from_numpy(np.stack([x.chw for x in inputs])).to(self.device)
            batch = (batch.half() if self.half else batch.float()).div_(255.0)
            results = self.model.predict(batch, conf=s.conf, iou=s.iou, imgsz=s.imgsz,
                                         device=self.device, half=self.half,
                                         max_det=max(1, s.top_objects), verbose=False)
        out = []
        for result in results:
            boxes = result.boxes
            rows = torch.cat([boxes.xyxy, boxes.conf[:, None], boxes.cls[:, None]], dim=1)
            out.append(rows.float().cpu().numpy()[: s.top_objects])
        return out

    def teardown(self) -> None:
        self.model = None
        if self.half:
            import torch

            torch.cuda.empty_cache()
