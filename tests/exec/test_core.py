"""The pipeline core: plan then shards, one shard path for any number of workers, resume
without re-reading, per-stage stats, `sgprep run` overrides, and the stage registry."""

from __future__ import annotations

import hashlib
import io
import json
import tarfile
from pathlib import Path

import pytest

from sgprep.exec.stage import Stage
from sgprep.exec.totals import total
from sgprep.schema import ShardStats
from tests.conftest import index_rows, run_cli, shard_stats

CAPTIONS = [
    f"a {c} cube on a {m} table number {i}"
    for i, (c, m) in enumerate(
        (c, m)
        for c in ("red", "blue", "green", "white")
        for m in ("wooden", "glass", "metal", "stone", "small")
    )
]


def digest(out: Path) -> dict[str, str]:
    return {
        p.name: hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(out.iterdir())
        if p.is_file()
    }


def parse(table: Path, out: Path, *extra: str):
    """One worker unless the test asks for more: spawning workers (each loading spaCy) is what
    takes the time, and test_any_number_of_workers_writes_the_same_bytes covers it."""
    workers = () if "--workers" in extra else ("--workers", "1")
    return run_cli("parse", "--input", table, "--output", out, "--no-progress", *workers, *extra)


@pytest.fixture
def table(tmp_path) -> Path:
    path = tmp_path / "captions.txt"
    path.write_text("\n".join(CAPTIONS) + "\n")
    return path


def test_any_number_of_workers_writes_the_same_bytes(tmp_path, table):
    parse(table, tmp_path / "one", "--shard-size", "4", "--workers", "1")
    result = parse(table, tmp_path / "two", "--shard-size", "4", "--workers", "2")
    assert "workers" in result.output
    one, two = digest(tmp_path / "one"), digest(tmp_path / "two")
    # 5 shards of tar, parquet and stats, and the self-description: sizes.json, the dataset card
    assert sorted(one) == sorted(
        [f"{i:05d}{ext}" for i in range(5) for ext in (".tar", ".parquet", "_stats.json")]
        + ["README.md", "sizes.json"]
    )
    assert one == two
    rows = index_rows(tmp_path / "two")
    assert [r["caption"] for r in rows] == CAPTIONS


def test_shard_stats_carry_per_stage_counters_that_add_up(tmp_path, table):
    out = tmp_path / "out"
    parse(table, out, "--shard-size", "6", "--workers", "1")
    stats = [ShardStats.model_validate(s) for s in shard_stats(out)]
    assert [s.samples for s in stats] == [6, 6, 6, 2]
    parse_counters = [s.stages["parse"] for s in stats]
    assert [c["graphs/spacy"] for c in parse_counters] == [6, 6, 6, 2]
    assert all(c["entities"] >= 2 * c["graphs/spacy"] for c in parse_counters)  # cube + table
    summed = total(stats)
    assert summed.samples == len(CAPTIONS) and summed.stages["parse"]["graphs/spacy"] == 20
    # Counters survive a resume: drop two shards' stats (as a kill would) and rerun.
    for name in ("00001_stats.json", "00003_stats.json"):
        (out / name).unlink()
    parse(table, out, "--shard-size", "6")
    again = total(ShardStats.model_validate(s) for s in shard_stats(out))
    assert again == summed
    assert "graphs/spacy" in run_cli("stats", out).output


def test_parse_and_run_with_the_same_settings_resume_each_other(tmp_path, table):
    out = tmp_path / "out"
    parse(table, out, "--shard-size", "5", "--limit", "10")
    pipe = tmp_path / "p.yaml"
    pipe.write_text(
        f"input: {table}\noutput: {out}\nshard_size: 5\nlimit: 10\n"
        "stages:\n  parse: {parser: spacy}\n"
    )
    result = run_cli("run", pipe, "--no-progress", "--workers", "1")
    assert "shards already done" in result.output
    assert len(index_rows(out)) == 10


def test_run_flags_override_the_yaml(tmp_path, table):
    other = tmp_path / "other.txt"
    other.write_text("a dog under a table\na cat on a mat\na man holding a cup\n")
    pipe = tmp_path / "p.yaml"
    pipe.write_text(
        f"input: {table}\noutput: {tmp_path / 'yaml-out'}\nshard_size: 100\n"
        "stages:\n  parse: {parser: spacy}\n"
    )
    out = tmp_path / "flag-out"
    run_cli(
        "run",
        pipe,
        "--input",
        other,
        "--output",
        out,
        "--limit",
        "2",
        "--shard-size",
        "1",
        "--workers",
        "1",
        "--no-progress",
    )
    assert not (tmp_path / "yaml-out").exists()
    assert [r["caption"] for r in index_rows(out)] == ["a dog under a table", "a cat on a mat"]
    assert sorted(p.name for p in out.glob("*_stats.json")) == [
        "00000_stats.json",
        "00001_stats.json",
    ]
    saved = json.loads((out / "_meta" / "run.json").read_text())["config"]
    assert (saved["input"], saved["limit"], saved["workers"]) == (str(other), 2, 1)


class NeedsGraphs(Stage):
    """A stage that needs scene graphs and does nothing with them."""

    name = "needs_sg"
    requires = frozenset({"sg"})

    def process_batch(self, batch):
        return batch


