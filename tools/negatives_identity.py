"""Are two versions' negatives the same bytes? `sgprep negatives` run by each, every file hashed.

    sgprep parse factual_test.csv -o /tmp/parsed_test --caption-column caption
    python tools/negatives_identity.py /tmp/parsed_test [MORE_PARSED ...] --before HEAD
    python tools/negatives_identity.py /tmp/parsed_test --before main --after my-branch

A version is a git ref, exported with ``git archive`` into a scratch folder (git's state is not
touched), or ``worktree``: this checkout as it is (the default for ``--after``). Each version
runs ``sgprep negatives`` (with ``PYTHONPATH`` set to its code) on each parsed input, in each
configuration of :data:`RUNS`: every strategy with graphs and tables; every strategy with
templates, without plausibility, 8 per sample, seed 3; and ``mine-images``. The inputs are
parsed once, outside, so that both versions read the same graphs. Every output file but the
run's own records (``_meta/``) is hashed with sha256 and the two versions compared. Prints the
count of files compared and each file that differs or is missing in one version; exits 1 if
any does.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
ALL = "swap,shuffle,replace,connect,subgraph"
#: name -> the flags of one `sgprep negatives` run (its output: a folder, or a file for mining)
RUNS: dict[str, list[str]] = {
    "all": ["--strategy", ALL, "--graphs", "--table"],
    "template": [
        "--strategy",
        ALL,
        "--template",
        "--no-plausibility",
        "--per-sample",
        "8",
        "--seed",
        "3",
    ],
    "mine.parquet": ["--strategy", "mine-images"],
}


def code_of(version: str, scratch: Path) -> Path:
    """The folder whose ``sgprep/`` is ``version``'s code."""
    if version == "worktree":
        return ROOT
    out = scratch / "code"
    out.mkdir()
    archive = subprocess.run(
        ["git", "archive", version, "sgprep"], cwd=ROOT, capture_output=True, check=True
    )
    subprocess.run(["tar", "-x", "-C", str(out)], input=archive.stdout, check=True)
    return out


def run_version(version: str, inputs: list[Path], scratch: Path, workers: int) -> dict[str, str]:
    """sha256 of every output file of ``version``'s runs, by its path under ``scratch``."""
    scratch.mkdir(parents=True)
    code = code_of(version, scratch)
    env = {**os.environ, "PYTHONPATH": str(code)}
    hashes = {}
    for n, parsed in enumerate(inputs):
        for name, flags in RUNS.items():
            out = scratch / f"{n}_{parsed.name}" / name
            cmd = [sys.executable, "-c", "from sgprep.cli import entry; entry()", "negatives"]
            cmd += [str(parsed), "-o", str(out), "--no-progress", "--workers", str(workers)]
            done = subprocess.run(cmd + flags, env=env, cwd=scratch, capture_output=True, text=True)
            if done.returncode:
                sys.exit(f"{version}: {' '.join(cmd + flags)} failed:\n{done.stderr[-3000:]}")
            files = [out] if out.is_file() else sorted(p for p in out.rglob("*") if p.is_file())
            for path in files:
                if "_meta" not in path.relative_to(scratch).parts:
                    digest = hashlib.sha256(path.read_bytes()).hexdigest()
                    hashes[str(path.relative_to(scratch))] = digest
    return hashes


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("inputs", nargs="+", type=Path, help="outputs of `sgprep parse`")
    ap.add_argument("--before", required=True, help="a git ref, or worktree")
    ap.add_argument("--after", default="worktree", help="a git ref, or worktree (default)")
    ap.add_argument("--workers", type=int, default=2)
    args = ap.parse_args(argv)
    inputs = [p.resolve() for p in args.inputs]
    with tempfile.TemporaryDirectory(prefix="negatives_identity_") as tmp:
        before = run_version(args.before, inputs, Path(tmp) / "before", args.workers)
        after = run_version(args.after, inputs, Path(tmp) / "after", args.workers)
    differ = sorted(k for k in before.keys() | after.keys() if before.get(k) != after.get(k))
    for key in differ:
        print(f"differs: {key}" if key in before and key in after else f"in one only: {key}")
    print(f"{len(before.keys() | after.keys())} files compared, {len(differ)} differ")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
