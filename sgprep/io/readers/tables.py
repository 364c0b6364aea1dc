"""Caption tables: .txt (a caption a line), .jsonl, .csv/.tsv (with or without a header,
CC12M's ``url<TAB>caption`` included) and .parquet.

Columns are found by name; an ``image`` column with a path (relative to the table) pulls the
image in. URLs are kept as metadata and never fetched.
"""

from __future__ import annotations

import csv
import json
import math
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from sgprep.io.readers import (
    TABLE_SUFFIXES,
    InputError,
    decode_text,
    failed_sample,
    files_under,
    input_roots,
    json_loads,
    load_image_file,
    unreadable_folder,
)
from sgprep.schema import PRODUCTS, Sample

CAPTION_COLUMNS = ("caption", "text", "txt", "sentence", "description", "alt", "raw_caption")
_CAPTION_SET = frozenset(CAPTION_COLUMNS)
KEY_COLUMNS = ("key", "id", "uid", "sample_id", "__key__")
IMAGE_COLUMNS = ("image", "image_path", "file_name", "filename", "path", "img")
URL_COLUMNS = ("url", "image_url", "img_url")
HEADER_WORDS = set(CAPTION_COLUMNS + KEY_COLUMNS + IMAGE_COLUMNS + URL_COLUMNS)
#: A quoted CSV field may hold line breaks, but a record spanning more lines than this is an
#: unterminated quote swallowing the rows after it (see ``_csv_records``).
CSV_MAX_RECORD_LINES = 10
UTF16_BOMS = (b"\xff\xfe", b"\xfe\xff")

_ROWS = {
    ".txt": "_txt_rows",
    ".jsonl": "_jsonl_rows",
    ".csv": "_csv_rows",
    ".tsv": "_tsv_rows",
    ".parquet": "_parquet_rows",
}


def units(paths: list[Path]) -> list[Path]:
    return files_under(paths, TABLE_SUFFIXES)


def records(
    path: Path,
    start: Any = None,
    load: bool = True,
    columns: dict[str, str] | None = None,
    need: tuple[str, ...] = (),
    images_dir: str | None = None,
    allow_outside: bool = False,
) -> Iterator[tuple[Any, Sample]]:
    """(cursor, sample) per record of one table. The cursor is ``[byte offset, line number]``
    of the record's first line (a row number for parquet), so reading resumes there directly
    and sources ("file:line") come out the same however the file is cut into shards.
    ``load=False`` leaves images unread. ``columns`` names the columns to use (``caption``,
    ``key``, ``image``, ``url``: a header name, or a 1-based position); by default they are
    found by name (``CAPTION_COLUMNS`` ...). A table whose first row has no caption column, or
    no column for a role in ``need`` (``image`` for a run that detects), is refused with
    :class:`InputError`, naming the columns it has. An image path that leaves its folder (a link, "..", an
    absolute path) fails ``read/outside_input`` unless ``allow_outside``. ``images_dir``: the folder an image column's
    relative file names are under (else the table's own folder)."""
    if path.is_dir():  # a folder that could not be listed (see files_under)
        yield start, unreadable_folder(path)
        return
    suffix = path.suffix.lower()
    rows = globals()[_ROWS.get(suffix, "_txt_rows")]
    last = start  # where a read that fails now resumes: that failure again
    try:
        if suffix != ".parquet" and _utf16(path):
            yield (
                start,
                failed_sample(
                    "",
                    str(path),
                    "not_utf8",
                    f"{path} is UTF-16 text (it starts with a UTF-16 byte order "
                    f"mark); sgprep reads UTF-8: convert it, e.g. with iconv",
                ),
            )
            return
        # (a new Path at every access)
        checked, base, name = False, Path(images_dir) if images_dir else path.parent, str(path)
        within = None if allow_outside else input_roots(base)
        # a caption a line, no column named: the row is its caption and nothing else
        plain = rows is _txt_rows and not columns
        for cursor, lineno, row, error in rows(path, start or [0, 1]):
            source = f"{name}:{lineno}"
            last = _after(cursor)
            if row is not None and not checked:
                _check_columns(path, row, columns or {}, need)
                checked = True
            if error is not None:
                yield cursor, failed_sample("", source, *error)
            elif plain:
                yield cursor, _caption_sample(row["caption"], source, load)
            else:
                yield cursor, _safe_row_to_sample(row, source, base, load, columns, within)
    except InputError:  # a table sgprep cannot map to samples: refused at start-up
        raise
    except OSError as exc:
        yield last, failed_sample("", str(path), "input_unreadable", f"cannot read {path}: {exc}")
    except Exception as exc:  # a corrupt file (parquet, ...) must not stop the run
        yield (
            last,
            failed_sample(
                "",
                str(path),
                "source_unreadable",
                f"cannot read {path} as a {suffix or 'text'} table: {type(exc).__name__}: {exc}",
            ),
        )


