"""Our NMS (numpy for onnx, batched torch for torch) against ultralytics' own NMS on the same
head output: the same boxes, scores and classes, in the same order."""

from __future__ import annotations

import importlib.util

import numpy as np
import pytest

if importlib.util.find_spec("torch") is None or importlib.util.find_spec("ultralytics") is None:
    pytest.skip("needs the detect extra", allow_module_level=True)
import torch  # noqa: E402  (not ultralytics: importing it here would write its settings to $HOME)


def synthetic_head(batch=3, classes=5, anchors=400, seed=0) -> np.ndarray:
    """Boxes in clusters (so NMS has overlaps to resolve), scores spread over (0, 1)."""
    rng = np.random.default_rng(seed)
    centres = rng.uniform(50, 590, size=(batch, 12, 2))
    pick = rng.integers(0, 12, size=(batch, anchors))
    xy = np.take_along_axis(centres, pick[..., None], axis=1) + rng.normal(
        0, 6, (batch, anchors, 2)
    )
    wh = rng.uniform(20, 120, size=(batch, anchors, 2))
    scores = 1 / (1 + np.exp(-rng.normal(-1.5, 2.0, size=(batch, anchors, classes))))
    return np.concatenate([xy, wh, scores], axis=2).transpose(0, 2, 1).astype(np.float32)


def ultralytics_nms(head, conf, iou, top):
    from sgprep.detect.weights import quiet_environment

    quiet_environment()
    from ultralytics.utils.nms import non_max_suppression

    return [
        r[:, :6].numpy()
        for r in non_max_suppression(torch.from_numpy(head), conf, iou, max_det=top)
    ]


@pytest.mark.parametrize("conf, iou, top", [(0.25, 0.45, 10), (0.05, 0.7, 300), (0.5, 0.3, 3)])
def test_numpy_and_batched_torch_nms_match_ultralytics(conf, iou, top, monkeypatch):
    from sgprep.detect import torch_nms
    from sgprep.detect.nms import postprocess

    head = synthetic_head()
    expected = ultralytics_nms(head, conf, iou, top)
    ours_np = [postprocess(h, conf, iou, top) for h in head]
    ours_torch = [r.numpy() for r in torch_nms.batch_nms(torch.from_numpy(head), conf, iou, top)]
    monkeypatch.setattr(torch_nms, "_MAX_JOINT", 1)  # the per-image path too
    per_image = [r.numpy() for r in torch_nms.batch_nms(torch.from_numpy(head), conf, iou, top)]
    assert sum(len(e) for e in expected) > 5
    for want, *gots in zip(expected, ours_np, ours_torch, per_image):
        for got in gots:
            assert got.shape == want.shape
            np.testing.assert_allclose(got, want, rtol=0, atol=1e-3)


def test_nothing_above_the_threshold_gives_empty_results():
    from sgprep.detect import torch_nms
    from sgprep.detect.nms import postprocess

    head = synthetic_head()
    head[:, 4:] = 0.01
    assert all(len(postprocess(h, 0.25, 0.45, 10)) == 0 for h in head)
    assert [len(r) for r in torch_nms.batch_nms(torch.from_numpy(head), 0.25, 0.45, 10)] == [
        0,
        0,
        0,
    ]
