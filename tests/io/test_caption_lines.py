"""A ``.txt`` table (a caption a line) takes the reader's short path: the same samples as the
general row path, for reading and for planning, odd lines included."""

from __future__ import annotations

from pathlib import Path

import pytest

from sgprep.io.readers import tables
from sgprep.io.readers.tables import _row_to_sample, records

LINES = [
    b"a red cat on a blue mat",
    b"",  # an empty line: a sample whose caption is empty (the intake fails it)
    b"   ",
    b"\xef\xbb\xbfa caption after a BOM",
    b"caf\xc3\xa9 au lait, 'quoted' \"twice\"\tand a tab",
    b"not utf-8 \xff here",  # a failed sample (not_utf8)
    b"a line ending in CRLF\r",
    b"key,caption",  # looks like a header: still a caption
]


def _general(path: Path, load: bool) -> list[tuple]:
    """What the row path gives for each line (``_row_to_sample`` of ``{"caption": text}``)."""
    out = []
    for cursor, lineno, row, error in tables._txt_rows(path, [0, 1]):
        source = f"{path}:{lineno}"
        if error is not None:
            out.append((cursor, tables.failed_sample("", source, *error)))
        else:
            out.append((cursor, _row_to_sample(row, source, path.parent, load)))
    return out


@pytest.mark.parametrize("load", [True, False])
def test_txt_lines_give_the_row_paths_samples(tmp_path, load):
    path = tmp_path / "captions.txt"
    path.write_bytes(b"\n".join(LINES) + b"\rold mac line\n")
    fast = list(records(path, load=load))
    assert len(fast) == len(LINES) + 1
    assert [(c, s.model_dump()) for c, s in fast] == [
        (c, s.model_dump()) for c, s in _general(path, load)
    ]
    by_line = {s.source.rsplit(":", 1)[1]: s for _, s in fast}
    assert by_line["6"].failure is not None and by_line["6"].failure.reason == "not_utf8"
    if load:
        assert by_line["1"].caption == "a red cat on a blue mat"
        assert by_line["4"].caption == "a caption after a BOM"
        assert by_line["2"].caption == "" and by_line["2"].ok
    else:
        assert all(s.caption is None for _, s in fast)


def test_txt_resumes_at_a_cursor_with_the_same_samples(tmp_path):
    path = tmp_path / "captions.txt"
    path.write_bytes(b"\n".join(LINES) + b"\n")
    whole = list(records(path))
    cursor, _ = whole[4]
    again = list(records(path, cursor))
    assert [s.model_dump() for _, s in again] == [s.model_dump() for _, s in whole[4:]]


def test_named_columns_still_take_the_row_path(tmp_path):
    """--caption-column on a .txt is the row path's business (a position, a missing name)."""
    path = tmp_path / "captions.txt"
    path.write_bytes(b"one\ntwo\n")
    assert [s.caption for _, s in records(path, columns={"caption": "1"})] == ["one", "two"]
    with pytest.raises(tables.InputError, match="no caption column"):
        list(records(path, columns={"caption": "text"}))


def test_a_txt_table_is_refused_where_a_stage_needs_images(tmp_path):
    path = tmp_path / "captions.txt"
    path.write_bytes(b"one\n")
    with pytest.raises(tables.InputError, match="no image column"):
        list(records(path, need=("image",)))
