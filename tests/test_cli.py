"""The CLI surface: pipelines from YAML, stats, and commands whose stage comes later."""

from __future__ import annotations

import json

from tests.conftest import index_rows, run_cli


def test_run_pipeline_yaml_resolves_paths_relative_to_the_file(tmp_path):
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "c.txt").write_text("a red cube and a blue sphere\na dog under a table\n")
    pipe = tmp_path / "pipes" / "p.yaml"
    pipe.parent.mkdir()
    pipe.write_text("input: ../data/c.txt\noutput: ../out\nshard_size: 1\n"
                    "stages:\n  parse: {parser: spacy, batch_size: 8}\n")
    run_cli("run", pipe, "--no-progress")
    rows = index_rows(tmp_path / "out")
    assert [r["caption"] for r in rows] == ["a red cube and a blue sphere", "a dog under a table"]
    meta = json.loads((tmp_path / "out" / "_meta" / "run.json").read_text())
    stage = meta["config"]["stages"][0]
    assert stage["name"] == "parse" and stage["settings"]["batch_size"] == 8
    assert meta["config"]["shard_size"] == 1


def test_pipeline_with_an_unknown_stage_is_refused_with_a_suggestion(tmp_path):
    pipe = tmp_path / "p.yaml"
    pipe.write_text("input: x.txt\noutput: out\nstages:\n  parze: {}\n")
    result = run_cli("run", pipe, ok=False)
    assert result.exit_code == 2
    assert "unknown stage 'parze'" in result.output and "did you mean 'parse'" in result.output
    assert not (tmp_path / "out").exists()


def test_stats_reports_totals_and_caption_properties(tmp_path):
    table = tmp_path / "c.txt"
    table.write_text("a red cube and a blue sphere\n\na cat\n")
    out = tmp_path / "out"
    run_cli("parse", "--input", table, "--output", out, "--no-progress")
    result = run_cli("stats", out)
    text = result.output
    assert "samples" in text and "read/caption_empty" in text
    assert "multi-object captions" in text and "50.0%" in text  # 1 of the 2 parsed captions
    assert (out / "_meta" / "report.html").is_file() and (out / "_meta" / "stats.parquet").is_file()
    view = tmp_path / "view"
    result = run_cli("filter", out, "--output", view, "--min-caption-objects", "2")
    assert "kept 1 of 2 ok samples" in result.output
    import pyarrow.parquet as pq

    kept = pq.read_table(view / "index.parquet").to_pylist()
    assert [r["key"] for r in kept] == ["000000000"]  # the cube and the sphere, not the cat


def test_parse_then_negatives_then_mined_images(tmp_path):
    table = tmp_path / "c.txt"
    table.write_text("a red cube and a blue sphere\na blue cube and a red sphere\n"
                     "a cat to the left of a dog\n")
    parsed, negs = tmp_path / "parsed", tmp_path / "negs"
    run_cli("parse", "-i", table, "-o", parsed, "--no-progress")
    run_cli("negatives", "-i", parsed, "-o", negs, "--strategy", "swap,shuffle", "--no-progress")
    rows = index_rows(negs)
    assert [r["status"] for r in rows] == ["ok"] * 3
    first = json.loads(rows[0]["neg"])
    texts = {n["text"] for n in first["negatives"]}
    assert "a blue cube and a red sphere" in texts  # the attribute swap, edited in place
    shuffled = {n["text"] for n in json.loads(rows[2]["neg"])["negatives"]}
    assert "a dog to the left of a cat" in shuffled
    mined = tmp_path / "mined.jsonl"
    result = run_cli("negatives", "-i", parsed, "-o", mined, "--strategy", "mine-images")
    lines = [json.loads(x) for x in mined.read_text().splitlines()]
    pairs = {(line["key"], n["image_key"]) for line in lines for n in line["negatives"]}
    assert pairs == {("000000000", "000000001"), ("000000001", "000000000")}
    assert "matches" in result.output


def test_negatives_on_raw_captions_is_refused_naming_parse(tmp_path):
    table = tmp_path / "c.txt"
    table.write_text("a red cube\n")
    result = run_cli("negatives", "-i", table, "-o", tmp_path / "o", "--no-progress", ok=False)
    assert result.exit_code == 2
    assert "'negatives' needs sg" in result.output and "'parse'" in result.output
    assert not (tmp_path / "o").exists()


def test_version():
    from sgprep import __version__

    assert run_cli("--version").output.strip() == __version__


def test_missing_models_are_named_with_how_to_supply_them(tmp_path, monkeypatch):
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    table = tmp_path / "c.txt"
    table.write_text("a cat on a mat\n")
    cases = [
        (["--spacy-model", "en_core_web_nonexistent"], "en_core_web_nonexistent", "pip install"),
        (["--parser", "llama3", "--model", str(tmp_path / "no-such-llama")], "no-such-llama",
         "--model"),
    ]
    for flags, name, hint in cases:
        result = run_cli("parse", "--input", table, "--output", tmp_path / "o", "--overwrite",
                         "--no-progress", *flags, ok=False)
        assert result.exit_code == 2, result.output
        assert name in result.output and hint in result.output
