"""The fast CPU path: the weights exported to ONNX once, run by onnxruntime, NMS in numpy.

The export is cached in sgprep's cache folder (``$SGPREP_CACHE/onnx``), never beside the weights,
named by the weights' SHA-256, so changed weights are never served a stale graph. Once the
export exists, neither torch nor ultralytics is imported.
"""

from __future__ import annotations

import ast
import logging
import os
import shutil
import tempfile
import warnings
from pathlib import Path

import numpy as np

from sgprep.detect.base import Detector, Letterboxed
from sgprep.detect.nms import postprocess
from sgprep.detect.weights import cache_dir, quiet_environment, resolve_weights, sha256_file
from sgprep.io.safefs import make_dirs

log = logging.getLogger(__name__)


def onnx_path_for(weights: Path, sha256: str, imgsz: int | None) -> Path:
    """Where the export of these weights lives: input size fixed to ``imgsz``, or any (None).
    Always in sgprep's own cache (``onnx/``, a real folder, never a link), never beside the
    weights: a weights path may point anywhere (``../../etc/passwd``), and nothing is written
    there."""
    name = f"{weights.stem}-{sha256[:16]}-{imgsz or 'any'}.onnx"
    folder = cache_dir() / "onnx"
    make_dirs(folder)
    return folder / name


def _fix_input_size(path: Path, imgsz: int) -> None:
    """Make the input's height and width fixed (the letterbox is always square): onnxruntime
    plans memory and fuses more with static spatial shapes. The batch stays dynamic."""
    import onnx
    import onnxslim

    model = onnx.load(str(path))
    dims = model.graph.input[0].type.tensor_type.shape.dim
    dims[2].dim_value = dims[3].dim_value = imgsz
    meta = {p.key: p.value for p in model.metadata_props}
    slim = onnxslim.slim(model)
    del slim.metadata_props[:]
    for key, value in meta.items():
        slim.metadata_props.add(key=key, value=value)
    onnx.save(slim, str(path))


def export_onnx(weights: Path, target: Path, imgsz: int | None) -> Path:
    """Export ``weights`` with ultralytics into ``target`` (atomically: a crash leaves none)."""
    from sgprep.detect.weights import load_yolo

    make_dirs(target.parent)
    work = Path(tempfile.mkdtemp(prefix=".export-", dir=target.parent))
    try:
        copy = work / weights.name  # ultralytics writes the .onnx beside the file it loaded
        shutil.copyfile(weights, copy)
        log.info("exporting %s to ONNX (once; cached as %s)", weights, target)
        with warnings.catch_warnings():  # torch's notes on its legacy exporter, not ours
            warnings.simplefilter("ignore", DeprecationWarning)
            exported = load_yolo(str(copy)).export(
                format="onnx", dynamic=True, simplify=True, imgsz=imgsz or 640, verbose=False
            )
            if imgsz:
                _fix_input_size(Path(exported), imgsz)
        os.replace(exported, target)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return target


class OnnxDetector(Detector):
    name = "onnx"

    def setup(self) -> None:
        quiet_environment()
        import onnxruntime as ort

        weights = resolve_weights(self.settings.weights)
        self.weights_sha256 = sha256_file(weights)
        self.model_name = weights.stem
        self._choose_rect(on_gpu=False)
        fixed = None if self._rect else self.settings.imgsz  # rect inputs vary in size
        path = onnx_path_for(weights, self.weights_sha256, fixed)
        if path.is_symlink() or not path.is_file():  # a link there is replaced, not read
            export_onnx(weights, path, fixed)
        options = ort.SessionOptions()
        options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
        options.log_severity_level = 3
        # one thread per run (the calling one: no pool, no busy-waiting); the cores are used
        # by running one image per stream side by side (Detector.streams)
        options.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
        options.intra_op_num_threads = 1
        options.inter_op_num_threads = 1
        options.add_session_config_entry("session.intra_op.allow_spinning", "0")
        options.add_session_config_entry("session.inter_op.allow_spinning", "0")
        self.session = ort.InferenceSession(
            str(path), sess_options=options, providers=["CPUExecutionProvider"]
        )
        self.input_name = self.session.get_inputs()[0].name
        meta = self.session.get_modelmeta().custom_metadata_map
        self.labels = {int(k): str(v) for k, v in ast.literal_eval(meta["names"]).items()}
        self._start_streams()

    def infer(self, inputs: list[Letterboxed]) -> list[np.ndarray]:
        """One image per run (batches cost more per image on a CPU, measured), the runs
        spread over the streams; ``session.run`` is safe to call from several threads."""
        return self._per_image(self._infer_one, inputs)

    def _infer_one(self, x: Letterboxed) -> np.ndarray:
        s = self.settings
        # one copy does both: channels first, and uint8 -> float32
        batch = x.hwc[None].transpose(0, 3, 1, 2).astype(np.float32)
        batch *= 1.0 / 255.0
        head = self.session.run(None, {self.input_name: batch})[0][0]
        return postprocess(head, s.conf, s.iou, s.top_objects)

    def teardown(self) -> None:
        self._stop_streams()
        self.session = None
