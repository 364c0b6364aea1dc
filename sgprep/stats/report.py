"""``sgprep stats DIR``: the data-property audit of an output directory.

``run_stats`` computes the per-sample properties (``properties.py``), writes them to
``DIR/_meta/stats.parquet``, sums them with the shard stats files into a ``Summary``, and writes
``DIR/_meta/report.html`` (``page.py``). ``render`` makes the terminal table. Hard negatives are
summarised per kind by ``negatives.py``.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import TYPE_CHECKING

from pydantic import BaseModel, Field
from rich.console import Group, RenderableType
from rich.markup import escape
from rich.table import Table

from sgprep.schema import OutputDir
from sgprep.stats.diversity import Diversity
from sgprep.stats.negatives import NegativeKind, rejections
from sgprep.stats.properties import DEFAULT_THRESHOLD

if TYPE_CHECKING:
    import pyarrow as pa


class Summary(BaseModel):
    """Dataset-level figures. A share or mean is None where no sample had its input."""

    root: str
    threshold: float = DEFAULT_THRESHOLD
    shards: int = 0
    samples: int = 0
    ok: int = 0
    failed: int = 0
    failures: dict[str, int] = Field(default_factory=dict, description="'stage/reason' -> count")
    stages: dict[str, dict[str, int]] = Field(
        default_factory=dict, description="Per-stage counters summed over the shard stats files."
    )
    graphs: int = Field(0, description="ok samples with a scene graph")
    detections: int = Field(0, description="ok samples with detections")
    multi_object_images: float | None = None
    multi_object_captions: float | None = None
    entities_per_caption: float | None = None
    attributes_per_entity: float | None = Field(None, description="over all caption entities")
    relations_per_caption: float | None = None
    objects_per_image: float | None = None
    coverage: float | None = Field(None, description="mean over samples with a detected object")
    salient_only: float | None = Field(None, description="share of samples with 2+ labels")
    negative_kinds: list[NegativeKind] = Field(
        default_factory=list, description="hard negatives per kind, with a seeded sample"
    )
    diversity: Diversity | None = Field(
        None,
        description="per kind: content words the negatives bring in, a text-only "
        "detector's accuracy, the share of captions with such a negative",
    )
    rejected: dict[str, int] = Field(
        default_factory=dict,
        description="candidate negatives refused, by reason (the stages' "
        "rejected/<reason> counters)",
    )
    warnings: list[str] = Field(
        default_factory=list, description="what the counters say is wrong (exec.totals.warnings)"
    )
    stats_path: str | None = None
    report_path: str | None = None


def run_stats(
    root: Path,
    threshold: float = DEFAULT_THRESHOLD,
    html: bool = True,
    threads: int | None = None,
    seed: int = 0,
) -> Summary:
    """Compute, write ``_meta/stats.parquet`` (and ``_meta/report.html``), return the summary.
    ``seed`` chooses the negatives shown as examples."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    from sgprep.io.safefs import atomic_write, real_dir
    from sgprep.stats.diversity import output_diversity
    from sgprep.stats.negatives import negative_kinds
    from sgprep.stats.properties import compute, connect, index_files

    root = Path(root)
    out = OutputDir(root)
    real_dir(out.meta, create=True)  # never written through a link
    con = connect(threads)
    table = compute(root, threshold=threshold, con=con)
    table = table.replace_schema_metadata({"sgprep.threshold": repr(threshold)})
    summary = summarise(root, table, threshold)
    summary.negative_kinds = negative_kinds(index_files(root), con, seed=seed)
    if summary.negative_kinds:
        summary.diversity = output_diversity(index_files(root), con, seed=seed)
    stats_path = out.data_stats_file

    sink = pa.BufferOutputStream()
    pq.write_table(table, sink, compression="zstd")
    atomic_write(stats_path, sink.getvalue().to_pybytes())
    summary.stats_path = str(stats_path)
    if html:
        from sgprep.stats.gallery import gallery_html
        from sgprep.stats.page import report_html

        report_path = out.report_file
        summary.report_path = str(report_path)
        page = report_html(summary, table, gallery=gallery_html(root))
        atomic_write(report_path, page.encode("utf-8"))
    return summary


def summarise(root: Path, table: pa.Table, threshold: float) -> Summary:
    import pyarrow.compute as pc

    summary = Summary(root=str(root), threshold=threshold, samples=table.num_rows)
    _add_shard_stats(summary, root)
    ok = table.filter(pc.equal(table["status"], "ok"))
    summary.ok, summary.failed = ok.num_rows, table.num_rows - ok.num_rows
    failed = table.filter(pc.not_equal(table["status"], "ok"))
    summary.failures = dict(
        sorted(
            Counter(
                f"{stage}/{reason}"
                for stage, reason in zip(failed["stage"].to_pylist(), failed["reason"].to_pylist())
            ).items()
        )
    )
    summary.graphs = ok.num_rows - ok["caption_entities"].null_count
    summary.detections = ok.num_rows - ok["image_objects"].null_count
    summary.multi_object_images = _mean(ok["multi_object_image"])
    summary.multi_object_captions = _mean(ok["multi_object_caption"])
    summary.entities_per_caption = _mean(ok["caption_entities"])
    entities = pc.sum(ok["caption_entities"]).as_py()
    if entities:
        summary.attributes_per_entity = pc.sum(ok["attributes"]).as_py() / entities
    summary.relations_per_caption = _mean(ok["relations"])
    summary.objects_per_image = _mean(ok["image_objects"])
    summary.coverage = _mean(ok["coverage"])
    summary.salient_only = _mean(ok["salient_only"])
    return summary


