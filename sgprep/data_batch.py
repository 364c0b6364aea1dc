"""What a :class:`sgprep.data.Collate` batch carries beyond image, caption, negative and boxes,
when asked (``Collate(extras=...)``), so that the seed methods train from the batch as it is:

- ``graph``: ``graph``, the scene graph of each sample (``sg.json`` as a dict; None without one),
  for graph-structured text encoders (OC-CLIP).
- ``entity_boxes``: ``entity_boxes`` (B, E, 4) float32, the box of each entity of the graph (in
  the pipeline's ``boxes`` mode), ``entity_box_mask`` (B, E) True where the entity links to a
  detected box, and ``entity_text`` (B lists of E texts, "" as padding):
  entity-to-region alignment (ComAlign).
- ``pair_boxes``: ``pair_boxes`` (B, R, 4), per relation of the graph the smallest box holding
  its subject's and its object's boxes (det.json's pair-box rule), ``pair_box_mask`` (B, R)
  True where both ends link to a box, and ``relation_text`` (B lists of R "subject predicate
  object" texts, "" as padding): relation-to-region alignment (ComAlign).
- ``positives``: ``positives`` (B lists: the caption first, then its sub-graph positives),
  ``negatives`` (B lists: every negative the pipeline's ``negatives=`` chose) and
  ``positive_index`` (B lists, one per negative: the positive it falsifies, -1 for a mined
  image negative): sub-graph positives with their own negatives (MosaiCLIP).
- ``distractors`` (needs ``sd.webdataset(OUT, distractors=K)``): ``distractor_images`` (B, K,
  ...) zeros-padded where the images are tensors of one shape (after a ``transform``), else B
  lists; ``distractor_mask`` (B, K) True for a real one; ``distractor_text`` (the binding true
  of each distractor image) and ``distractor_query`` (the binding true of the sample's image,
  false of the distractor), B x K with "" as padding; ``distractor_key``: mined hard negative
  images (Cola).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

EXTRAS = ("graph", "entity_boxes", "pair_boxes", "positives", "distractors")


def check_extras(extras: Iterable[str]) -> tuple[str, ...]:
    chosen = tuple(extras)
    unknown = [e for e in chosen if e not in EXTRAS]
    if unknown or isinstance(extras, str):
        raise ValueError(f"extras={extras!r}: a list of {EXTRAS}")
    return chosen


def padded(rows: list[list[Any]], *shape: int):
    """Rows of ragged length -> (B, N, *shape) float32 zeros-padded, and the (B, N) bool mask
    of real entries; a None entry stays zeros and False."""
    import torch

    width = max([len(r) for r in rows] + [0])
    values = torch.zeros((len(rows), width, *shape), dtype=torch.float32)
    mask = torch.zeros((len(rows), width), dtype=torch.bool)
    for b, row in enumerate(rows):
        if row and all(v is not None for v in row):  # the common case: one tensor a row
            values[b, : len(row)] = torch.tensor(row, dtype=torch.float32)
            mask[b, : len(row)] = True
            continue
        for n, value in enumerate(row):
            if value is not None:
                values[b, n] = torch.tensor(value, dtype=torch.float32)
                mask[b, n] = True
    return values, mask


def _entity_boxes(sample: dict[str, Any]) -> list[list[float] | None]:
    """Per entity of the graph, its linked box (None when it links to none)."""
    entities = (sample.get("sg") or {}).get("entities", [])
    links = sample.get("entity_boxes") or []
    boxes = sample["boxes"]
    out: list[list[float] | None] = []
    for k in range(len(entities)):
        index = links[k] if k < len(links) else None
        out.append(boxes[index] if index is not None and index < len(boxes) else None)
    return out


def _pair_boxes(sample: dict[str, Any]) -> list[list[float] | None]:
    per_entity = _entity_boxes(sample)
    out: list[list[float] | None] = []
    for rel in (sample.get("sg") or {}).get("relations", []):
        a, b = per_entity[rel["subject"]], per_entity[rel["object"]]
        if a is None or b is None:
            out.append(None)
        else:
            out.append([min(a[0], b[0]), min(a[1], b[1]), max(a[2], b[2]), max(a[3], b[3])])
    return out


def _relation_texts(sample: dict[str, Any]) -> list[str]:
    graph = sample.get("sg") or {}
    entities = graph.get("entities", [])
    return [
        f"{entities[r['subject']]['text']} {r['predicate']} {entities[r['object']]['text']}"
        for r in graph.get("relations", [])
    ]


def _texts(rows: list[list[str]]) -> list[list[str]]:
    """Rows padded with "" to the longest, so ``texts[b][n]`` goes with ``boxes[b, n]``."""
    width = max([len(r) for r in rows] + [0])
    return [r + [""] * (width - len(r)) for r in rows]


def add_extras(batch: dict[str, Any], samples: list[dict[str, Any]], extras: tuple[str, ...]):
    """Put the ``extras`` asked for into ``batch``."""
    if "graph" in extras:
        batch["graph"] = [s.get("sg") for s in samples]
    if "entity_boxes" in extras:
        batch["entity_boxes"], batch["entity_box_mask"] = padded(
            [_entity_boxes(s) for s in samples], 4
        )
        batch["entity_text"] = _texts(
            [[e["text"] for e in (s.get("sg") or {}).get("entities", [])] for s in samples]
        )
    if "pair_boxes" in extras:
        batch["pair_boxes"], batch["pair_box_mask"] = padded([_pair_boxes(s) for s in samples], 4)
        batch["relation_text"] = _texts([_relation_texts(s) for s in samples])
    if "positives" in extras:
        batch["positives"] = [s["positives"] for s in samples]
        batch["negatives"] = [s["negatives"] for s in samples]
        batch["positive_index"] = [s["positive_index"] for s in samples]
    if "distractors" in extras:
        _add_distractors(batch, samples)


def _add_distractors(batch: dict[str, Any], samples: list[dict[str, Any]]) -> None:
    import torch

    if any("distractors" not in s for s in samples):
        raise ValueError(
            'extras=["distractors"] needs samples with distractors: '
            "sd.webdataset(OUT, distractors=K)"
        )
    rows = [s["distractors"] for s in samples]
    width = max([len(r) for r in rows] + [0])
    mask = torch.zeros((len(rows), width), dtype=torch.bool)
    for b, row in enumerate(rows):
        mask[b, : len(row)] = True
    images: Any = [[d["image"] for d in row] for row in rows]
    flat = [image for row in images for image in row]
    if flat and all(isinstance(x, torch.Tensor) for x in flat):
        shapes = {tuple(x.shape) for x in flat}
        if len(shapes) == 1:
            stacked = torch.zeros((len(rows), width, *shapes.pop()), dtype=flat[0].dtype)
            for b, row in enumerate(images):
                for k, image in enumerate(row):
                    stacked[b, k] = image
            images = stacked
    batch["distractor_images"], batch["distractor_mask"] = images, mask
    for name in ("text", "query", "key"):
        batch[f"distractor_{name}"] = _texts([[d[name] for d in row] for row in rows])
