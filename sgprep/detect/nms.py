"""Post-processing of a YOLOv8/v9 head in numpy: confidence filter, class-aware greedy NMS.

The head gives, per image, ``4 + C`` rows by ``A`` anchors: box centre and size in input
pixels, then one (already sigmoid-ed) score per class. A box's class is its best-scoring one.
NMS keeps boxes best first and stops once ``limit`` are kept: greedy NMS never revisits a kept
box, so the first ``limit`` kept are exactly the best ``limit`` of a full run.
"""

from __future__ import annotations

import numpy as np

#: Offsets boxes of different classes apart so one NMS pass never suppresses across classes.
_CLASS_OFFSET = 7680.0


def iou_one_to_many(box: np.ndarray, boxes: np.ndarray) -> np.ndarray:
    x1 = np.maximum(box[0], boxes[:, 0])
    y1 = np.maximum(box[1], boxes[:, 1])
    x2 = np.minimum(box[2], boxes[:, 2])
    y2 = np.minimum(box[3], boxes[:, 3])
    inter = np.clip(x2 - x1, 0, None) * np.clip(y2 - y1, 0, None)
    area = (box[2] - box[0]) * (box[3] - box[1])
    areas = (boxes[:, 2] - boxes[:, 0]) * (boxes[:, 3] - boxes[:, 1])
    return inter / np.maximum(area + areas - inter, 1e-9)


def greedy_nms(boxes: np.ndarray, scores: np.ndarray, iou: float, limit: int) -> np.ndarray:
    """Indices of kept boxes, best score first (ties: lower index first)."""
    order = np.lexsort((np.arange(len(scores)), -scores))
    keep: list[int] = []
    while order.size and len(keep) < limit:
        best = order[0]
        keep.append(int(best))
        rest = order[1:]
        order = rest[iou_one_to_many(boxes[best], boxes[rest]) <= iou]
    return np.asarray(keep, dtype=np.int64)


def postprocess(head: np.ndarray, conf: float, iou: float, limit: int) -> np.ndarray:
    """One image's head output (4 + C, A) -> (n, 6) rows x1, y1, x2, y2, score, class."""
    scores_all = head[4:]
    cls = scores_all.argmax(axis=0)
    scores = scores_all[cls, np.arange(scores_all.shape[1])]
    mask = scores > conf
    if not mask.any() or limit <= 0:
        return np.zeros((0, 6), dtype=np.float32)
    cx, cy, w, h = head[:4, mask]
    boxes = np.stack([cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2], axis=1)
    scores, cls = scores[mask], cls[mask]
    shifted = boxes + (cls[:, None] * _CLASS_OFFSET)
    keep = greedy_nms(shifted, scores, iou, limit)
    return np.concatenate(
        [boxes[keep], scores[keep, None], cls[keep, None].astype(boxes.dtype)], axis=1
    )
