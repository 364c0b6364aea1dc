"""The shards' Parquet tables: the index (``NNNNN.parquet``, one row per sample) and the
flat negatives table (``negatives/NNNNN.parquet``, one row per negative)."""

from __future__ import annotations

from typing import Any

from sgprep.io.records import INDEX_COLUMNS

#: The flat negatives tables' folder: NegCLIP's CSV in columnar form, one file per shard.
NEGATIVES_DIR = "negatives"
NEGATIVE_COLUMNS = [
    "key",
    "positive",
    "negative",
    "kind",
    "realisation",
    "level",
    "positive_index",
    "strategy",
    "image_key",
]


def negative_rows(key: str, neg) -> list[dict[str, Any]]:
    return [
        {
            "key": key,
            "positive": n.positive,
            "negative": n.text,
            "kind": n.kind,
            "realisation": n.realisation,
            "level": n.level,
            "positive_index": n.positive_index,
            "strategy": n.strategy,
            "image_key": n.image_key,
        }
        for n in neg.negatives
    ]


def NEGATIVES_SCHEMA():  # noqa: N802 - a constant, built lazily
    import pyarrow as pa

    return pa.schema(
        [(c, pa.int32() if c == "positive_index" else pa.string()) for c in NEGATIVE_COLUMNS]
    )


def INDEX_SCHEMA():  # noqa: N802 - a constant, built lazily so pyarrow loads only when used
    import pyarrow as pa

    types = {
        "image_width": pa.int32(),
        "image_height": pa.int32(),
        "offset": pa.int64(),
        "size": pa.int64(),
    }
    return pa.schema([(c, types.get(c, pa.string())) for c in INDEX_COLUMNS])


def index_table(rows: list[tuple[Any, ...]]):
    """The index rows (:func:`index_values`: in :data:`INDEX_COLUMNS` order) as a table
    of :func:`INDEX_SCHEMA`. The columns are built from their buffers: ``pa.array`` on a
    Python list imports pandas (1.2 s) to ask whether the list is one of its arrays, and a
    captions-only run has no other use for pandas. The rows are turned into columns in one
    pass (``zip``), and a column with no null, or only nulls, is encoded without a test per
    value."""
    import numpy as np
    import pyarrow as pa

    schema = INDEX_SCHEMA()
    names = schema.names
    columns = list(zip(*rows)) if rows else [()] * len(names)
    arrays = []
    for field, values in zip(schema, columns):
        n, nulls = len(values), values.count(None)
        if nulls == 0:
            present = np.ones(n, dtype=bool)
        elif nulls == n:
            present = np.zeros(n, dtype=bool)
        else:
            present = np.array([v is not None for v in values], dtype=bool)
        valid = pa.py_buffer(np.packbits(present, bitorder="little"))
        if pa.types.is_string(field.type):
            blob = None
            if nulls == 0 and (text := "".join(values)).isascii():
                # one encoding for the column: ASCII characters are its bytes, one each
                data, blob = values, text.encode("ascii")
            elif nulls == 0:
                data = list(map(str.encode, values))
            elif nulls == n:
                data = [b""] * n
            else:
                data = [v.encode("utf-8") if v is not None else b"" for v in values]
            offsets = np.zeros(n + 1, dtype=np.int64)
            np.cumsum(list(map(len, data)), out=offsets[1:])
            if offsets[-1] >= 2**31:  # beyond 32-bit offsets: the general path
                arrays.append(pa.array(list(values), type=field.type))
                continue
            blob = b"".join(data) if blob is None else blob
            arrays.append(
                pa.StringArray.from_buffers(
                    n, pa.py_buffer(offsets.astype(np.int32)), pa.py_buffer(blob), valid
                )
            )
        else:
            dtype = field.type.to_pandas_dtype()
            numbers = np.array(
                values if nulls == 0 else [0 if v is None else v for v in values], dtype=dtype
            )
            arrays.append(pa.Array.from_buffers(field.type, n, [valid, pa.py_buffer(numbers)]))
    return pa.Table.from_arrays(arrays, schema=schema)
