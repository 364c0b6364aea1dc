"""One source for every setting: the Settings models make the flags, the YAML keys, --set and
run.json; run-level values reach the stages through one context; api.run picks the executor
the config names."""

from __future__ import annotations

import json
from types import SimpleNamespace

import pytest
import typer

from sgprep import api, flags
from sgprep.cli import VERB_ONLY_FLAGS, app
from sgprep.config import RunConfig
from sgprep.pipeline import STAGES, stage_class
from tests.conftest import index_rows, run_cli

CAPTIONS = (
    "a red cube and a blue sphere\na cat to the left of a dog\n"
    "a small dog on a large mat\na man holding a cup next to a woman\n"
    "a man riding a motorcycle on the road\n"  # siblings to draw from: the seed shows
)


def _pipeline(tmp_path, body: str = "", name: str = "p.yaml"):
    (tmp_path / "c.txt").write_text(CAPTIONS)
    pipe = tmp_path / name
    pipe.write_text(
        "input: c.txt\noutput: out\n"
        + body
        + "stages:\n  parse: {}\n  negatives: {strategies: [swap, shuffle, replace], "
        "per_sample: 6}\n"
    )
    return pipe


def _negatives(out) -> list:
    return [json.loads(r["neg"]) for r in index_rows(out)]


def test_the_run_seed_changes_the_negatives_from_the_flag_and_from_yaml(tmp_path):
    pipe = _pipeline(tmp_path)
    run_cli("run", pipe, "--no-progress", "--workers", "1", "-o", tmp_path / "s0")
    run_cli("run", pipe, "--no-progress", "--workers", "1", "-o", tmp_path / "s7", "--seed", "7")
    seeded = _pipeline(tmp_path, "seed: 7\n", name="p7.yaml")
    run_cli("run", seeded, "--no-progress", "--workers", "1", "-o", tmp_path / "y7")
    assert _negatives(tmp_path / "s0") != _negatives(tmp_path / "s7")
    assert _negatives(tmp_path / "s7") == _negatives(tmp_path / "y7")


def test_a_seed_inside_a_stage_is_refused_naming_the_run_setting(tmp_path):
    (tmp_path / "c.txt").write_text(CAPTIONS)
    pipe = tmp_path / "p.yaml"
    pipe.write_text("input: c.txt\noutput: out\nstages:\n  parse: {}\n  negatives: {seed: 3}\n")
    result = run_cli("run", pipe, ok=False)
    assert result.exit_code == 2 and "'seed' is not one of its settings" in result.output


def test_api_run_uses_the_executor_the_config_names(tmp_path, monkeypatch):
    from sgprep.exec import make_executor
    from sgprep.exec.local import LocalExecutor
    from sgprep.exec.ray_executor import RayExecutor

    calls = []
    ran = SimpleNamespace(problems=[], by="ray")  # what the stubbed executor's run returns
    monkeypatch.setattr(RayExecutor, "run", lambda self: calls.append(self.config) or ran)
    pipe = _pipeline(tmp_path, "executor: ray\n")
    assert api.run(pipe) is ran
    assert calls[0].executor == "ray"
    assert api.run(_pipeline(tmp_path, name="q.yaml"), executor="ray") is ran
    local = calls[0].model_copy(update={"executor": "local"})
    assert type(make_executor(local)) is LocalExecutor
    with pytest.raises(ValueError, match="did you mean 'ray'"):
        make_executor(local.model_copy(update={"executor": "rai"}))


def _verb_flags(name: str) -> dict:
    command = typer.main.get_command(app).get_command(None, name)
    return {p.name: p for p in command.params if p.param_type_name == "option"}


@pytest.mark.parametrize("stage", sorted(STAGES))
def test_every_setting_has_a_flag_and_every_flag_a_setting(stage):
    fields = stage_class(stage).Settings.model_fields
    settings = {n for n, f in fields.items() if not flags.flag_of(f).hidden}  # hidden: YAML only
    run_fields = {n for n, f in RunConfig.model_fields.items() if not flags.flag_of(f).hidden}
    given = set(_verb_flags(stage)) - {"help"}
    assert set(settings) <= given, f"settings without a flag: {set(settings) - given}"
    assert run_fields <= given, f"run fields without a flag: {run_fields - given}"
    unmapped = given - set(settings) - run_fields - set(flags.COLUMN_FLAGS)
    assert unmapped <= VERB_ONLY_FLAGS.get(stage, set()), f"flags of no field: {unmapped}"
    assert not set(settings) & run_fields  # one name, one meaning
    run_verb = set(_verb_flags("run")) - {"help", "sets"}
    assert run_verb == run_fields | set(flags.COLUMN_FLAGS)


