"""Caption tables: .txt (a caption a line), .jsonl, .csv/.tsv (with or without a header,
CC12M's ``url<TAB>caption`` included) and .parquet.

Columns are found by name; an ``image`` column with a path (relative to the table) pulls the
image in. URLs are kept as metadata and never fetched.
"""

from __future__ import annotations

import csv
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from sgprep.io.readers import TABLE_SUFFIXES, decode_text, failed_sample, files_under
from sgprep.schema import Sample

CAPTION_COLUMNS = ("caption", "text", "txt", "sentence", "description", "alt", "raw_caption")
KEY_COLUMNS = ("key", "id", "uid", "sample_id", "__key__")
IMAGE_COLUMNS = ("image", "image_path", "file_name", "filename", "path", "img")
URL_COLUMNS = ("url", "image_url", "img_url")
HEADER_WORDS = set(CAPTION_COLUMNS + KEY_COLUMNS + IMAGE_COLUMNS + URL_COLUMNS)



_ROWS = {".txt": "_txt_rows", ".jsonl": "_jsonl_rows", ".csv": "_csv_rows",
         ".tsv": "_tsv_rows", ".parquet": "_parquet_rows"}


def units(paths: list[Path]) -> list[Path]:
    return files_under(paths, TABLE_SUFFIXES)


def records(path: Path, start: Any = None, load: bool = True) -> Iterator[tuple[Any, Sample]]:
    """(cursor, sample) per record of one table. The cursor is ``[byte offset, line number]``
    of the record's first line (a row number for parquet), so reading resumes there directly
    and sources ("file:line") come out the same however the file is cut into shards.
    ``load=False`` leaves images unread."""
    rows = globals()[_ROWS.get(path.suffix.lower(), "_txt_rows")]
    try:
        for cursor, lineno, row, error in rows(path, start or [0, 1]):
            source = f"{path}:{lineno}"
            if error is not None:
                yield cursor, failed_sample("", source, *error)
            else:
                yield cursor, _row_to_sample(row, source, path.parent, load)
    except OSError as exc:
        yield start, failed_sample("", str(path), "input_unreadable", f"cannot read {path}: {exc}")


Cursor = list[int]  # [byte offset, line number] of a line
Row = tuple[Any, int, "dict[str, Any] | None", "tuple[str, str] | None"]  # cursor, line, row, error


def _lines(path: Path, start: Cursor) -> Iterator[tuple[Cursor, int, str | None, tuple[str, str] | None]]:
    """(cursor of the line, byte offset after it, text, (reason, error) or None) from ``start``."""
    offset, lineno = start
    with path.open("rb") as fh:
        fh.seek(offset)
        for raw in fh:
            here, offset = [offset, lineno], offset + len(raw)
            text, error = decode_text(raw.rstrip(b"\r\n"), f"line {lineno}")
            yield here, offset, text, ("not_utf8", error) if error else None
            lineno += 1


def _record_lines(path: Path, start: Cursor):
    """Lines that must each hold a record: undecodable and blank ones come as errors."""
    for here, _, text, error in _lines(path, start):
        if error is None and not text.strip():
            yield here, None, ("bad_row", f"line {here[1]} is empty")
        else:
            yield here, text, error


def _txt_rows(path: Path, start: Cursor) -> Iterator[Row]:
    for here, _, text, error in _lines(path, start):
        yield here, here[1], (None if error else {"caption": text}), error


def _jsonl_rows(path: Path, start: Cursor) -> Iterator[Row]:
    for here, text, error in _record_lines(path, start):
        lineno = here[1]
        if error:
            yield here, lineno, None, error
            continue
        try:
            row = json.loads(text)
        except json.JSONDecodeError as exc:
            yield here, lineno, None, ("bad_row", f"line {lineno} is not JSON: {exc}")
            continue
        if not isinstance(row, dict):
            yield here, lineno, None, ("bad_row", f"line {lineno} is a JSON {type(row).__name__}, not an object")
            continue
        yield here, lineno, row, None


def _tsv_rows(path: Path, start: Cursor) -> Iterator[Row]:
    """Tab-separated, no quoting (CC12M captions contain quotes). Header optional: the
    columns are decided by the file's first line, also when reading resumes later on."""
    header, body = _tsv_header(path)
    for here, text, error in _record_lines(path, max(start, body)):
        lineno = here[1]
        if error:
            yield here, lineno, None, error
            continue
        cells = text.split("\t")
        if len(cells) != len(header):
            yield here, lineno, None, ("bad_row", f"line {lineno} has {len(cells)} fields, "
                                       f"expected {len(header)}")
            continue
        yield here, lineno, dict(zip(header, cells)), None


def _tsv_header(path: Path) -> tuple[list[str], Cursor]:
    """The columns of a TSV and the cursor of its first data line."""
    for here, after, text, error in _lines(path, [0, 1]):
        if error is not None or not text.strip():
            continue  # a bad first line is reported as a row; the next one decides
        cells = text.split("\t")
        if here[1] == 1 and HEADER_WORDS.intersection(c.strip().lower() for c in cells):
            return [c.strip().lower() for c in cells], [after, 2]
        return _headerless_columns(cells), [0, 1]
    return ["caption"], [0, 1]


