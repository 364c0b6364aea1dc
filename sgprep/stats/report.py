"""``sgprep stats DIR``: totals and failures from the shard stats, plus the caption-side data
properties of METHOD.md section 4 that a parse alone can tell (multi-object captions,
attributes per object). Image-side properties need detections and come with that stage."""

from __future__ import annotations

import json
from pathlib import Path

from pydantic import BaseModel, Field
from rich.table import Table

from sgprep.exec.totals import Totals
from sgprep.schema import SceneGraph, ShardStats


class Report(BaseModel):
    shards: int = 0
    samples: int = 0
    ok: int = 0
    failed: int = 0
    failures: dict[str, int] = Field(default_factory=dict)
    stages: dict[str, dict[str, int]] = Field(default_factory=dict)
    graphs: int = 0
    multi_object_captions: float = 0.0
    entities_per_caption: float = 0.0
    attributes_per_entity: float = 0.0
    relations_per_caption: float = 0.0


def collect(root: Path) -> Report:
    import pyarrow.parquet as pq

    report = Report()
    totals = Totals()
    multi = entities = attributes = relations = 0
    for stats_file in sorted(root.glob("[0-9]*_stats.json")):
        stats = ShardStats.model_validate_json(stats_file.read_bytes())
        totals.add(stats)
        index = root / f"{stats.shard}.parquet"
        if not index.exists():
            continue
        for text in pq.read_table(index, columns=["sg"]).column("sg").to_pylist():
            if text is None:
                continue
            graph = SceneGraph.model_validate(json.loads(text))
            report.graphs += 1
            multi += len(graph.entities) >= 2
            entities += len(graph.entities)
            attributes += sum(len(e.attributes) for e in graph.entities)
            relations += len(graph.relations)
    report.shards, report.samples, report.ok, report.failed = (
        totals.shards, totals.samples, totals.ok, totals.failed)
    report.failures, report.stages = totals.failures, totals.stages
    if report.graphs:
        report.multi_object_captions = multi / report.graphs
        report.entities_per_caption = entities / report.graphs
        report.relations_per_caption = relations / report.graphs
    if entities:
        report.attributes_per_entity = attributes / entities
    return report


def render(report: Report) -> Table:
    table = Table(title="sgprep stats", show_header=False)
    for name in ("shards", "samples", "ok", "failed", "graphs"):
        table.add_row(name, f"{getattr(report, name):,}")
    for reason, count in report.failures.items():
        table.add_row(f"failed: {reason}", f"{count:,}")
    for stage, counters in report.stages.items():
        for name, count in counters.items():
            table.add_row(f"{stage}: {name}", f"{count:,}")
    table.add_row("multi-object captions", f"{report.multi_object_captions:.1%}")
    table.add_row("entities per caption", f"{report.entities_per_caption:.2f}")
    table.add_row("attributes per entity", f"{report.attributes_per_entity:.2f}")
    table.add_row("relations per caption", f"{report.relations_per_caption:.2f}")
    return table