def _after(cursor: Any) -> Any:
    """A cursor just after the record at ``cursor``: a parquet row number moves on, a line
    cursor stays (reading from it reaches the same broken place again)."""
    return cursor + 1 if isinstance(cursor, int) else cursor


def _utf16(path: Path) -> bool:
    with path.open("rb") as fh:
        return fh.read(2) in UTF16_BOMS


Cursor = list[int]  # [byte offset, line number] of a line
Row = tuple[Any, int, "dict[str, Any] | None", "tuple[str, str] | None"]  # cursor, line, row, error


def _lines(
    path: Path,
    start: Cursor,
    any_newline: bool = False,
) -> Iterator[tuple[Cursor, int, str | None, tuple[str, str] | None]]:
    """(cursor of the line, byte offset after it, text, (reason, error) or None) from ``start``.
    Lines end at LF; with ``any_newline`` also at a lone CR (old Mac text) and at CRLF."""
    offset, lineno = start
    with path.open("rb") as fh:
        fh.seek(offset)
        for raw in _any_newline_lines(fh) if any_newline else fh:
            here, offset = [offset, lineno], offset + len(raw)
            text, error = decode_text(raw.rstrip(b"\r\n"), f"line {lineno}")
            yield here, offset, text, ("not_utf8", error) if error else None
            lineno += 1


def _any_newline_lines(fh, chunk_size: int = 1 << 20) -> Iterator[bytes]:
    """The file's lines, each with its ending (LF, CRLF or a lone CR: what
    ``bytes.splitlines`` knows), read a chunk at a time; a chunk's last line waits for the
    next chunk unless it ends in LF (a CR there may be the first half of a CRLF)."""
    pending = b""
    while chunk := fh.read(chunk_size):
        lines = (pending + chunk).splitlines(keepends=True)
        pending = lines.pop()
        yield from lines
        if pending.endswith(b"\n"):
            yield pending
            pending = b""
    if pending:
        yield pending


def _record_lines(path: Path, start: Cursor):
    """Lines that must each hold a record: undecodable and blank ones come as errors."""
    for here, _, text, error in _lines(path, start):
        if error is None and not text.strip():
            yield here, None, ("bad_row", f"line {here[1]} is empty")
        else:
            yield here, text, error


def _txt_rows(path: Path, start: Cursor) -> Iterator[Row]:
    for here, _, text, error in _lines(path, start, any_newline=True):
        yield here, here[1], (None if error else {"caption": text}), error


