"""The bundled example: the builder is deterministic, and the main job parses every sample."""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
from pathlib import Path

from tests.conftest import index_rows, run_cli

ROOT = Path(__file__).resolve().parent.parent


def _build(out: Path) -> dict[str, str]:
    subprocess.run(
        [
            sys.executable,
            str(ROOT / "examples" / "build_dataset.py"),
            "--out",
            str(out),
            "--no-optional",
        ],
        check=True,
        capture_output=True,
    )
    return {
        str(p.relative_to(out)): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(out.rglob("*"))
        if p.is_file()
    }


def test_example_dataset_builds_identically_and_parses(tmp_path):
    first, second = _build(tmp_path / "a"), _build(tmp_path / "b")
    assert first == second and "img2dataset/00000.tar" in first
    captions = [
        json.loads(line)["captions"][0]
        for line in (ROOT / "examples" / "captions.jsonl").read_text().splitlines()
    ]
    out = tmp_path / "parsed"
    run_cli("parse", "--input", tmp_path / "a" / "img2dataset", "--output", out, "--no-progress")
    rows = index_rows(out)
    assert len(rows) >= 12 and all(r["status"] == "ok" for r in rows)
    assert {r["caption"] for r in rows} <= set(captions)
    assert all(json.loads(r["sg"])["entities"] for r in rows)
    assert run_cli("validate", out).exit_code == 0


def test_example_pipeline_runs_the_chain_and_goes_on_without_weights(tmp_path, monkeypatch):
    """The README's main job: parse -> detect -> negatives. Offline and without YOLO weights,
    detect is left out (one warning) and the rest runs; stats then reports on the output."""
    monkeypatch.setenv("SGPREP_OFFLINE", "1")
    _build(tmp_path / "data")
    out = tmp_path / "pipeline"
    run_cli(
        "run",
        ROOT / "pipelines" / "example.yaml",
        "--input",
        tmp_path / "data" / "img2dataset",
        "--output",
        out,
        "--no-progress",
        "--workers",
        "1",
    )
    rows = index_rows(out)
    assert rows and all(r["status"] == "ok" and r["sg"] and r["neg"] for r in rows)
    assert all(r["det"] is None for r in rows)
    negatives = [n for r in rows for n in json.loads(r["neg"])["negatives"]]
    assert len(negatives) >= len(rows)
    assert run_cli("validate", out).exit_code == 0
    assert "multi-object captions" in run_cli("stats", out, "--no-html").output
    other = tmp_path / "other.yaml"  # the same run with a stage more, into the same output
    other.write_text(
        f"input: {tmp_path / 'data' / 'img2dataset'}\noutput: {out}\nshard_size: 8\n"
        "stages:\n  parse: {}\n  detect: {optional: true}\n  negatives: {}\n"
    )
    refused = run_cli(
        "run",
        other,
        "--no-progress",
        "--workers",
        "1",
        "--set",
        "negatives.per_sample=1",
        "--set",
        "negatives.strategies=[swap]",
        ok=False,
    )
    assert refused.exit_code == 2
    assert "negatives.per_sample: 4 there, 1 now" in " ".join(refused.output.split())
    run_cli(
        "run",
        ROOT / "pipelines" / "example.yaml",
        "--input",
        tmp_path / "data" / "img2dataset",
        "--output",
        out,
        "--no-progress",
        "--overwrite",
        "--workers",
        "1",
    )  # as `make example`