def test_a_stage_whose_needs_nothing_provides_is_refused(tmp_path, table, monkeypatch):
    """Registry check with a stage made for this test (the registry is what is tested)."""
    import sgprep.pipeline as pipeline

    monkeypatch.setitem(pipeline.STAGES, "needs_sg", f"{__name__}:NeedsGraphs")
    pipe = tmp_path / "p.yaml"
    pipe.write_text(f"input: {table}\noutput: {tmp_path / 'out'}\nstages:\n  needs_sg: {{}}\n")
    result = run_cli("run", pipe, ok=False)
    assert result.exit_code == 2
    assert "'needs_sg' needs sg" in result.output and "'parse'" in result.output
    assert not list((tmp_path / "out").glob("*.tar"))
    # With parse first, the same stage runs.
    pipe.write_text(
        f"input: {table}\noutput: {tmp_path / 'out2'}\nstages:\n  parse: {{}}\n  needs_sg: {{}}\n"
    )
    run_cli("run", pipe, "--no-progress")
    assert len(index_rows(tmp_path / "out2")) == len(CAPTIONS)


def _tar_input(path: Path, n: int, photo: bytes) -> None:
    with tarfile.open(path, "w") as tar:
        for i in range(n):
            for ext, data in (("jpg", photo), ("txt", f"a red apple number {i}".encode())):
                info = tarfile.TarInfo(f"s{i:03d}.{ext}")
                info.size = len(data)
                tar.addfile(info, io.BytesIO(data))


def test_a_rerun_reads_only_the_members_of_unfinished_shards(tmp_path, photos, monkeypatch):
    shards = tmp_path / "in"
    shards.mkdir()
    _tar_input(shards / "00000.tar", 12, photos["coffee"])
    _tar_input(shards / "00001.tar", 12, photos["chelsea"])
    reference, out = tmp_path / "reference", tmp_path / "out"
    # in this process (no time budget), where the spy sees what is read
    args = ("--shard-size", "5", "--workers", "1", "--sample-timeout", "0")
    run_cli("parse", "-i", shards, "-o", reference, "--no-progress", *args)
    run_cli("parse", "-i", shards, "-o", out, "--no-progress", *args)
    (out / "00002_stats.json").unlink()  # shard 2: samples 10..14, across both tars
    for suffix in (".tar", ".parquet"):
        (out / f"00002{suffix}").unlink()

    extracted: list[str] = []
    original = tarfile.TarFile.extractfile

    def counting(self, member):
        extracted.append(member.name if hasattr(member, "name") else member)
        return original(self, member)

    monkeypatch.setattr(tarfile.TarFile, "extractfile", counting)
    run_cli("parse", "-i", shards, "-o", out, "--no-progress", *args)
    keys = sorted({name.split(".")[0] for name in extracted})
    assert keys == ["s000", "s001", "s002", "s010", "s011"]  # 00000.tar's 10, 11; 00001.tar's 0-2
    assert digest(out) == digest(reference)


def test_an_input_changed_under_a_finished_shard_is_refused(tmp_path, table):
    out = tmp_path / "out"
    parse(table, out, "--shard-size", "5")
    table.write_text("\n".join(reversed(CAPTIONS)) + "\n")
    (out / "00003_stats.json").unlink()
    result = run_cli(
        "parse",
        "-i",
        table,
        "-o",
        out,
        "--shard-size",
        "5",
        "--no-progress",
        "--workers",
        "1",
        ok=False,
    )
    assert result.exit_code == 2 and "input changed" in result.output


def test_duplicate_keys_across_files_are_found_in_the_plan(tmp_path):
    (tmp_path / "a.jsonl").write_text(
        '{"key": "k1", "caption": "a cat"}\n{"key": "k2", "caption": "a dog"}\n'
    )
    (tmp_path / "b.jsonl").write_text(
        '{"key": "k2", "caption": "a cow"}\n{"key": "k3", "caption": "a hen"}\n'
    )
    out = tmp_path / "out"
    run_cli(
        "parse",
        "-i",
        tmp_path / "*.jsonl",
        "-o",
        out,
        "--shard-size",
        "1",
        "--no-progress",
        "--workers",
        "1",
    )
    rows = index_rows(out)
    assert [r["key"] for r in rows] == ["k1", "k2", "k2_dup000000002", "k3"]
    assert [r["reason"] for r in rows] == [None, None, "duplicate_key", None]


def test_speed_settings_and_path_spelling_do_not_change_bytes_or_block_a_resume(
    tmp_path, table, monkeypatch
):
    parse(table, tmp_path / "a", "--shard-size", "6", "--batch-size", "256")
    parse(table, tmp_path / "b", "--shard-size", "6", "--batch-size", "3")
    assert digest(tmp_path / "a") == digest(tmp_path / "b")
    # The same output named relatively, from elsewhere, with another batch size: resumes.
    (tmp_path / "a" / "00002_stats.json").unlink()
    monkeypatch.chdir(tmp_path)
    result = parse(table, Path("a"), "--shard-size", "6", "--batch-size", "7")
    assert "shards already done" in result.output
    assert digest(tmp_path / "a") == digest(tmp_path / "b")


def test_a_conflict_names_each_differing_setting_with_both_values(tmp_path, table):
    out = tmp_path / "out"
    parse(table, out, "--shard-size", "6")
    result = run_cli(
        "parse",
        "-i",
        table,
        "-o",
        out,
        "--shard-size",
        "5",
        "--predicate-form",
        "surface",
        "--no-progress",
        "--workers",
        "1",
        ok=False,
    )
    assert result.exit_code == 2
    text = " ".join(result.output.split())
    assert "shard_size: 6 there, 5 now" in text
    assert "parse.predicate_form: 'lemma' there, 'surface' now" in text
    assert "4 finished shard(s)" in text