def _jsonl_rows(path: Path, start: Cursor) -> Iterator[Row]:
    for here, text, error in _record_lines(path, start):
        lineno = here[1]
        if error:
            yield here, lineno, None, error
            continue
        try:
            row = json_loads(text)
        except (ValueError, RecursionError) as exc:  # RecursionError: absurdly deep nesting
            yield here, lineno, None, ("bad_row", f"line {lineno} is not JSON: {exc}")
            continue
        if not isinstance(row, dict):
            yield (
                here,
                lineno,
                None,
                ("bad_row", f"line {lineno} is a JSON {type(row).__name__}, not an object"),
            )
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
            yield (
                here,
                lineno,
                None,
                ("bad_row", f"line {lineno} has {len(cells)} fields, expected {len(header)}"),
            )
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
    """Guess the columns of a header-less table: CC12M is url\\tcaption, CC3M caption\\turl,
    and ``ID<TAB>caption`` is a key then a caption. Anything else: name the columns with
    ``--caption-column`` (positions 1, 2, ... work for header-less tables)."""
    if len(cells) == 1:
        return ["caption"]
    if len(cells) == 2:
        first, second = (c.strip() for c in cells)
        if "://" in first:
            return ["url", "caption"]
        if "://" in second:
            return ["caption", "url"]
        if first.isdigit() and not second.isdigit():
            return ["key", "caption"]
        return ["caption", "col1"]
    return ["caption"] + [f"col{i}" for i in range(1, len(cells))]


ROLES = {"caption": CAPTION_COLUMNS, "key": KEY_COLUMNS, "image": IMAGE_COLUMNS, "url": URL_COLUMNS}


def _column(row: dict[str, Any], role: str, columns: dict[str, str]) -> tuple[bool, Any]:
    """(found, value) of the column playing ``role`` in this row."""
    chosen = columns.get(role)
    if chosen is not None:
        if chosen.isdigit():
            values = list(row.values())
            index = int(chosen) - 1
            inside = 0 <= index < len(values)
            return inside, (_no_nan(values[index]) if inside else None)
        name = chosen.lower()
        return name in row, _no_nan(row.get(name))
    for name in ROLES[role]:
        if _no_nan(row.get(name)) is not None:
            return True, row[name]
    return any(name in row for name in ROLES[role]), None


def _check_columns(
    path: Path, row: dict[str, Any], columns: dict[str, str], need: tuple[str, ...] = ()
) -> None:
    for role in dict.fromkeys(("caption", *[r for r in columns if r != "caption"], *need)):
        found, _ = _column(row, role, columns)
        if not found:
            given = columns.get(role)
            looked = f"column {given!r}" if given else f"any of {', '.join(ROLES[role])}"
            raise InputError(
                f"{path}: no {role} column ({looked}); its columns are "
                f"{', '.join(map(str, row)) or 'none'}. Name it with --{role}-column NAME "
                f"(or a 1-based position for a table without a header)"
            )


def _csv_rows(path: Path, start: Cursor) -> Iterator[Row]:
    header: list[str] | None = None
    width: list[int | None] = [None]  # the header's field count, once known
    if start != [0, 1]:  # the columns come from the file's beginning
        first = next((r for r in _csv_records(path, [0, 1]) if r[2] is not None), None)
        if first is not None:
            header = _csv_header(first[2])
            width[0] = len(header)
    for here, lineno, cells, error in _csv_records(path, start, width):
        if error is not None or cells is None:
            yield here, lineno, None, error
            continue
        if header is None:
            header = _csv_header(cells)
            width[0] = len(header)
            if _is_header(cells):
                continue
        if len(cells) != len(header):
            yield (
                here,
                lineno,
                None,
                ("bad_row", f"line {lineno} has {len(cells)} fields, expected {len(header)}"),
            )
            continue
        yield here, lineno, dict(zip(header, cells)), None


def _is_header(cells: list[str]) -> bool:
    return bool(HEADER_WORDS.intersection(c.strip().lower() for c in cells))


def _csv_header(cells: list[str]) -> list[str]:
    return [c.strip().lower() for c in cells] if _is_header(cells) else _headerless_columns(cells)


class _Runaway(Exception):
    """A record grew past CSV_MAX_RECORD_LINES lines or over an undecodable line."""


