"""The index table built from its buffers is the table pyarrow builds from the rows."""

from __future__ import annotations

import pyarrow as pa

from sgprep.io.records import INDEX_COLUMNS
from sgprep.io.writers import INDEX_SCHEMA, index_table


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
    built = index_table(rows)
    assert built.equals(pa.Table.from_pylist(rows, schema=INDEX_SCHEMA()))
    assert built.column("neg").null_count == 3 and built.column("key").null_count == 0
    one = index_table(rows[1:2])
    assert one.equals(pa.Table.from_pylist(rows[1:2], schema=INDEX_SCHEMA()))