def test_flags_are_checked_by_the_model_and_groups_show_in_help(tmp_path):
    (tmp_path / "c.txt").write_text(CAPTIONS)
    bad = run_cli("parse", tmp_path / "c.txt", "-o", tmp_path / "o", "--batch-size", "0", ok=False)
    assert (
        bad.exit_code == 2
        and "--batch-size: Input should be greater than or equal to 1"
        in " ".join(bad.output.split())
    )
    typo = run_cli(
        "parse", tmp_path / "c.txt", "-o", tmp_path / "o", "--parser", "spacey", ok=False
    )
    assert typo.exit_code == 2 and "did you mean 'spacy'" in typo.output
    assert not (tmp_path / "o").exists()
    text = run_cli("parse", "--help").output
    assert "LLM: openai engine:" in text and "t5 parser:" in text and "Run options:" in text


def test_a_new_settings_field_becomes_a_flag_by_itself():
    from pydantic import Field

    from sgprep.exec.stage import StageSettings

    class Toy(StageSettings):
        share: float = Field(default=0.5, ge=0, le=1, description="A share.")

    (param,) = [p for p in flags.field_params(Toy, "toy") if p.name == "share"]
    assert "--share" in param.default.param_decls and "A share. (>= 0, <= 1)" in param.default.help


def test_set_overrides_any_stage_setting_and_run_json_keeps_only_what_applies(tmp_path):
    pipe = _pipeline(tmp_path)
    run_cli(
        "run",
        pipe,
        "--no-progress",
        "--workers",
        "1",
        "--set",
        "parse.predicate_form=surface",
        "--set",
        "negatives.per_sample=1",
    )
    meta = json.loads((tmp_path / "out" / "_meta" / "run.json").read_text())
    parse, negatives = (s["settings"] for s in meta["config"]["stages"])
    assert parse["predicate_form"] == "surface" and negatives["per_sample"] == 1
    for not_spacy in ("engine", "num_beams", "endpoint", "tensor_parallel_size", "fallback"):
        assert not_spacy not in parse and not_spacy not in meta["settings"]["stages"][0]["settings"]
    assert all(len(n["negatives"]) <= 1 for n in _negatives(tmp_path / "out"))
    typo = run_cli("run", pipe, "--set", "parse.predicate_fom=surface", ok=False)
    assert typo.exit_code == 2 and "did you mean 'predicate_form'" in typo.output
    absent = run_cli("run", pipe, "--set", "detect.conf=0.5", ok=False)
    assert absent.exit_code == 2 and "no 'detect' stage" in absent.output
    shape = run_cli("run", pipe, "--set", "parse", ok=False)
    assert shape.exit_code == 2 and "STAGE.SETTING=VALUE" in shape.output


def test_yaml_settings_get_the_model_checks_and_a_stage_is_given_once(tmp_path):
    (tmp_path / "c.txt").write_text(CAPTIONS)
    pipe = tmp_path / "p.yaml"
    pipe.write_text("input: c.txt\noutput: out\nstages:\n  parse: {batch_size: 0}\n")
    result = run_cli("run", pipe, ok=False)
    assert (
        result.exit_code == 2
        and "batch_size: Input should be greater than or equal to 1"
        in " ".join(result.output.split())
    )
    pipe.write_text(
        "input: c.txt\noutput: out\nstages:\n  - parse: {parser: spacy}\n"
        "  - parse: {batch_size: 4}\n"
    )
    result = run_cli("run", pipe, ok=False)
    assert result.exit_code == 2 and "'parse' is given 2 times" in result.output
    pipe.write_text("input: c.txt\noutput: out\nsed: 3\nstages:\n  parse: {}\n")
    result = run_cli("run", pipe, ok=False)
    assert result.exit_code == 2 and "did you mean 'seed'" in result.output
    assert not (tmp_path / "out").exists()


def test_the_input_is_positional_or_given_with_i(tmp_path):
    (tmp_path / "c.txt").write_text(CAPTIONS)
    run_cli("parse", tmp_path / "c.txt", "-o", tmp_path / "a", "--no-progress")
    run_cli("parse", "-i", tmp_path / "c.txt", "-o", tmp_path / "b", "--no-progress")
    assert index_rows(tmp_path / "a") == index_rows(tmp_path / "b")
    both = run_cli(
        "parse", tmp_path / "c.txt", "-i", tmp_path / "x.txt", "-o", tmp_path / "c", ok=False
    )
    assert both.exit_code == 2 and "two inputs" in both.output
    none = run_cli("parse", "-o", tmp_path / "c", ok=False)
    assert none.exit_code == 2 and "give an input" in none.output


