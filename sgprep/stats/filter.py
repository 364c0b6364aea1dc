"""``sgprep filter DIR --output OUT``: a filtered or re-weighted view of an output directory.

The view copies no image. It is three small files in OUT:
- ``index.parquet``: the kept samples, columns ``key``, ``shard``, ``url`` (the tar holding it)
  and, with ``weights_column``, that column of sample weights;
- ``shards.txt``: the tars that hold at least one kept sample, one URL a line (WebDataset's
  shard list);
- ``view.json``: the source directory, the criteria and the counts.

A trainer reads it with plain webdataset (see ``open_view`` and docs: stats.md)::

    keep = set(pq.read_table("OUT/index.parquet", columns=["key"])["key"].to_pylist())
    urls = open("OUT/shards.txt").read().split()
    ds = wds.WebDataset(urls, shardshuffle=False).select(lambda s: s["__key__"] in keep)

Only ok samples are in the tars, so only they can be kept. A criterion whose property is null
(no detections for ``min_coverage``, say) is not met.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING

from pydantic import BaseModel, Field, field_validator

from sgprep.stats.properties import DEFAULT_THRESHOLD

if TYPE_CHECKING:
    import pyarrow as pa

INDEX, SHARDS, VIEW = "index.parquet", "shards.txt", "view.json"


def parse_range(text: str) -> tuple[float | None, float | None]:
    """``"1:3"`` -> (1.0, 3.0); an empty side is open (``"1:"``, ``":2.5"``)."""
    lo, sep, hi = text.partition(":")
    if not sep:
        raise ValueError(f"{text!r} is not LO:HI")
    bounds = (float(lo) if lo.strip() else None, float(hi) if hi.strip() else None)
    if bounds[0] is not None and bounds[1] is not None and bounds[0] > bounds[1]:
        raise ValueError(f"{text!r}: LO is above HI")
    return bounds


class Criteria(BaseModel):
    """What a sample must meet to be kept (or to get weight 1.0)."""

    min_caption_objects: int | None = Field(
        None, ge=0, description="The caption names at least this many entities."
    )
    attributes_per_object: tuple[float | None, float | None] | None = Field(
        None,
        description="LO:HI - mean attributes per caption entity within [LO, HI]; a side may be empty.",
    )
    min_coverage: float | None = Field(
        None,
        ge=0,
        le=1,
        description="The caption names at least this share of the detected categories.",
    )
    min_image_objects: int | None = Field(
        None, ge=0, description="At least this many detected objects (at --threshold)."
    )
    weights_column: str | None = Field(
        None,
        description="Re-weight instead of dropping: every ok sample stays, with its weight in this column.",
    )
    reject_weight: float = Field(
        0.1, ge=0, description="Weight of a sample that misses a criterion."
    )
    threshold: float = Field(
        DEFAULT_THRESHOLD, ge=0, le=1, description="Detection score at which an object counts."
    )

    @field_validator("attributes_per_object", mode="before")
    @classmethod
    def _range(cls, value):
        return parse_range(value) if isinstance(value, str) else value

    @field_validator("weights_column")
    @classmethod
    def _column(cls, value):
        if value is not None and value in ("key", "shard", "url"):
            raise ValueError(f"{value!r} is a column of the view already")
        return value


class View(BaseModel):
    source: str
    output: str
    criteria: Criteria
    ok: int = Field(description="ok samples in the source")
    kept: int = Field(description="samples in the view (all ok ones when re-weighting)")
    passed: int = Field(description="samples that meet every criterion")
    shards: int


def filter_view(root: Path, output: Path, criteria: Criteria | None = None, **fields) -> View:
    """Write the view of ``root`` that ``criteria`` (or keyword fields of it) select."""
    import pyarrow as pa
    import pyarrow.compute as pc
    import pyarrow.parquet as pq

    from sgprep.io.safefs import atomic_write, make_dirs

    criteria = criteria or Criteria(**fields)
    root, output = Path(root).resolve(), Path(output).resolve()
    if output == root:
        raise ValueError("--output must be another directory than the dataset")
    table = load_properties(root, criteria.threshold)
    ok = table.filter(pc.equal(table["status"], "ok"))
    passed = pc.fill_null(_mask(ok, criteria), False)
    if criteria.weights_column:
        kept = ok
        weights = pc.if_else(passed, 1.0, criteria.reject_weight)
    else:
        kept, weights = ok.filter(passed), None
    tar = ".tar.gz" if any(root.glob("[0-9]*.tar.gz")) else ".tar"  # compression: gzip
    urls = pc.binary_join_element_wise(str(root) + "/", kept["shard"], tar, "")
    view = pa.table({"key": kept["key"], "shard": kept["shard"], "url": urls})
    if weights is not None:
        view = view.append_column(criteria.weights_column, weights.cast(pa.float64()))
    make_dirs(output, link_ok=True)
    sink = pa.BufferOutputStream()
    pq.write_table(view, sink, compression="zstd")
    atomic_write(output / INDEX, sink.getvalue().to_pybytes())
    shard_urls = sorted(set(urls.to_pylist()))
    atomic_write(output / SHARDS, "".join(u + "\n" for u in shard_urls).encode("utf-8"))
    result = View(
        source=str(root),
        output=str(output),
        criteria=criteria,
        ok=ok.num_rows,
        kept=view.num_rows,
        passed=pc.sum(passed.cast(pa.int64())).as_py() or 0,
        shards=len(shard_urls),
    )
    atomic_write(output / VIEW, (result.model_dump_json(indent=2) + "\n").encode("utf-8"))
    return result


def _mask(table: pa.Table, c: Criteria):
    import pyarrow as pa
    import pyarrow.compute as pc

    mask = pa.array([True] * table.num_rows, pa.bool_())
    checks = []
    if c.min_caption_objects is not None:
        checks.append(pc.greater_equal(table["caption_entities"], c.min_caption_objects))
    if c.attributes_per_object is not None:
        lo, hi = c.attributes_per_object
        if lo is not None:
            checks.append(pc.greater_equal(table["attributes_per_entity"], lo))
        if hi is not None:
            checks.append(pc.less_equal(table["attributes_per_entity"], hi))
    if c.min_coverage is not None:
        checks.append(pc.greater_equal(table["coverage"], c.min_coverage))
    if c.min_image_objects is not None:
        checks.append(pc.greater_equal(table["image_objects"], c.min_image_objects))
    for check in checks:  # and_kleene: a null (missing input) stays null, then counts as not met
        mask = pc.and_kleene(mask, check)
    return mask


def load_properties(root: Path, threshold: float) -> pa.Table:
    """``_meta/stats.parquet`` when it is newer than every index file and used ``threshold``;
    otherwise computed afresh (and not written: ``sgprep stats`` owns that file)."""
    import pyarrow.parquet as pq

    from sgprep.schema import OutputDir
    from sgprep.stats.properties import compute, connect, index_files

    stats = OutputDir(root).data_stats_file
    if stats.is_file() and not stats.is_symlink():
        newest = max((f.stat().st_mtime for f in index_files(root)), default=0)
        try:
            table = pq.read_table(stats)
        except Exception:  # noqa: BLE001 - a damaged copy is computed afresh, not trusted
            table = None
        meta = (table.schema.metadata or {}) if table is not None else {}
        if (
            stats.stat().st_mtime >= newest
            and meta.get(b"sgprep.threshold") == repr(threshold).encode()
        ):
            return table
    return compute(root, threshold=threshold, con=connect())


class OpenView(BaseModel):
    """What a trainer needs: the shard URLs, the kept keys, and the weights if any."""

    urls: list[str]
    keys: set[str]
    weights: dict[str, float] | None = None

    def webdataset(self, **kwargs):
        """``webdataset.WebDataset`` over the view's shards, yielding only the kept samples."""
        import webdataset as wds

        keys = self.keys
        kwargs.setdefault("shardshuffle", False)
        return wds.WebDataset(self.urls, **kwargs).select(lambda s: s["__key__"] in keys)


def open_view(output: Path) -> OpenView:
    import pyarrow.parquet as pq

    output = Path(output)
    view = json.loads((output / VIEW).read_text())
    table = pq.read_table(output / INDEX)
    column = view["criteria"].get("weights_column")
    weights = dict(zip(table["key"].to_pylist(), table[column].to_pylist())) if column else None
    return OpenView(
        urls=(output / SHARDS).read_text().split(),
        keys=set(table["key"].to_pylist()),
        weights=weights,
    )