def _mean(column) -> float | None:
    import pyarrow as pa
    import pyarrow.compute as pc

    if column.null_count == len(column):
        return None
    return pc.mean(column.cast(pa.float64())).as_py()


def _add_shard_stats(summary: Summary, root: Path) -> None:
    """Totals and per-stage counters from ``NNNNN_stats.json``, summed by the one function
    the executor's summary uses too."""
    from sgprep.exec.totals import total, warnings
    from sgprep.schema import ShardStats

    totals = total(
        ShardStats.model_validate_json(p.read_bytes()) for p in OutputDir(root).stats_files()
    )
    summary.shards = totals.shards
    summary.stages = totals.stages
    summary.rejected = rejections(totals.stages)
    summary.warnings = warnings(totals.stages)


def _pct(value: float | None) -> str:
    return "n/a" if value is None else f"{value:.1%}"


def _num(value: float | None) -> str:
    return "n/a" if value is None else f"{value:.2f}"


def render(summary: Summary) -> RenderableType:
    """The terminal summary: a rich Table, and one of the negatives per kind when there are
    negatives."""
    table = Table(title=f"sgprep stats: {summary.root}", show_header=False)
    table.add_column("what", style="bold")
    table.add_column("value", justify="right")
    for name in ("shards", "samples", "ok", "failed", "graphs", "detections"):
        table.add_row(name, f"{getattr(summary, name):,}")
    for reason, count in summary.failures.items():
        table.add_row(f"failed: {reason}", f"{count:,}")
    for stage, counters in summary.stages.items():
        for name, value in counters.items():
            if name.startswith("length_ratio_permille/"):
                continue  # sums for the per-kind length ratio, shown in the negatives table
            table.add_row(f"{stage}: {name}", f"{value:,}")
    table.add_section()
    rows = [
        ("multi-object images", _pct(summary.multi_object_images), "higher is better"),
        ("multi-object captions", _pct(summary.multi_object_captions), "higher is better"),
        ("attributes per entity", _num(summary.attributes_per_entity), "study's base: 1.8"),
        ("salient-only captions", _pct(summary.salient_only), "lower is better"),
        ("coverage", _pct(summary.coverage), "detected labels the caption names"),
        ("entities per caption", _num(summary.entities_per_caption), ""),
        ("relations per caption", _num(summary.relations_per_caption), ""),
        (
            f"objects per image (score >= {summary.threshold:g})",
            _num(summary.objects_per_image),
            "",
        ),
    ]
    for name, value, note in rows:
        table.add_row(name + (f" [dim]({note})[/dim]" if note else ""), value)
    if summary.report_path:
        table.add_section()
        table.add_row("report", summary.report_path)
    shown: list[RenderableType] = [table]
    shown += [f"[bold yellow]warning:[/] {escape(w)}" for w in summary.warnings]
    if summary.negative_kinds:
        shown += render_negatives(summary)
    return shown[0] if len(shown) == 1 else Group(*shown)


def render_negatives(summary: Summary) -> list[Table]:
    """Per kind: count, length ratio and template share; one example per kind beside its
    positive; then the refused candidates by reason."""
    table = Table(title="hard negatives per kind (length x: negative chars / positive chars)")
    table.add_column("kind", no_wrap=True)
    for name in ("negatives", "length x", "p90", "template"):
        table.add_column(name, justify="right")
    examples = Table(title="an example per kind (the report shows more)", show_lines=True)
    examples.add_column("kind", no_wrap=True)
    examples.add_column("positive -> negative")
    for k in summary.negative_kinds:
        table.add_row(
            k.kind,
            f"{k.negatives:,}",
            f"{k.length_ratio:.2f}",
            f"{k.length_ratio_p90:.2f}",
            _pct(k.template_share),
        )
        if k.examples:
            examples.add_row(
                k.kind,
                f"{escape(k.examples[0].positive)} [dim]->[/dim] {escape(k.examples[0].negative)}",
            )
    tables = [table, examples]
    if summary.diversity:
        tables.append(render_diversity(summary.diversity))
    if summary.rejected:
        refused = Table(title="negatives refused, by reason")
        refused.add_column("reason", no_wrap=True)
        refused.add_column("count", justify="right")
        for reason, count in summary.rejected.items():
            refused.add_row(reason, f"{count:,}")
        tables.append(refused)
    return tables


def render_diversity(d: Diversity) -> Table:
    """Per kind: captions with such a negative, distinct content words brought in, the
    commonest one and its share, the text-only detector's accuracy."""
    table = Table(
        title=f"what the negatives bring in; text-only detector (50% = chance) trained on "
        f"{d.train_captions:,} of {d.captions:,} captions"
    )
    table.add_column("kind", no_wrap=True)
    for name in ("caption share", "distinct words", "top word", "share", "detector", "pairs"):
        table.add_column(name, justify="right")
    for k in [*d.kinds, *([d.overall] if d.overall else [])]:
        table.add_row(
            k.kind,
            _pct(k.caption_share),
            f"{k.distinct_words:,}",
            escape(k.top_word or "-"),
            _pct(k.top_word_share),
            _pct(k.detector_accuracy),
            f"{k.detector_pairs:,}",
        )
    return table
