"""JSON Lines input: read as ``json`` reads it (orjson where the two agree), annotation columns
read as annotations (or kept as metadata when the row fails first), and planning finds the
same keys as reading."""

from __future__ import annotations

import json
import math

from sgprep.io.readers import tables

GRAPH = {
    "entities": [
        {"text": "red cat", "head": "cat", "attributes": ["red"], "span": [2, 9]},
        {"text": "mat", "head": "mat", "span": [17, 20]},
    ],
    "relations": [{"subject": 0, "predicate": "on", "object": 1}],
    "parser": "spacy",
}


def _read(path, load=True):
    return [s for _, s in tables.records(path, load=load)]


def test_lines_read_as_json_reads_them(tmp_path):
    lines = [
        '{"caption": "a", "n": 1180591620717411303424}',  # 2**70: orjson would give a float
        '{"caption": "b", "n": -18446744073709551616}',
        '{"caption": "c", "n": NaN, "m": [Infinity, 1e400]}',
        '{"caption": "d", "s": "\\ud800 lone", "t": "\\ud83d\\ude00"}',
        '{"caption": "e", "f": 1.5e-7, "g": 0.1, "h": 18446744073709551615, "i": -0.0}',
        '{"caption": "f", "dup": 1, "dup": 2, "nested": {"a": [1, {"b": null}]}}',
    ]
    table = tmp_path / "t.jsonl"
    table.write_text("\n".join(lines) + "\n")
    for line, sample in zip(lines, _read(table), strict=True):
        want = {k: v for k, v in json.loads(line).items() if k != "caption"}
        want = {k: None if isinstance(v, float) and math.isnan(v) else v for k, v in want.items()}
        assert sample.failure is None
        assert repr(sample.meta) == repr(want)  # types too: 2**70 stays an int
    assert _read(table)[2].meta["m"][0] == math.inf


def test_annotation_columns_are_read_or_kept_as_metadata(tmp_path):
    rows = [
        {
            "key": "ok",
            "caption": "a red cat on a mat",
            "sg": GRAPH,
            "det": None,
            "neg": None,
            "status": "ok",
            "source": "x",
        },
        {"key": "list", "caption": ["not", "text"], "sg": GRAPH, "det": None},
        {"key": "bad", "caption": "a cat", "sg": {"parser": 3}, "neg": {"negatives": []}},
        {"key": "text", "caption": "a red cat on a mat", "sg": json.dumps(GRAPH)},
    ]
    table = tmp_path / "t.jsonl"
    table.write_text("".join(json.dumps(r) + "\n" for r in rows))
    ok, listed, bad, text = _read(table)
    assert ok.failure is None and ok.sg.entities[0].head == "cat"
    assert ok.meta == {}  # an sgprep record's key, status and source are not metadata
    assert listed.failure.reason == "caption_invalid"
    assert listed.meta == {"key": "list", "sg": GRAPH, "det": None}  # the row failed first
    assert bad.failure.reason == "bad_annotation" and "sg column" in bad.failure.message
    assert bad.meta == {"key": "bad", "neg": {"negatives": []}}  # sg failed: neg never read
    assert text.failure is None and text.sg == ok.sg and "sg" not in text.meta


def test_planning_finds_the_keys_reading_finds(tmp_path):
    table = tmp_path / "t.jsonl"
    table.write_text(
        '{"key": 7, "caption": "a"}\n'
        '{"caption": "no key"}\n'
        '{"id": "k3", "caption": ["a list"], "sg": {"parser": "x"}}\n'
        '{"key": "k4", "caption": "a", "sg": {"entities": 3}}\n'
        "[1, 2]\n"
        "not json\n"
        '{"key": "k7", "text": "b", "n": 1180591620717411303424}\n'
    )
    read = [s.key for s in _read(table)]
    assert read == ["7", "", "k3", "k4", "", "", "k7"]
    assert [s.key for s in _read(table, load=False)] == read


def test_metadata_columns_kept_are_those_json_can_write():
    import sys

    huge = 10 ** (sys.get_int_max_str_digits() + 1)  # json.dumps refuses its digits
    row = {"caption": "a", "s": "x\ud800", "f": math.nan, "b": True, "n": None, "i": 3, "h": huge}
    sample = tables._row_to_sample(row, "t.jsonl:1", tables.Path("."))
    assert sorted(sample.meta) == ["b", "f", "i", "n", "s"]
    assert sample.meta["f"] is None  # NaN kept as null
