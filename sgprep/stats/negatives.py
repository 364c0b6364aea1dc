"""The hard negatives of an output, per kind: how many, how long against their positive, how
often written from a template, a seeded sample of them beside their positives, and the
candidates the negatives stage refused, by reason (issue 18: "let people see them").

Computed in DuckDB in one streaming pass over the index parquets' ``neg`` column: per kind a
count, the length ratio (negative characters / positive characters) and a sample chosen by a
hash of (seed, key, negative text), so the same output and seed show the same examples. A
negative of a sub-graph positive is shown under ``KIND@subgraph``.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

from pydantic import BaseModel, Field

if TYPE_CHECKING:
    import duckdb

#: Examples shown per kind in the report (the terminal shows the first of them).
EXAMPLES_PER_KIND = 8
#: Length ratios above this are counted as "long": a length shortcut for a blind model.
LONG_RATIO = 1.25

_NEG_TYPE = (
    '{"negatives":[{"text":"VARCHAR","positive":"VARCHAR","kind":"VARCHAR",'
    '"realisation":"VARCHAR"}]}'
)


#: The ok samples' negatives, one row each (key, negative, positive, realisation, kind, ratio);
#: a negative of a sub-graph positive is of kind ``KIND@subgraph``.
_NEGATIVES = f"""
    n AS (
        SELECT key, caption, unnest(from_json(neg, '{_NEG_TYPE}').negatives) AS x
        FROM read_parquet($files) WHERE status = 'ok' AND neg IS NOT NULL
    ), k AS (
        SELECT key, x.text AS negative, x.positive AS positive, x.realisation AS realisation,
            x.kind || CASE WHEN x.positive IS DISTINCT FROM caption THEN '@subgraph' ELSE '' END
                AS kind,
            length(x.text)::DOUBLE / greatest(length(x.positive), 1) AS ratio
        FROM n
    )"""


class NegativeExample(BaseModel):
    key: str
    positive: str
    negative: str
    realisation: str | None = None


class NegativeKind(BaseModel):
    kind: str
    negatives: int
    length_ratio: float = Field(description="mean of negative chars / positive chars")
    length_ratio_p90: float
    long_share: float = Field(description=f"share with a length ratio above {LONG_RATIO}")
    template_share: float = Field(description="share written from a template, not a span edit")
    examples: list[NegativeExample] = Field(default_factory=list)


def negative_kinds(
    files: list[Path],
    con: duckdb.DuckDBPyConnection,
    seed: int = 0,
    examples: int = EXAMPLES_PER_KIND,
) -> list[NegativeKind]:
    """Per-kind figures and a seeded sample of the ok samples' negatives, kinds by name."""
    if not files or not _has_neg(files, con):
        return []
    rows = con.execute(
        f"""
        WITH {_NEGATIVES}
        SELECT kind, count(*), avg(ratio), quantile_cont(ratio, 0.9), avg((ratio > $long)::INT),
            avg((realisation = 'template')::INT),
            arg_min(struct_pack(key := key, positive := positive, negative := negative,
                                realisation := realisation),
                    md5($seed || chr(0) || key || chr(0) || negative), $examples)
        FROM k GROUP BY kind ORDER BY kind
        """,
        {
            "files": [str(f) for f in files],
            "seed": str(seed),
            "examples": max(examples, 1),
            "long": LONG_RATIO,
        },
    ).fetchall()
    return [
        NegativeKind(
            kind=kind,
            negatives=n,
            length_ratio=mean,
            length_ratio_p90=p90,
            long_share=long,
            template_share=template,
            examples=[NegativeExample(**e) for e in sample[:examples]],
        )
        for kind, n, mean, p90, long, template, sample in rows
    ]


def _has_neg(files: list[Path], con: duckdb.DuckDBPyConnection) -> bool:
    columns = con.execute(
        "DESCRIBE SELECT * FROM read_parquet($files)", {"files": [str(f) for f in files]}
    ).fetchall()
    return any(r[0] == "neg" for r in columns)


def negative_rows(
    files: list[Path], con: duckdb.DuckDBPyConnection, batch: int = 10_000
) -> Iterator[tuple[str, str, str, str]]:
    """(key, positive, negative, kind) of every negative of the ok samples, kinds named as in
    :func:`negative_kinds`, streamed in batches."""
    if not files or not _has_neg(files, con):
        return
    cursor = con.execute(
        f"WITH {_NEGATIVES} SELECT key, positive, negative, kind FROM k",
        {"files": [str(f) for f in files]},
    )
    while chunk := cursor.fetchmany(batch):
        yield from chunk


def caption_count(files: list[Path], con: duckdb.DuckDBPyConnection) -> int:
    """Samples with a caption (failed ones too): those without a negative count as well."""
    if not files:
        return 0
    return con.execute(
        "SELECT count(*) FROM read_parquet($files) WHERE trim(coalesce(caption, '')) <> ''",
        {"files": [str(f) for f in files]},
    ).fetchone()[0]


def rejections(stages: dict[str, dict[str, int]]) -> dict[str, int]:
    """Every ``rejected/<reason>`` counter of every stage, by reason (prefixed by the stage
    when it is not the negatives stage), whatever reasons the stages record."""
    out: dict[str, int] = {}
    for stage, counters in stages.items():
        for name, n in counters.items():
            if name.startswith("rejected/"):
                reason = name[len("rejected/") :]
                out[reason if stage == "negatives" else f"{stage}: {reason}"] = n
    return dict(sorted(out.items(), key=lambda kv: (-kv[1], kv[0])))
