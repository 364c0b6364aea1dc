"""Class-aware NMS for a whole batch in one call on the device (torch).

ultralytics' NMS loops over the images of a batch, with a host-device sync in each; here all
candidates of the batch go through one ``torchvision.ops.nms``, each (image, class) group moved
to its own region of the plane. The offsets are added in float64 so that no coordinate loses
precision however many groups there are. When a batch has very many candidates (a low
``conf``), the bitmask NMS would need too much memory, so it runs per image instead.
"""

from __future__ import annotations

import torch

_GROUP_OFFSET = 8192.0  # wider than any letterbox, so groups never overlap
_MAX_JOINT = 20_000  # candidates above which NMS runs per image


def _candidates(preds: torch.Tensor, conf: float):
    """(B, 4 + C, A) head -> flat candidates above ``conf``: image, box xyxy, score, class."""
    p = preds.float().transpose(1, 2)  # (B, A, 4 + C)
    scores, cls = p[..., 4:].max(dim=-1)
    img, anchor = (scores > conf).nonzero(as_tuple=True)
    xywh = p[img, anchor, :4]
    half = xywh[:, 2:] / 2
    boxes = torch.cat([xywh[:, :2] - half, xywh[:, :2] + half], dim=1)
    return img, boxes, scores[img, anchor], cls[img, anchor]


def _nms_groups(boxes, scores, groups, iou: float) -> torch.Tensor:
    import torchvision

    shifted = boxes.double() + (groups.double() * _GROUP_OFFSET)[:, None]
    return torchvision.ops.nms(shifted, scores.double(), iou)


def batch_nms(preds: torch.Tensor, conf: float, iou: float, top: int) -> list[torch.Tensor]:
    """Per image a (n, 6) tensor x1, y1, x2, y2, score, class; best first, n <= top."""
    batch, n_cls = preds.shape[0], preds.shape[1] - 4
    img, boxes, scores, cls = _candidates(preds, conf)
    if top <= 0 or img.numel() == 0:
        return [boxes.new_zeros((0, 6)) for _ in range(batch)]
    if img.numel() <= _MAX_JOINT:
        keep = _nms_groups(boxes, scores, img * n_cls + cls, iou)  # sorted by score
    else:
        parts = []
        for k in range(batch):
            idx = (img == k).nonzero(as_tuple=True)[0]
            parts.append(idx[_nms_groups(boxes[idx], scores[idx], cls[idx], iou)])
        keep = torch.cat(parts)
    # group the kept boxes by image, keeping the score order inside each image (stable sort);
    # ties in score keep the anchor order, as a sequential NMS would
    keep = keep[torch.sort(img[keep], stable=True).indices]
    kept_img = img[keep]
    counts = torch.bincount(kept_img, minlength=batch)
    starts = torch.cumsum(counts, 0) - counts
    rank = torch.arange(keep.numel(), device=keep.device) - starts[kept_img]
    keep = keep[rank < top]
    rows = torch.cat([boxes[keep], scores[keep, None], cls[keep, None].float()], dim=1)
    return list(torch.split(rows, counts.clamp(max=top).tolist()))
