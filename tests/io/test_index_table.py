"""The index table built from its buffers is the table pyarrow builds from the rows."""

from __future__ import annotations

import pyarrow as pa

from sgprep.io.records import INDEX_COLUMNS, index_row, index_values, tar_members
from sgprep.io.tables import INDEX_SCHEMA, index_table
from sgprep.schema import Negatives, Sample, SceneGraph


def _row(n: int, **values) -> dict:
    row = dict.fromkeys(INDEX_COLUMNS)
    row.update({"key": f"k{n}", "status": "ok", "meta": "{}", **values})
    return row


def test_columns_with_no_null_some_or_only_nulls():
    rows = [
        _row(0, caption="a cat", sg='{"é":"☃"}', offset=0, size=1536, image_width=4),
        _row(1, caption="", status="failed", stage="read", reason="x", error="naïve"),
        _row(2, caption="a dog 😀", sg="{}", offset=1536, size=2048, image_width=None),
    ]
    built = index_table([_values(r) for r in rows])
    assert built.equals(pa.Table.from_pylist(rows, schema=INDEX_SCHEMA()))
    assert built.column("neg").null_count == 3 and built.column("key").null_count == 0
    one = index_table([_values(rows[1])])
    assert one.equals(pa.Table.from_pylist(rows[1:2], schema=INDEX_SCHEMA()))
    assert index_table([]).equals(pa.Table.from_pylist([], schema=INDEX_SCHEMA()))


def _values(row: dict) -> tuple:
    return tuple(row[c] for c in INDEX_COLUMNS)


def test_a_row_holds_its_values_in_the_columns_order():
    sample = Sample(key="k", source="s", caption="a cat", meta={"u": 1})
    sample.sg = SceneGraph(parser="p", entities=[{"text": "cat", "head": "cat"}])
    sample.neg = Negatives()
    members = tar_members(sample)
    values = index_values(sample, "{}", "00000", 0, 1536, written=members)
    row = index_row(sample, "{}", "00000", 0, 1536, written=members)
    assert tuple(row) == tuple(INDEX_COLUMNS) and tuple(row.values()) == values
    assert row["key"] == "k" and row["caption"] == "a cat" and row["source"] == "s"
    assert row["status"] == "ok" and row["meta"] == '{"u":1}' and row["members"] == "{}"
    assert row["sg"] == members["sg.json"].decode() and row["det"] is None
    assert row["neg"] == '{"negatives":[],"positives":[]}'
    assert (row["shard"], row["offset"], row["size"]) == ("00000", 0, 1536)
    assert row["image_key"] is None and row["stage"] is None
