"""The report's gallery: a seeded sample of ok samples, each image turned upright (EXIF) with its
detected boxes drawn, its caption, scene graph and negatives by kind. A person sees at a glance
whether boxes sit on their objects and whether the negatives read well.

Images are read by random access (the index's ``shard``, ``offset`` and ``size``), so the
gallery costs a few reads whatever the size of the output; an output written before those
columns existed gets a gallery without pictures.
"""

from __future__ import annotations

import base64
import hashlib
import html
import io
import json
from pathlib import Path
from typing import Any

THUMB = 320
BOX_COLOUR = (255, 212, 0)
COLUMNS = ["key", "caption", "status", "sg", "det", "neg", "shard", "offset", "size"]


def _e(text: object) -> str:
    return html.escape(str(text))


def pick(root: Path, n: int, seed: int) -> list[dict[str, Any]]:
    """``n`` ok index rows, chosen by a hash of the seed and the key (the same rows whatever
    the number of shards or their order). Only the chosen rows' annotations are read."""
    import heapq

    import pyarrow.compute as pc
    import pyarrow.parquet as pq

    from sgprep.stats.properties import index_files

    files = index_files(root)
    ranked = []
    for number, path in enumerate(files):
        table = pq.read_table(path, columns=["key", "status"])
        for key in table.filter(pc.equal(table["status"], "ok"))["key"].to_pylist():
            ranked.append((hashlib.sha256(f"{seed}\x00{key}".encode()).digest(), key, number))
    chosen = heapq.nsmallest(n, ranked)
    order = {key: k for k, (_, key, _) in enumerate(chosen)}
    rows = []
    for number in sorted({number for _, _, number in chosen}):  # only files with a chosen row
        path = files[number]
        names = pq.read_schema(path).names
        table = pq.read_table(path, columns=[c for c in COLUMNS if c in names])
        rows += table.filter(pc.is_in(table["key"], value_set=_array(list(order)))).to_pylist()
    return sorted(rows, key=lambda row: order[row["key"]])


def _array(values: list[str]):
    import pyarrow as pa

    return pa.array(values, pa.string())


def _image(root: Path, row: dict[str, Any]) -> bytes | None:
    if row.get("offset") is None or not row.get("shard"):
        return None
    from sgprep.io.tar import image_at
    from sgprep.schema import OutputDir

    found = image_at(OutputDir(root).tar_file(row["shard"]), row["offset"], row["size"])
    return found[1] if found else None


def thumbnail(data: bytes, det: dict[str, Any] | None) -> str:
    """A base64 PNG: the image upright, at most THUMB pixels a side, with det's boxes."""
    from PIL import Image, ImageDraw, ImageOps

    with Image.open(io.BytesIO(data)) as img:
        image = ImageOps.exif_transpose(img).convert("RGB")
    scale = min(1.0, THUMB / max(image.size))
    if scale < 1.0:
        image = image.resize(
            (max(1, round(image.width * scale)), max(1, round(image.height * scale)))
        )
    if scale == 1.0 and max(image.size) < THUMB // 2:  # tiny images: enlarge to be seen
        factor = (THUMB // 2) // max(image.size)
        image = image.resize((image.width * factor, image.height * factor), Image.NEAREST)
    draw = ImageDraw.Draw(image)
    if det:
        sx, sy = image.width / det["width"], image.height / det["height"]
        for obj in det.get("objects", []):
            x1, y1, x2, y2 = obj["xyxy"]
            draw.rectangle([x1 * sx, y1 * sy, x2 * sx, y2 * sy], outline=BOX_COLOUR, width=2)
            draw.text(
                (x1 * sx + 3, y1 * sy + 2), f"{obj['label']} {obj['score']:.2f}", fill=BOX_COLOUR
            )
    out = io.BytesIO()
    image.save(out, format="PNG")
    return base64.b64encode(out.getvalue()).decode("ascii")


def _graph(sg: dict[str, Any] | None) -> str:
    if not sg:
        return "<p class='note'>no scene graph</p>"
    entities = sg.get("entities", [])
    items = [f"<li>{_e(e['text'])}</li>" for e in entities]
    items += [
        f"<li>{_e(entities[r['subject']]['text'])} &rarr; <b>{_e(r['predicate'])}</b> "
        f"&rarr; {_e(entities[r['object']]['text'])}</li>"
        for r in sg.get("relations", [])
    ]
    return f"<ul class='graph'>{''.join(items)}</ul>"


def _negatives(neg: dict[str, Any] | None) -> str:
    if not neg or not neg.get("negatives"):
        return "<p class='note'>no negatives</p>"
    rows = "".join(
        f"<tr><td>{_e(n['kind'])}</td><td>{_e(n.get('level', ''))}</td>"
        f"<td>{_e(n['text'])}</td></tr>"
        for n in sorted(neg["negatives"], key=lambda n: n["kind"])
    )
    return f"<table class='negs'>{rows}</table>"


def gallery_html(root: Path, n: int = 12, seed: int = 0) -> str:
    """The gallery section of the report ("" for an output without ok samples)."""
    root = Path(root)
    rows = pick(root, n, seed)
    if not rows:
        return ""
    cards = []
    for row in rows:
        det = json.loads(row["det"]) if row.get("det") else None
        data = _image(root, row)
        picture = (
            f'<img alt="{_e(row["key"])}" src="data:image/png;base64,{thumbnail(data, det)}">'
            if data
            else "<p class='note'>no image</p>"
        )
        cards.append(
            f"<div class='card'>{picture}<p class='cap'><b>{_e(row['key'])}</b>: "
            f"{_e(row['caption'])}</p>{_graph(json.loads(row['sg']) if row.get('sg') else None)}"
            f"{_negatives(json.loads(row['neg']) if row.get('neg') else None)}</div>"
        )
    return (
        f"<h2>Gallery</h2><p class='note'>{len(rows)} samples chosen by seed {seed}: images "
        f"upright (EXIF applied) with their detected boxes, the caption, the scene graph "
        f"and the negatives by kind.</p><div class='gallery'>{''.join(cards)}</div>"
    )


GALLERY_STYLE = """
.gallery { display: flex; flex-wrap: wrap; gap: 1em; }
.card { width: 340px; border: 1px solid #ddd; padding: 0.5em; font-size: 0.85em; }
.card img { max-width: 320px; display: block; }
.graph { margin: 0.3em 0; padding-left: 1.2em; } .negs td { padding: 0.1em 0.3em; }
"""
