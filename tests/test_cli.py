"""The CLI surface: pipelines from YAML, stats, and commands whose stage comes later."""

from __future__ import annotations

import json

from tests.conftest import index_rows, run_cli


def test_run_pipeline_yaml_resolves_paths_relative_to_the_file(tmp_path):
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "c.txt").write_text("a red cube and a blue sphere\na dog under a table\n")
    pipe = tmp_path / "pipes" / "p.yaml"
    pipe.parent.mkdir()
    pipe.write_text(
        "input: ../data/c.txt\noutput: ../out\nshard_size: 1\n"
        "stages:\n  parse: {parser: spacy, batch_size: 8}\n"
    )
    run_cli("run", pipe, "--no-progress", "--workers", "1")
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
    assert "stage 'parze' is not known" in result.output and "did you mean 'parse'" in result.output
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
    table.write_text(
        "a red cube and a blue sphere\na blue cube and a red sphere\na cat to the left of a dog\n"
    )
    parsed, negs = tmp_path / "parsed", tmp_path / "negs"
    run_cli("parse", "-i", table, "-o", parsed, "--no-progress")
    # cubes and spheres are no scene the statistics know: the rules alone here
    run_cli(
        "negatives",
        "-i",
        parsed,
        "-o",
        negs,
        "--strategy",
        "swap,shuffle",
        "--no-progress",
        "--no-plausibility",
    )
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
        (
            ["--parser", "llama3", "--model", str(tmp_path / "no-such-llama")],
            "no-such-llama",
            "--model",
        ),
    ]
    for flags, name, hint in cases:
        result = run_cli(
            "parse",
            "--input",
            table,
            "--output",
            tmp_path / "o",
            "--overwrite",
            "--no-progress",
            *flags,
            ok=False,
        )
        assert result.exit_code == 2, result.output
        assert name in result.output and hint in result.output


def test_table_columns_are_chosen_by_flag_or_refused_at_start_up(tmp_path):
    headerless = tmp_path / "ids.tsv"
    headerless.write_text("1\ta red car\n2\ta blue bus\n")
    out = tmp_path / "out"
    run_cli("parse", "-i", headerless, "-o", out, "--no-progress")
    assert [(r["key"], r["caption"]) for r in index_rows(out)] == [
        ("1", "a red car"),
        ("2", "a blue bus"),
    ]
    odd = tmp_path / "odd.csv"
    odd.write_text("id,label,url\n7,a cat on a mat,http://x/7.jpg\n")
    refused = run_cli("parse", "-i", odd, "-o", tmp_path / "o2", "--no-progress", ok=False)
    text = " ".join(refused.output.split())
    assert refused.exit_code == 2 and "no caption column" in text and "id, label, url" in text
    assert "--caption-column" in text and not (tmp_path / "o2").exists()
    run_cli(
        "parse",
        "-i",
        odd,
        "-o",
        tmp_path / "o3",
        "--caption-column",
        "label",
        "--key-column",
        "id",
        "--no-progress",
    )
    row = index_rows(tmp_path / "o3")[0]
    assert (row["key"], row["caption"], json.loads(row["meta"])["url"]) == (
        "7",
        "a cat on a mat",
        "http://x/7.jpg",
    )
    by_position = tmp_path / "pos.tsv"
    by_position.write_text("x\ty\ta dog under a table\n")
    run_cli(
        "parse", "-i", by_position, "-o", tmp_path / "o4", "--caption-column", "3", "--no-progress"
    )
    assert index_rows(tmp_path / "o4")[0]["caption"] == "a dog under a table"


def test_negatives_read_sgprep_jsonl_records(tmp_path):
    table = tmp_path / "c.txt"
    table.write_text("a red cube and a blue sphere\n\n")
    graphs = tmp_path / "graphs.jsonl"
    run_cli("parse", "-i", table, "-o", graphs, "--no-progress")
    negs = tmp_path / "negs.jsonl"
    run_cli(
        "negatives",
        "-i",
        graphs,
        "-o",
        negs,
        "--strategy",
        "swap",
        "--no-progress",
        "--no-plausibility",
    )
    records = [json.loads(line) for line in negs.read_text().splitlines()]
    assert [r["status"] for r in records] == ["ok", "failed"]
    assert records[1]["reason"] == "caption_empty"  # the parse run's failure travels along
    assert records[0]["sg"] is not None
    assert "a blue cube and a red sphere" in {n["text"] for n in records[0]["neg"]["negatives"]}


def test_yaml_mistakes_get_one_clear_message_each(tmp_path):
    pipe = tmp_path / "p.yaml"
    pipe.write_text("input: x.txt\noutput: out\nstages:\n  parse: {parser: spacy\n")  # unclosed
    result = run_cli("run", pipe, ok=False)
    assert result.exit_code == 2 and "not valid YAML" in result.output
    pipe.write_text("input: x.txt\noutput: out\nshard_size: -3\nstages:\n  parse: {}\n")
    result = run_cli("run", pipe, ok=False)
    assert result.exit_code == 2 and "shard_size: Input should be greater than 0" in result.output
    pipe.write_text("input: x.txt\noutput: out\nstages:\n  parse: {batchsize: 3}\n")
    result = run_cli("run", pipe, ok=False)
    text = " ".join(result.output.split())
    assert result.exit_code == 2
    assert (
        "stage 'parse': 'batchsize' is not one of its settings; did you mean 'batch_size'?" in text
    )
    assert "pydantic.dev" not in result.output  # no links into pydantic's docs


