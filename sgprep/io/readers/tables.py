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

Row = tuple[int, dict[str, Any] | None, tuple[str, str] | None]  # (line, row, (reason, error))


def read_tables(paths: list[Path]) -> Iterator[Sample]:
    for path in files_under(paths, TABLE_SUFFIXES):
        readers = {".txt": _txt_rows, ".jsonl": _jsonl_rows, ".csv": _csv_rows,
                   ".tsv": _tsv_rows, ".parquet": _parquet_rows}
        rows = readers.get(path.suffix.lower(), _txt_rows)
        try:
            for lineno, row, error in rows(path):
                source = f"{path}:{lineno}"
                if error is not None:
                    yield failed_sample("", source, *error)
                else:
                    yield _row_to_sample(row, source, path.parent)
        except OSError as exc:
            yield failed_sample("", str(path), "input_unreadable", f"cannot read {path}: {exc}")


def _lines(path: Path) -> Iterator[tuple[int, str | None, tuple[str, str] | None]]:
    with path.open("rb") as fh:
        for lineno, raw in enumerate(fh, 1):
            raw = raw.rstrip(b"\r\n")
            text, error = decode_text(raw, f"line {lineno}")
            yield lineno, text, ("not_utf8", error) if error else None


def _empty(lineno: int) -> tuple[int, None, tuple[str, str]]:
    return lineno, None, ("bad_row", f"line {lineno} is empty")


def _record_lines(path: Path) -> Iterator[tuple[int, str | None, tuple[str, str] | None]]:
    """Lines that must each hold a record: undecodable and blank ones come as errors."""
    for lineno, text, error in _lines(path):
        if error is None and not text.strip():
            yield _empty(lineno)
        else:
            yield lineno, text, error


def _txt_rows(path: Path) -> Iterator[Row]:
    for lineno, text, error in _lines(path):
        yield lineno, (None if error else {"caption": text}), error


def _jsonl_rows(path: Path) -> Iterator[Row]:
    for lineno, text, error in _record_lines(path):
        if error:
            yield lineno, None, error
            continue
        try:
            row = json.loads(text)
        except json.JSONDecodeError as exc:
            yield lineno, None, ("bad_row", f"line {lineno} is not JSON: {exc}")
            continue
        if not isinstance(row, dict):
            yield lineno, None, ("bad_row", f"line {lineno} is a JSON {type(row).__name__}, not an object")
            continue
        yield lineno, row, None


def _tsv_rows(path: Path) -> Iterator[Row]:
    """Tab-separated, no quoting (CC12M captions contain quotes). Header optional."""
    header: list[str] | None = None
    for lineno, text, error in _record_lines(path):
        if error:
            yield lineno, None, error
            continue
        cells = text.split("\t")
        if header is None:
            if lineno == 1 and HEADER_WORDS.intersection(c.strip().lower() for c in cells):
                header = [c.strip().lower() for c in cells]
                continue
            header = _headerless_columns(cells)
        if len(cells) != len(header):
            yield lineno, None, ("bad_row", f"line {lineno} has {len(cells)} fields, expected {len(header)}")
            continue
        yield lineno, dict(zip(header, cells)), None


def _headerless_columns(cells: list[str]) -> list[str]:
    """Guess the columns of a header-less table: CC12M is url\\tcaption, CC3M caption\\turl."""
    if len(cells) == 1:
        return ["caption"]
    if len(cells) == 2:
        return ["url", "caption"] if "://" in cells[0] else ["caption", "url"]
    return ["caption"] + [f"col{i}" for i in range(1, len(cells))]


def _csv_rows(path: Path) -> Iterator[Row]:
    lines = _lines(path)
    bad: list[tuple[int, tuple[str, str]]] = []

    def text_lines() -> Iterator[str]:
        for lineno, text, error in lines:
            if error:
                bad.append((lineno, error))
                yield "\x00BAD\n"  # a marker row, reported below
            else:
                yield text + "\n"

    reader = csv.reader(text_lines())
    header: list[str] | None = None
    while True:
        try:
            cells = next(reader)
        except StopIteration:
            return
        except csv.Error as exc:
            yield reader.line_num, None, ("bad_row", f"line {reader.line_num}: {exc}")
            continue
        if cells == ["\x00BAD"] and bad:
            lineno, error = bad.pop(0)
            yield lineno, None, error
            continue
        if not cells or not any(c.strip() for c in cells):
            yield _empty(reader.line_num)
            continue
        if header is None:
            if HEADER_WORDS.intersection(c.strip().lower() for c in cells):
                header = [c.strip().lower() for c in cells]
                continue
            header = _headerless_columns(cells)
        if len(cells) != len(header):
            yield reader.line_num, None, ("bad_row",
                f"line {reader.line_num} has {len(cells)} fields, expected {len(header)}")
            continue
        yield reader.line_num, dict(zip(header, cells)), None


def _parquet_rows(path: Path) -> Iterator[Row]:
    import pyarrow.parquet as pq

    lineno = 0
    for batch in pq.ParquetFile(path).iter_batches(batch_size=4096):
        for row in batch.to_pylist():
            lineno += 1
            yield lineno, {str(k).lower(): v for k, v in row.items()}, None


def _first(row: dict[str, Any], names: tuple[str, ...]) -> Any:
    for name in names:
        if name in row and row[name] is not None:
            return row[name]
    return None


def _row_to_sample(row: dict[str, Any], source: str, base: Path) -> Sample:
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
    if isinstance(image_path, str) and image_path:
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