def _csv_records(path: Path, start: Cursor, width: list[int | None] | None = None):
    """(cursor of the record's first line, line number, cells or None, error or None).

    The rule for broken quoting: a record spanning several lines is accepted only when it is
    well formed (csv's strict mode), spans at most CSV_MAX_RECORD_LINES lines, contains no
    undecodable line and has the header's field count. Otherwise its first line, the one
    that opened the unterminated quote, is a ``bad_row`` and reading starts again on the
    next line, so the rows after it are read as rows and never swallowed into one caption.
    Starting again is what reading from that line's cursor does, so shards agree."""
    cursor = list(start)
    while cursor is not None:
        cursor = yield from _csv_pass(path, cursor, width or [None])


def _csv_pass(path: Path, start: Cursor, width: list[int | None]):
    """Records from ``start`` until the end (returns None) or a broken multi-line record
    (reports its first line, returns the cursor of the line after it)."""
    record: list[Cursor] = []  # cursors of the lines of the record being parsed
    bad: list[tuple[Cursor, tuple[str, str]]] = []

    def text_lines() -> Iterator[str]:
        for here, _, text, error in _lines(path, start):
            record.append(here)
            if len(record) > CSV_MAX_RECORD_LINES or (error and len(record) > 1):
                raise _Runaway
            if error:
                bad.append((here, error))
                yield "\x00BAD\n"  # a marker row, reported below
            else:
                yield text + "\n"

    reader = csv.reader(text_lines(), strict=True)
    base = start[1] - 1
    while True:
        record.clear()
        try:
            cells = next(reader)
        except StopIteration:
            return None
        except (csv.Error, _Runaway) as exc:
            if len(record) > 1:
                first = record[0]
                yield first, first[1], None, ("bad_row", _unterminated(first[1], exc))
                return record[1]
            lineno = base + reader.line_num
            yield record[0] if record else start, lineno, None, ("bad_row", f"line {lineno}: {exc}")
            continue
        here = record[0]
        if cells == ["\x00BAD"] and bad:
            where, error = bad.pop(0)
            yield where, where[1], None, error
            continue
        if len(record) > 1 and width[0] is not None and len(cells) != width[0]:
            yield here, here[1], None, ("bad_row", _unterminated(here[1], None))
            return record[1]
        lineno = base + reader.line_num  # a record's last line, as sources always said
        if not cells or not any(c.strip() for c in cells):
            yield here, lineno, None, ("bad_row", f"line {lineno} is empty")
            continue
        yield here, lineno, cells, None


def _unterminated(lineno: int, exc: Exception | None) -> str:
    why = f" ({exc})" if isinstance(exc, csv.Error) else ""
    return (
        f"line {lineno} opens a quoted field that does not close properly within "
        f"{CSV_MAX_RECORD_LINES} lines{why}; the line is skipped and reading goes on at "
        f"line {lineno + 1}"
    )


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


def _caption_sample(caption: str, source: str, load: bool) -> Sample:
    """:func:`_row_to_sample` of a row that holds a caption and nothing else (a ``.txt``
    line, no column named): no key, no metadata, no annotation, no image; the caption is
    text already. The same sample without searching the row for the other roles' columns:
    reading 20,000 captions 0.20 -> 0.07 CPU-s, planning them 0.11 -> 0.07."""
    if not load:  # planning: the key is all it reads
        return Sample(key="", source=source)
    return Sample(key="", source=source, caption=caption)


def _safe_row_to_sample(
    row: dict[str, Any],
    source: str,
    base: Path,
    load: bool,
    columns: dict[str, str] | None = None,
    within: tuple[str, ...] | None = None,
) -> Sample:
    try:
        return _row_to_sample(row, source, base, load, columns, within)
    except Exception as exc:  # one odd row fails alone
        return failed_sample(
            "", source, "bad_row", f"cannot use this row: {type(exc).__name__}: {exc}"
        )