def test_progress_lines_are_logged_when_stderr_is_not_a_terminal(tmp_path, caplog):
    from sgprep import api

    table = tmp_path / "c.txt"
    table.write_text("a cat on a mat\n" * 40)
    caplog.set_level("INFO")
    api.run(
        {
            "input": str(table),
            "output": str(tmp_path / "out"),
            "shard_size": 10,
            "stages": [{"name": "parse", "settings": {"batch_size": 5}}],
        },
        workers=1,
        progress=True,
        progress_interval=0.001,
    )
    lines = [r.getMessage() for r in caplog.records if "samples (" in r.getMessage()]
    assert lines and lines[-1].startswith("run: 40/40 samples (100.0%)")
    assert "samples/s, eta" in lines[0]


def test_an_output_that_cannot_be_written_is_one_clear_line(tmp_path):
    table = tmp_path / "c.txt"
    table.write_text("a cat\n")
    as_file = tmp_path / "taken"
    as_file.write_text("")
    result = run_cli("parse", "-i", table, "-o", as_file, "--no-progress", ok=False)
    assert result.exit_code == 2 and "is a file" in result.output
    wrong = run_cli("parse", "-i", table, "-o", tmp_path / "graphs.json", "--no-progress", ok=False)
    assert wrong.exit_code == 2 and "FILE.jsonl" in wrong.output
    assert not (tmp_path / "graphs.json").exists()


def test_a_text_file_read_as_wds_is_a_failure_row_not_a_traceback(tmp_path):
    table = tmp_path / "c.txt"
    table.write_text("a cat\n")
    result = run_cli(
        "parse",
        "-i",
        table,
        "-o",
        tmp_path / "o",
        "--input-format",
        "wds",
        "--no-progress",
        ok=False,
    )
    rows = index_rows(tmp_path / "o")
    assert [(r["status"], r["reason"]) for r in rows] == [("failed", "tar_truncated")]
    # every sample failed: the failure rows are kept, and the run is not a success
    assert result.exit_code == 1 and "every sample failed" in result.output


def test_messages_are_text_not_markup_and_strategy_names_any_case(tmp_path):
    captions = tmp_path / "c.txt"
    captions.write_text("a red cube and a blue sphere\n")
    # rich would read "[llm]" as a style and drop it: "pip install 'sgprep'" (issue 34)
    result = run_cli("parse", captions, "-o", tmp_path / "g", "--parser", "llama3", ok=False)
    assert result.exit_code != 0 and "sgprep[llm]" in result.output, result.output
    run_cli("parse", captions, "-o", tmp_path / "p", "--no-progress")
    run_cli(
        "negatives",
        "-i",
        tmp_path / "p",
        "-o",
        tmp_path / "n",
        "--strategy",
        "Swap,SHUFFLE",
        "--no-progress",
    )
    meta = json.loads((tmp_path / "n" / "_meta" / "run.json").read_text())
    assert meta["config"]["stages"][0]["settings"]["strategies"] == ["swap", "shuffle"]


def test_an_empty_output_read_again_is_named_as_such(tmp_path):
    empty = tmp_path / "empty.txt"
    empty.write_text("")
    run_cli("parse", empty, "-o", tmp_path / "g", "--no-progress")
    assert "0 shard(s) valid" in run_cli("validate", tmp_path / "g").output
    result = run_cli("negatives", "-i", tmp_path / "g", "-o", tmp_path / "n", ok=False)
    assert result.exit_code != 0 and "no samples in it" in result.output, result.output


def test_the_summary_shows_what_a_user_acts_on_and_every_counter_one_flag_away(tmp_path):
    captions = tmp_path / "c.txt"
    captions.write_text("a red cube and a blue sphere\na man riding a horse on a beach\n")
    run_cli("parse", captions, "-o", tmp_path / "p", "--no-progress")
    args = ["--strategy", "swap,replace,connect", "--no-progress"]
    short = run_cli("negatives", "-i", tmp_path / "p", "-o", tmp_path / "n", *args).output
    # negatives by kind with their mean length ratio; no sums of ratios, no refusal reasons
    assert "(length x" in short and "length_ratio_permille" not in short
    assert "rejected/" not in short
    full = run_cli(
        "--counters", "negatives", "-i", tmp_path / "p", "-o", tmp_path / "n2", *args
    ).output
    assert "rejected/" in full and "length_ratio_permille" not in full


def test_set_of_an_unknown_stage_names_the_setting_whole_and_suggests(tmp_path):
    pipe = tmp_path / "p.yaml"
    pipe.write_text("input: c.txt\noutput: out\nstages:\n  parse: {}\n  negatives: {}\n")
    result = run_cli("run", pipe, "--set", "negative.strategies=swap", ok=False)
    assert result.exit_code == 2
    assert "--set negative.strategies:" in result.output and "'negatives'" in result.output


def test_filter_and_eval_take_their_flags_from_their_models():
    """sgprep filter's criteria are the Criteria model's fields, and sgprep eval's parser
    flags the parse stage's settings: a field added to a model is a flag, with its help."""
    from typer.testing import CliRunner

    from sgprep.cli import app
    from sgprep.parse.base import ParserSettings
    from sgprep.stats.filter import Criteria

    runner = CliRunner()
    for command, model in (("filter", Criteria), ("eval", ParserSettings)):
        shown = runner.invoke(app, [command, "--help"], terminal_width=200).output
        for name in model.model_fields:
            assert "--" + name.replace("_", "-") in shown, (command, name)
