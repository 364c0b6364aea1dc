"""Nothing under an output is opened, written or deleted through a planted link; --overwrite
deletes only sgprep's own files; a refused or failed run deletes nothing of another's; an
interrupted run leaves no finished-looking tar (issue 20, items 1-3, 5, 14, 17)."""

from __future__ import annotations

import fcntl
import os
import signal
import subprocess
import sys
import time

import pytest

from sgprep.io import writer_base, writers
from tests.conftest import run_cli
from tests.tree_hash import tree_hash

CAPTIONS = "".join(f"a red cat on a mat number {i}\n" for i in range(12))


@pytest.fixture
def victim(tmp_path):
    """A folder of a user's that no run may touch, with its digest."""
    folder = tmp_path / "victim"
    (folder / "sub").mkdir(parents=True)
    (folder / "important.txt").write_text("keep\n")
    (folder / "run.json").write_text("not sgprep's\n")
    (folder / "sub" / "notes.md").write_text("mine\n")
    return folder, tree_hash(folder)


@pytest.fixture
def table(tmp_path):
    path = tmp_path / "c.txt"
    path.write_text(CAPTIONS)
    return path


def _parse(table, out, *extra, ok=False):
    return run_cli(
        "parse", "-i", table, "-o", out, "--no-progress", "--workers", "1", *extra, ok=ok
    )


def test_a_planted_meta_link_is_refused_and_overwrite_empties_nothing(tmp_path, table, victim):
    folder, before = victim
    out = tmp_path / "o"
    out.mkdir()
    (out / "_meta").symlink_to(folder)
    for extra in ((), ("--overwrite",)):
        result = _parse(table, out, *extra)
        assert result.exit_code == 2 and "symbolic link" in result.output, result.output
        assert tree_hash(folder) == before
    assert sorted(p.name for p in out.iterdir()) == ["_meta"]


def test_links_planted_inside_meta_are_replaced_or_refused(tmp_path, table, victim):
    folder, before = victim
    out = tmp_path / "o"
    (out / "_meta").mkdir(parents=True)
    for name in writer_base.META_FILES:
        (out / "_meta" / name).symlink_to(folder / "run.json")
        (out / "_meta" / f".{name}.tmp").symlink_to(folder / "important.txt")
    _parse(table, out, ok=True)
    run_cli("stats", out)
    assert tree_hash(folder) == before
    for name in ("run.json", "plan.json", "stats.parquet", "report.html"):  # written: replaced
        assert (out / "_meta" / name).is_file() and not (out / "_meta" / name).is_symlink()
    lock = out / "_meta" / "lock"
    lock.unlink()
    lock.symlink_to(folder / "important.txt")
    result = _parse(table, out, "--overwrite")
    assert result.exit_code == 2 and "lock" in result.output, result.output
    assert tree_hash(folder) == before


def test_stats_does_not_write_through_a_meta_link(tmp_path, table, victim):
    folder, _ = victim
    out = tmp_path / "o"
    _parse(table, out, ok=True)
    for item in (out / "_meta").iterdir():  # the victim now looks like the output's _meta
        os.replace(item, folder / item.name)
    (out / "_meta").rmdir()
    (out / "_meta").symlink_to(folder)
    before = tree_hash(folder)
    result = run_cli("stats", out, ok=False)
    assert result.exit_code != 0 and "symbolic link" in result.output, result.output
    assert tree_hash(folder) == before


def test_a_planted_parts_link_is_refused(tmp_path, table, victim):
    folder, before = victim
    out = tmp_path / "out.jsonl"
    out.with_name("out.jsonl.parts").symlink_to(folder)
    for extra in ((), ("--overwrite",)):
        result = _parse(table, out, *extra)
        assert result.exit_code == 2 and "symbolic link" in result.output, result.output
        assert tree_hash(folder) == before
    assert not out.exists()


def test_a_planted_run_json_link_beside_jsonl_is_replaced_not_written_through(
    tmp_path, table, victim
):
    folder, before = victim
    out = tmp_path / "out.jsonl"
    out.with_name("out.run.json").symlink_to(folder / "run.json")
    _parse(table, out, "--overwrite", ok=True)
    assert tree_hash(folder) == before
    meta = out.with_name("out.run.json")
    assert meta.is_file() and not meta.is_symlink() and b"fingerprint" in meta.read_bytes()
    assert run_cli("validate", out).exit_code == 0


def test_planted_links_named_like_shards_are_unlinked_never_followed(tmp_path, table, victim):
    folder, before = victim
    out = tmp_path / "o"
    _parse(table, out, ok=True)
    (out / "00000.tar").unlink()
    (out / "00000.tar").symlink_to(folder / "important.txt")
    (out / ".00000.parquet.tmp").symlink_to(folder / "sub" / "notes.md")
    _parse(table, out, "--overwrite", ok=True)
    assert tree_hash(folder) == before
    assert not (out / "00000.tar").is_symlink() and run_cli("validate", out).exit_code == 0