def _row_to_sample(
    row: dict[str, Any],
    source: str,
    base: Path,
    load: bool = True,
    columns: dict[str, str] | None = None,
    within: tuple[str, ...] | None = None,
) -> Sample:
    columns = columns or {}
    caption = _column(row, "caption", columns)[1]
    if isinstance(caption, bytes):
        caption, error = decode_text(caption, "caption")
        if error:
            return failed_sample("", source, "caption_encoding", error)
    key = _column(row, "key", columns)[1]
    if not load:  # planning: the key is all it reads
        return Sample(key="" if key is None else str(key), source=source)
    caption_names = {columns["caption"].lower()} if "caption" in columns else _CAPTION_SET
    # annotation columns are read by _annotations, not kept as metadata (skipped here: testing
    # that a scene graph is JSON-able cost as much as reading it)
    products = [f for f, _, _ in PRODUCTS if row.get(f) is not None]
    skip = caption_names.union(products) if products else caption_names
    meta = {k: _no_nan(v) for k, v in row.items() if k not in skip and _jsonable(v)}
    if "url" in columns:
        meta["url"] = _no_nan(_column(row, "url", columns)[1])
    text = caption if caption is None or isinstance(caption, str) else None
    # the caption given at once: pydantic's __setattr__ costs more than the constructor's field
    sample = Sample(key="" if key is None else str(key), source=source, meta=meta, caption=text)
    if caption is not None and not isinstance(caption, str):
        # a list, a struct or a number is not a caption; its repr must not pass as one
        _keep_as_meta(sample, row, PRODUCTS)
        return sample.fail(
            "read",
            "caption_invalid",
            f"the caption is not text but {type(caption).__name__} {str(caption)[:200]}",
        )
    _annotations(sample, row)
    image_path = _column(row, "image", columns)[1]
    if isinstance(image_path, str) and image_path and load:
        _load_image(sample, base / image_path, image_path, within)
    return sample


def _annotations(sample: Sample, row: dict[str, Any]) -> None:
    """An earlier sgprep run's records (its JSONL output, or an index parquet) carry their
    annotations (``sg``, ``det``, ``neg``, as objects or JSON text) and failures along."""
    from pydantic import ValidationError

    for number, (field, _, model) in enumerate(PRODUCTS):
        value = row.get(field)
        if value is None:
            continue
        try:
            parsed = (
                model.model_validate_json(value)
                if isinstance(value, str)
                else model.model_validate(value)
            )
        except ValidationError as exc:
            sample.fail("read", "bad_annotation", f"the {field} column is invalid: {exc}")
            _keep_as_meta(sample, row, PRODUCTS[number + 1 :])
            return
        setattr(sample, field, parsed)
    if row.get("status") == "failed" and row.get("stage") and row.get("reason"):
        sample.fail(str(row["stage"]), str(row["reason"]), str(row.get("error") or ""))
    if "status" in row and "source" in row:  # an sgprep record: its bookkeeping is not metadata
        for name in ("status", "stage", "reason", "error", "source", "image", "key"):
            sample.meta.pop(name, None)
        for field, _, _ in PRODUCTS:  # an annotation the record did not have (null)
            if row.get(field) is None:
                sample.meta.pop(field, None)
        if isinstance(row.get("meta"), dict):
            sample.meta = {**row["meta"], **{k: v for k, v in sample.meta.items() if k != "meta"}}


def _keep_as_meta(sample: Sample, row: dict[str, Any], products) -> None:
    """The annotation columns left unread (the row failed first) are metadata, as any column."""
    for field, _, _ in products:
        if row.get(field) is not None and _jsonable(row[field]):
            sample.meta[field] = _no_nan(row[field])


def _load_image(sample: Sample, path: Path, name: str, within: tuple[str, ...] | None) -> None:
    load_image_file(sample, path, repr(name), within)


def _no_nan(value: Any) -> Any:
    return None if isinstance(value, float) and math.isnan(value) else value


#: Types json.dumps always writes (an int may be too long to: Python's digit limit).
_ALWAYS_JSONABLE = frozenset({str, bool, float, type(None)})


def _jsonable(value: Any) -> bool:
    if type(value) in _ALWAYS_JSONABLE:
        return True
    try:
        json.dumps(value)
        return True
    except (TypeError, ValueError):
        return False