def _headerless_columns(cells: list[str]) -> list[str]:
    """Guess the columns of a header-less table: CC12M is url\\tcaption, CC3M caption\\turl."""
    if len(cells) == 1:
        return ["caption"]
    if len(cells) == 2:
        return ["url", "caption"] if "://" in cells[0] else ["caption", "url"]
    return ["caption"] + [f"col{i}" for i in range(1, len(cells))]


def _csv_rows(path: Path, start: Cursor) -> Iterator[Row]:
    header: list[str] | None = None
    if start != [0, 1]:  # the columns come from the file's beginning
        first = next((r for r in _csv_records(path, [0, 1]) if r[2] is not None), None)
        if first is not None:
            cells = first[2]
            header = ([c.strip().lower() for c in cells]
                      if HEADER_WORDS.intersection(c.strip().lower() for c in cells)
                      else _headerless_columns(cells))
    for here, lineno, cells, error in _csv_records(path, start):
        if error is not None or cells is None:
            yield here, lineno, None, error
            continue
        if header is None:
            if HEADER_WORDS.intersection(c.strip().lower() for c in cells):
                header = [c.strip().lower() for c in cells]
                continue
            header = _headerless_columns(cells)
        if len(cells) != len(header):
            yield here, lineno, None, ("bad_row",
                                       f"line {lineno} has {len(cells)} fields, expected {len(header)}")
            continue
        yield here, lineno, dict(zip(header, cells)), None


def _csv_records(path: Path, start: Cursor):
    """(cursor of the record's first line, line number, cells or None, error or None)."""
    bad: list[tuple[Cursor, tuple[str, str]]] = []
    after: list[Cursor] = [list(start)]  # the cursor after the last line given to csv

    def text_lines() -> Iterator[str]:
        for here, end, text, error in _lines(path, start):
            after[0] = [end, here[1] + 1]
            if error:
                bad.append((here, error))
                yield "\x00BAD\n"  # a marker row, reported below
            else:
                yield text + "\n"

    reader = csv.reader(text_lines())
    base = start[1] - 1
    while True:
        here = after[0]
        try:
            cells = next(reader)
        except StopIteration:
            return
        except csv.Error as exc:
            yield here, base + reader.line_num, None, ("bad_row", f"line {base + reader.line_num}: {exc}")
            continue
        if cells == ["\x00BAD"] and bad:
            where, error = bad.pop(0)
            yield where, where[1], None, error
            continue
        lineno = base + reader.line_num  # a record's last line, as sources always said
        if not cells or not any(c.strip() for c in cells):
            yield here, lineno, None, ("bad_row", f"line {lineno} is empty")
            continue
        yield here, lineno, cells, None


def _parquet_rows(path: Path, start: Any) -> Iterator[Row]:
    import pyarrow.parquet as pq

    first = start if isinstance(start, int) else 0
    parquet = pq.ParquetFile(path)
    row_number, groups = 0, []
    for group in range(parquet.metadata.num_row_groups):  # skip whole row groups before start
        rows = parquet.metadata.row_group(group).num_rows
        if not groups and row_number + rows <= first:
            row_number += rows
            continue
        groups.append(group)
    if not groups:
        return
    for batch in parquet.iter_batches(batch_size=4096, row_groups=groups):
        for row in batch.to_pylist():
            row_number += 1
            if row_number - 1 >= first:
                yield row_number - 1, row_number, {str(k).lower(): v for k, v in row.items()}, None


def _first(row: dict[str, Any], names: tuple[str, ...]) -> Any:
    for name in names:
        if name in row and row[name] is not None:
            return row[name]
    return None


def _row_to_sample(row: dict[str, Any], source: str, base: Path, load: bool = True) -> Sample:
    caption = _first(row, CAPTION_COLUMNS)
    if isinstance(caption, bytes):
        caption, error = decode_text(caption, "caption")
        if error:
            return failed_sample("", source, "caption_encoding", error)
    key = _first(row, KEY_COLUMNS)
    meta = {k: v for k, v in row.items() if _jsonable(v) and k not in CAPTION_COLUMNS}
    sample = Sample(key="" if key is None else str(key), source=source,
                    caption=None if caption is None else str(caption), meta=meta)
    image_path = _first(row, IMAGE_COLUMNS)
    if isinstance(image_path, str) and image_path and load:
        path = (base / image_path).resolve()
        try:
            sample.image = path.read_bytes()
            sample.image_ext = path.suffix.lstrip(".").lower() or "jpg"
        except OSError as exc:
            sample.fail("read", "image_unreadable", f"cannot read image {image_path!r}: {exc}")
    return sample


def _jsonable(value: Any) -> bool:
    try:
        json.dumps(value)
        return True
    except (TypeError, ValueError):
        return False