def test_overwrite_keeps_files_that_sgprep_did_not_write(tmp_path, table):
    out = tmp_path / "u"
    (out / "_meta" / "notes").mkdir(parents=True)
    (out / "_meta" / "readme.md").write_text("about this dataset\n")
    (out / "_meta" / "notes" / "a.txt").write_text("mine\n")
    (out / ".mine.tmp").write_text("mine\n")
    (out / "99999.tar").write_text("not a shard of this run\n")  # named like one, never planned
    assert _parse(table, out).exit_code == 2  # refused: shard-like files of unknown origin
    os.remove(out / "99999.tar")
    _parse(table, out, ok=True)
    (out / "_meta" / "mine.json").write_text("{}\n")
    _parse(table, out, "--overwrite", "--shard-size", "5", ok=True)
    kept = {p.relative_to(out).as_posix() for p in out.rglob("*")}
    assert {"_meta/readme.md", "_meta/notes/a.txt", "_meta/mine.json", ".mine.tmp"} <= kept
    assert sorted(p.name for p in out.glob("*.tar")) == ["00000.tar", "00001.tar", "00002.tar"]
    assert run_cli("validate", out).exit_code == 0


def test_an_output_that_climbs_above_root_is_one_clear_line(tmp_path, table):
    result = _parse(table, f"/..{tmp_path}/x")
    assert result.exit_code == 2 and "climbs above /" in result.output, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert not (tmp_path / "x").exists()


@pytest.mark.parametrize("name", ["cdir", "c.jsonl"])
def test_a_run_refused_for_the_lock_deletes_nothing_of_the_run_that_holds_it(
    tmp_path, table, monkeypatch, name
):
    """The other run creates the output and takes its lock between this run's start and its
    own try for the lock: the refused run must leave every file of it alone."""
    out = tmp_path / name
    root = out.with_name(name + ".parts") if name.endswith(".jsonl") else out
    held = []
    take_lock = writer_base.Writer._lock

    def other_run_first(self):
        (root / "_meta").mkdir(parents=True, exist_ok=True)
        fd = os.open(root / "_meta" / "lock", os.O_RDWR | os.O_CREAT)
        fcntl.flock(fd, fcntl.LOCK_EX)
        os.write(fd, b"4242\n")
        (root / "_meta" / "plan.json").write_text("{}")  # the other run's work so far
        held.append(fd)
        take_lock(self)

    monkeypatch.setattr(writer_base.Writer, "_lock", other_run_first)
    result = _parse(table, out)
    assert result.exit_code == 2 and "pid 4242" in result.output, result.output
    assert sorted(p.name for p in (root / "_meta").iterdir()) == ["lock", "plan.json"]
    os.close(held[0])


def test_a_failed_start_removes_only_what_it_made(tmp_path):
    odd = tmp_path / "odd.csv"  # refused while planning, after the output was prepared
    odd.write_text("id,label\n7,a cat on a mat\n")
    out = tmp_path / "new" / "o"
    assert _parse(odd, out).exit_code == 2
    assert not (tmp_path / "new").exists()
    mine = tmp_path / "mine"
    (mine / "_meta").mkdir(parents=True)
    (mine / "_meta" / "readme.md").write_text("x\n")
    assert _parse(odd, mine).exit_code == 2
    assert sorted(p.relative_to(mine).as_posix() for p in mine.rglob("*")) == [
        "_meta",
        "_meta/readme.md",
    ]


@pytest.mark.slow
def test_two_runs_started_together_never_destroy_each_other(tmp_path):
    """The issue's reproduction: one run wins the lock, the other is refused and deletes
    nothing; the winner's output is complete and valid."""
    table = tmp_path / "c2k.txt"
    table.write_text("".join(f"a dog under a table number {i}\n" for i in range(2000)))
    out = tmp_path / "cdir"
    cmd = [
        sys.executable,
        "-m",
        "sgprep.cli",
        "parse",
        "-i",
        str(table),
        "-o",
        str(out),
        "--no-progress",
        "--workers",
        "1",
    ]
    first = subprocess.Popen(cmd, stderr=subprocess.PIPE, text=True)
    second = subprocess.Popen(cmd + ["--shard-size", "70"], stderr=subprocess.PIPE, text=True)
    codes = sorted([first.wait(), second.wait()])
    errors = first.stderr.read() + second.stderr.read()
    assert codes in ([0, 0], [0, 2]), errors
    if codes == [0, 2]:
        assert "another sgprep run" in errors or "other settings" in errors, errors
    assert run_cli("validate", out).exit_code == 0


