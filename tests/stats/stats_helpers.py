"""Tiny sgprep outputs made by hand: samples with known scene graphs and detections."""

from __future__ import annotations

import io
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
from PIL import Image

from sgprep.io.records import index_row
from sgprep.io.tables import INDEX_SCHEMA
from sgprep.io.writers import ShardWriter
from sgprep.schema import Box, Detections, Entity, Sample, SceneGraph


def entity(text: str, *attributes: str, head: str | None = None) -> Entity:
    return Entity(
        text=" ".join([*attributes, text]),
        head=head or text.split()[-1],
        attributes=list(attributes),
    )


def graph(*entities: Entity, relations: list[tuple[int, str, int]] = ()) -> SceneGraph:
    return SceneGraph(
        entities=list(entities),
        parser="hand",
        relations=[{"subject": s, "predicate": p, "object": o} for s, p, o in relations],
    )


def detections(*objects: tuple[str, tuple[float, float, float, float], float]) -> Detections:
    return Detections(
        width=640,
        height=480,
        detector="hand",
        weights_sha256="0" * 64,
        backend="onnx",
        objects=[
            Box(xyxy=xyxy, score=score, label=label, cls=i)
            for i, (label, xyxy, score) in enumerate(objects)
        ],
    )


def sample(
    key: str,
    sg: SceneGraph | None = None,
    det: Detections | None = None,
    image: bytes | None = None,
) -> Sample:
    return Sample(
        key=key,
        source="hand",
        caption=f"caption {key}",
        sg=sg,
        det=det,
        image=image,
        image_ext="png" if image else None,
    )


def write_index(root: Path, shards: list[list[Sample]]) -> Path:
    """Index parquets only, as ShardWriter writes them (no tars)."""
    root.mkdir(parents=True, exist_ok=True)
    for n, samples in enumerate(shards):
        table = pa.Table.from_pylist([index_row(s) for s in samples], schema=INDEX_SCHEMA())
        pq.write_table(table, root / f"{n:05d}.parquet")
    return root


def write_dataset(root: Path, shards: list[list[Sample]]) -> Path:
    """A real sgprep output directory: tars, index parquets and stats files."""
    writer = ShardWriter(root)
    writer.prepare({"command": "test"}, "fingerprint", overwrite=False)
    for n, samples in enumerate(shards):
        sink = writer.open_shard(n)
        sink.add(samples)
        sink.close(stages={})
    return root


def png_bytes() -> bytes:
    buf = io.BytesIO()
    Image.new("RGB", (8, 8), (200, 30, 30)).save(buf, format="PNG")
    return buf.getvalue()