def test_path_settings_in_a_yaml_follow_the_yaml_file(tmp_path):
    from sgprep.pipeline import load_pipeline

    pipes = tmp_path / "pipes"
    pipes.mkdir()
    (tmp_path / "v.json").write_text("{}")
    (pipes / "prompt.md").write_text("x")
    pipe = pipes / "p.yaml"
    pipe.write_text(
        "input: ../c.txt\noutput: ../out\nstages:\n"
        "  parse: {parser: llama3, engine: openai, endpoint: 'http://h/v1', "
        "prompt: prompt.md, model: ../models/llama}\n"
        "  detect: {weights: ../w/best.pt}\n  negatives: {vocab: ../v.json}\n"
    )
    parse, detect, negatives = (s.settings for s in load_pipeline(pipe).stages)
    assert parse["prompt"] == str(pipes / "prompt.md")
    assert parse["model"] == str(pipes / "../models/llama")
    assert detect["weights"] == str(pipes / "../w/best.pt")
    assert negatives["vocab"] == str(pipes / "../v.json")
    pipe.write_text(
        "input: c.txt\noutput: out\nstages:\n  parse: {parser: t5, model: org/t5}\n"
        "  detect: {weights: yolov9c.pt}\n"
    )
    parse, detect = (s.settings for s in load_pipeline(pipe).stages)
    assert (parse["model"], detect["weights"]) == ("org/t5", "yolov9c.pt")  # names, not paths


def test_a_stage_added_or_removed_is_named_in_one_line(tmp_path):
    pipe = _pipeline(tmp_path)
    only_parse = tmp_path / "parse.yaml"
    only_parse.write_text("input: c.txt\noutput: out\nstages:\n  parse: {}\n")
    run_cli("run", only_parse, "--no-progress", "--workers", "1")
    refused = run_cli("run", pipe, "--no-progress", ok=False)
    text = " ".join(refused.output.split())
    assert refused.exit_code == 2 and "that run had no negatives stage" in text
    assert "negatives.per_sample" not in text and "(unset)" not in text


def _zip_named_pt(path):
    import zipfile

    with zipfile.ZipFile(path, "w") as z:
        z.writestr("data.pkl", b"not really a model")
    return path


def test_detect_on_captions_without_images_is_refused_at_start(tmp_path):
    table = tmp_path / "c.csv"
    table.write_text("caption\na cat on a mat\na dog\n")
    weights = _zip_named_pt(tmp_path / "w.pt")
    result = run_cli(
        "detect", table, "-o", tmp_path / "o", "--weights", weights, "--no-progress", ok=False
    )
    text = " ".join(result.output.split())
    assert result.exit_code == 2 and "no image column" in text and "--image-column" in text
    assert not (tmp_path / "o").exists()


def test_weights_that_are_not_a_model_are_one_clear_error(tmp_path):
    (tmp_path / "imgs").mkdir()
    (tmp_path / "junk.pt").write_text("these are not weights\n")
    result = run_cli(
        "detect",
        tmp_path / "imgs",
        "-o",
        tmp_path / "o",
        "--weights",
        tmp_path / "junk.pt",
        "--no-progress",
        ok=False,
    )
    assert result.exit_code == 2 and "are not a model" in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert not (tmp_path / "o").exists()


def test_every_verb_takes_its_directory_as_the_argument_or_with_i(tmp_path):
    (tmp_path / "c.txt").write_text(CAPTIONS)
    out = tmp_path / "out"
    run_cli("parse", tmp_path / "c.txt", "-o", out, "--no-progress")
    assert "valid" in run_cli("validate", "-i", out).output
    text = run_cli("stats", "-i", out).output
    assert "samples" in text and "parse: time" in text  # where the time went, per stage
    report = (out / "_meta" / "report.html").read_text()
    assert "Where the time went" in report and "METHOD.md" not in report
    assert "Common Data Properties Limit Object-Attribute Binding in CLIP" in report
    assert "kept" in run_cli("filter", "-i", out, "-o", tmp_path / "v").output
    bad = run_cli("filter", out, "-o", tmp_path / "w", "--attributes-per-object", "3:1", ok=False)
    assert bad.exit_code == 2 and "--attributes-per-object: '3:1': LO is above HI" in bad.output
    assert "pydantic" not in bad.output
    none = run_cli("stats", ok=False)
    assert none.exit_code == 2 and "give an sgprep output directory" in none.output


def test_eval_takes_the_gold_file_as_the_argument_and_writes_with_o(tmp_path):
    gold = tmp_path / "gold.csv"
    gold.write_text(
        'image_id,region_id,caption,scene_graph\n1,1,a dog on a mat,"( dog , on , mat )"\n'
    )
    report = tmp_path / "r.json"
    run_cli("eval", gold, "-o", report)
    assert json.loads(report.read_text())
    typo = run_cli("eval", "-i", gold, "--parser", "spcy", ok=False)
    assert typo.exit_code == 2 and "did you mean 'spacy'" in typo.output


def test_a_mistyped_command_gets_a_suggestion():
    result = run_cli("pars", ok=False)
    assert result.exit_code == 2 and "did you mean 'parse'" in result.output