def test_an_interrupted_run_leaves_no_tar_without_its_stats_and_resumes(
    tmp_path, table, monkeypatch
):
    reference = tmp_path / "reference"
    _parse(table, reference, "--shard-size", "5", ok=True)
    out = tmp_path / "o"
    write = writer_base.atomic_write
    for stop_at in ("00001_stats.json", "publish"):

        def interrupt(path, data, stop_at=stop_at):
            if path.name == stop_at:
                raise KeyboardInterrupt
            write(path, data)

        def interrupt_publish(self, _publish=writers._TarSink._publish):
            if self.index == 1:
                raise KeyboardInterrupt
            _publish(self)

        if stop_at == "publish":
            monkeypatch.setattr(writers._TarSink, "_publish", interrupt_publish)
        else:
            monkeypatch.setattr(writer_base, "atomic_write", interrupt)
        result = _parse(table, out, "--shard-size", "5")
        assert result.exit_code == 130, result.output
        for tar in out.glob("*.tar"):  # every tar under its final name is a finished shard
            assert (out / f"{tar.stem}_stats.json").is_file()
            assert (out / f"{tar.stem}.parquet").is_file()
        assert not (out / "00001.tar").exists()
        monkeypatch.undo()
        _parse(table, out, "--shard-size", "5", ok=True)
        assert tree_hash(out / "_meta") != "" and _files(out) == _files(reference)
        assert not list(out.glob(".*.tmp"))
        for path in out.glob("0*"):
            path.unlink()


def _files(out):
    return {p.name: p.read_bytes() for p in out.iterdir() if p.is_file()}


def test_single_file_outputs_are_never_written_through_planted_links(tmp_path, table, victim):
    """vocab and mine-images write one file: links planted at its name and at any temp name
    (the old and the current) are replaced, their targets untouched."""
    folder, before = victim
    parsed = tmp_path / "parsed"
    _parse(table, parsed, ok=True)
    for name in ("vocab.json", "mined.jsonl"):
        for planted in (name, f"{name}.tmp", f".{name}.tmp"):
            (tmp_path / planted).symlink_to(folder / "important.txt")
    run_cli("vocab", "-i", parsed, "-o", tmp_path / "vocab.json")
    run_cli("negatives", "-i", parsed, "-o", tmp_path / "mined.jsonl", "--strategy", "mine-images")
    assert tree_hash(folder) == before
    for name in ("vocab.json", "mined.jsonl"):
        assert (tmp_path / name).is_file() and not (tmp_path / name).is_symlink()


@pytest.mark.slow
def test_ctrl_c_with_two_workers_leaves_only_finished_tars_and_resumes(tmp_path):
    table = tmp_path / "c.txt"
    table.write_text("".join(f"a dog under a table number {i}\n" for i in range(1500)))
    cmd = [
        sys.executable,
        "-m",
        "sgprep.cli",
        "parse",
        "-i",
        str(table),
        "--no-progress",
        "--workers",
        "2",
        "--shard-size",
        "50",
        "-o",
    ]
    env = {**os.environ, "PYTHONHASHSEED": "0"}
    reference, out = tmp_path / "reference", tmp_path / "o"
    subprocess.run(cmd + [str(reference)], check=True, env=env, capture_output=True)
    # Ctrl-C as at a terminal: a test run launched in the background ("make test &") passes
    # its children SIGINT ignored, and Python then installs no KeyboardInterrupt handler
    proc = subprocess.Popen(
        cmd + [str(out)],
        env=env,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    while len(list(out.glob("*_stats.json"))) < 4 and proc.poll() is None:
        time.sleep(0.005)
    proc.send_signal(signal.SIGINT)
    assert proc.wait() == 130, proc.stderr.read()
    done = len(list(out.glob("*_stats.json")))
    assert done < 30, "the interrupt should land mid-run"
    for tar in out.glob("*.tar"):
        assert (out / f"{tar.stem}_stats.json").is_file(), tar
    subprocess.run(cmd + [str(out)], check=True, env=env, capture_output=True)
    assert _files(out) == _files(reference) and not list(out.glob(".*.tmp"))


def test_a_reopened_shard_leaves_no_tar_until_it_is_done_again(tmp_path):
    """--redo-fallbacks reopens a finished shard: from then until its new stats, its tar is
    not under its final name (a Ctrl-C there leaves nothing a trainer would read)."""
    from sgprep.schema import Sample

    writer = writers.make_writer(tmp_path / "o")
    writer.prepare({"settings": {}}, "f", overwrite=False)
    samples = [Sample(key=f"k{i}", source="t", caption=f"caption {i}") for i in range(3)]
    for index in range(2):
        sink = writer.open_shard(index)
        sink.add(samples)
        sink.close({})
    first = (tmp_path / "o" / "00000.tar").read_bytes()
    writer.reopen(0)
    assert not writer.is_done(0) and not (tmp_path / "o" / "00000.tar").exists()
    assert (tmp_path / "o" / "00001.tar").exists()
    sink = writer.open_shard(0)
    sink.add(samples)
    assert not (tmp_path / "o" / "00000.tar").exists()
    sink.close({})
    assert (tmp_path / "o" / "00000.tar").read_bytes() == first
    writer.release()
